package io.gluecat.extensions.views;


import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.Tuple2;

/**
 * A view's analysed query and what Spark records with it (as Spark 4.2 hands a catalog in its View): the columns,
 * renamed and commented as the statement says, the query's own column names, the current catalog and namespace,
 * and the SQL settings in force.
 */
record ViewQuery(String sql, StructType schema, List<String> queryColumnNames, String currentCatalog,
    List<String> currentNamespace, java.util.Map<String, String> sqlConfigs) {

  static ViewQuery of(SparkSession spark, GlueView view, String sql, LogicalPlan query,
      scala.collection.Seq<Tuple2<String, Option<String>>> userColumns, boolean redefining) {
    // Spark's own checks of the query (MISSING_AGGREGATION, ...), which its view command would run: the query is
    // only resolved here, and nothing may reach Glue for a query Spark refuses
    spark.sessionState().analyzer().checkAnalysis(query);
    SparkCompat.checkViewQuery(view.identifier(), query, redefining);
    StructType output = query.schema();
    List<Tuple2<String, Option<String>>> columns = Scala.javaList(userColumns);
    if (!columns.isEmpty() && columns.size() != output.size()) {
      throw new IllegalArgumentException(String.format("Cannot create view %s: it names %d columns (%s) but its "
          + "query returns %d (%s)", view.qualified(), columns.size(),
          String.join(", ", columns.stream().map(Tuple2::_1).toList()), output.size(),
          String.join(", ", output.fieldNames())));
    }
    StructType schema = new StructType();
    for (int i = 0; i < output.size(); i++) {
      StructField field = output.fields()[i];
      if (!columns.isEmpty()) {
        Tuple2<String, Option<String>> column = columns.get(i);
        MetadataBuilder metadata = new MetadataBuilder().withMetadata(field.metadata());
        if (column._2().isDefined()) {
          metadata.putString("comment", column._2().get());
        }
        field = new StructField(column._1(), field.dataType(), field.nullable(), metadata.build());
      }
      schema = schema.add(field);
    }
    schema = CharVarcharUtils.getRawSchema(schema);
    Set<String> seen = new HashSet<>();
    for (String name : schema.fieldNames()) {
      if (!seen.add(name.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException(String.format("Cannot define view %s: column %s appears twice; give "
            + "the columns distinct names", view.qualified(), name));
      }
    }
    CatalogManager manager = spark.sessionState().catalogManager();
    return new ViewQuery(sql, schema, Arrays.asList(output.fieldNames()), manager.currentCatalog().name(),
        Arrays.asList(manager.currentNamespace()), SparkCompat.viewSqlConfigs(spark));
  }
}
