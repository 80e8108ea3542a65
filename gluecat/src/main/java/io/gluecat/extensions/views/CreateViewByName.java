package io.gluecat.extensions.views;


import io.gluecat.compat.Scala;
import io.gluecat.entry.ViewEntry;
import io.gluecat.entry.ViewFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import scala.Option;
import scala.Tuple2;

/**
 * CREATE [OR REPLACE] VIEW [IF NOT EXISTS] of a gluecat name where Spark would not ask the catalog (Spark 3.5 and
 * 4.1, and session mode on every line): the view Spark 4.2 would hand the catalog, written through GlueViews.
 */
final class CreateViewByName extends ViewCommand {
  private final scala.collection.Seq<Tuple2<String, Option<String>>> columns;
  private final Option<String> comment;
  private final scala.collection.Map<String, String> properties;
  private final Option<String> sql;
  private final LogicalPlan query;
  private final boolean ifNotExists;
  private final boolean replace;
  private final String schemaMode;
  private final String collation;

  CreateViewByName(GlueView view, scala.collection.Seq<Tuple2<String, Option<String>>> columns,
      Option<String> comment, scala.collection.Map<String, String> properties, Option<String> sql, LogicalPlan query,
      boolean ifNotExists, boolean replace, String schemaMode, String collation) {
    super(view);
    this.columns = columns;
    this.comment = comment;
    this.properties = properties;
    this.sql = sql;
    this.query = query;
    this.ifNotExists = ifNotExists;
    this.replace = replace;
    this.schemaMode = schemaMode;
    this.collation = collation;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    if (sql.isEmpty()) {
      throw new IllegalArgumentException("Cannot create view " + view.qualified() + " from a Dataset: a view in "
          + "Glue needs its SQL text; create it with a CREATE VIEW statement");
    }
    if (ifNotExists && (view.views().find(view.name()).isPresent() || view.isTable())) {
      return List.of(); // as Spark's own catalog: IF NOT EXISTS leaves whatever has the name
    }
    ViewQuery defined = ViewQuery.of(spark, view, sql.get(), query, columns, replace);
    Map<String, String> sparkProperties = new LinkedHashMap<>(Scala.javaMap(properties));
    if (comment.isDefined()) {
      sparkProperties.put(ViewFormat.PROP_COMMENT, comment.get());
    }
    sparkProperties.put(ViewFormat.PROP_OWNER, spark.sparkContext().sparkUser());
    if (collation != null) {
      sparkProperties.put(ViewFormat.PROP_COLLATION, collation);
    }
    ViewEntry entry = ViewFormat.fromSpark(view.target().catalog().name(), view.name().database(),
        view.name().table(), defined.sql(), defined.schema(), sparkProperties, defined.currentCatalog(),
        defined.currentNamespace(), defined.sqlConfigs(), schemaMode,
        // as Spark: a view that follows its query's schema (EVOLUTION) keeps no query column names
        "EVOLUTION".equals(schemaMode) ? List.of() : defined.queryColumnNames());
    try {
      if (replace) {
        view.views().createOrReplace(entry);
      } else {
        view.views().create(entry);
      }
    } catch (TableAlreadyExistsException e) {
      if (view.isTable()) {
        throw new IllegalArgumentException(String.format("Cannot create view %s: a table has that name, and a "
            + "view never replaces a table. Nothing was written.", view.qualified()), e);
      }
      if (!ifNotExists) {
        throw e;
      }
    }
    return List.of();
  }
}
