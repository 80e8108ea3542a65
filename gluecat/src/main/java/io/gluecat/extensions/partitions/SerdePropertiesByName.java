package io.gluecat.extensions.partitions;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.compat.SparkCompat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.errors.QueryCompilationErrors;

/**
 * {@code ALTER TABLE t SET SERDEPROPERTIES (..)} of a gluecat file source table, as Spark's
 * {@code AlterTableSerDePropertiesCommand} runs it for a data source table of its own catalog: the pairs are merged
 * into the table's storage properties, which for such a table are its data source options, through gluecat's
 * option changes (one UpdateTable at the entry's VersionId, {@code files.FileTables#alter}). A SerDe class or a
 * partition is refused with Spark's errors for data source tables, in Spark's order (the partition first).
 */
final class SerdePropertiesByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final Optional<String> serdeClass;
  private final Optional<Map<String, String>> properties;
  private final Optional<Map<String, String>> partition;

  SerdePropertiesByName(GlueTarget target, Optional<String> serdeClass, Optional<Map<String, String>> properties,
      Optional<Map<String, String>> partition) {
    super(List.of()); // no rows, as Spark's command
    this.target = target;
    this.serdeClass = serdeClass;
    this.properties = properties;
    this.partition = partition;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    if (partition.isPresent()) {
      throw (Exception) QueryCompilationErrors.alterTableSetSerdeForSpecificPartitionNotSupportedError();
    }
    if (serdeClass.isPresent()) {
      throw (Exception) SparkCompat.alterTableSetSerdeError(target.qualified());
    }
    TableChange[] changes = properties.orElse(Map.of()).entrySet().stream()
        .map(e -> TableChange.setProperty(TableCatalog.OPTION_PREFIX + e.getKey(), e.getValue()))
        .toArray(TableChange[]::new);
    if (changes.length > 0) {
      target.catalog().alterTable(target.ident(), changes);
    }
    spark.catalog().refreshTable(target.qualified());
    return List.of();
  }

  @Override
  public String simpleString(int maxFields) {
    return "SerdePropertiesByName " + target.qualified() + " " + properties.orElse(Map.of()).keySet();
  }
}
