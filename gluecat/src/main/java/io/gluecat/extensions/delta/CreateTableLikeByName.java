package io.gluecat.extensions.delta;

import io.gluecat.catalog.GlueTarget;

import io.gluecat.compat.GlueCommandPlan;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.execution.command.CreateTableLikeCommand;

/**
 * CREATE TABLE t LIKE s in session mode on Spark 3.5 and 4.1, whose parser makes it a command of Spark's built-in
 * catalog: gluecat creates {@code t} with {@code s}'s columns and partitioning, as Spark 4.2 asks the catalog to.
 */
final class CreateTableLikeByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final CreateTableLikeCommand statement;
  private final Optional<GlueTarget> source;

  CreateTableLikeByName(GlueTarget target, CreateTableLikeCommand statement, Optional<GlueTarget> source) {
    super(List.of());
    this.target = target;
    this.statement = statement;
    this.source = source;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    if (source.isEmpty()) {
      throw new NoSuchTableException(statement.sourceTable().nameParts());
    }
    if (statement.fileFormat().inputFormat().isDefined() || statement.fileFormat().serde().isDefined()) {
      throw new UnsupportedOperationException(String.format("CREATE TABLE %s LIKE %s: gluecat creates data source "
          + "tables; name the format with USING instead of STORED AS or ROW FORMAT. Nothing was created.",
          target.qualified(), source.get().qualified()));
    }
    if (statement.ifNotExists() && target.catalog().tableExists(target.ident())) {
      return List.of();
    }
    Table from = source.get().catalog().loadTable(source.get().ident());
    Map<String, String> properties = new LinkedHashMap<>(io.gluecat.compat.Scala.javaMap(statement.properties()));
    if (statement.provider().isDefined()) {
      properties.put(TableCatalog.PROP_PROVIDER, statement.provider().get());
    }
    if (statement.fileFormat().locationUri().isDefined()) {
      properties.put(TableCatalog.PROP_LOCATION, statement.fileFormat().locationUri().get().toString());
    }
    properties.put(TableCatalog.PROP_OWNER, spark.sparkContext().sparkUser());
    target.catalog().createTableLike(target.ident(), from.schema(), from.partitioning(), properties, from);
    return List.of();
  }

  @Override
  public String simpleString(int maxFields) {
    return "CreateTableLikeByName " + target.qualified();
  }
}
