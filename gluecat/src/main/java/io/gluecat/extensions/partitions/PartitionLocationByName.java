package io.gluecat.extensions.partitions;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.files.FileTable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchPartitionException;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.errors.QueryCompilationErrors;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.PartitioningUtils;

/**
 * {@code ALTER TABLE t PARTITION (..) SET LOCATION '..'} of a gluecat file source table, as Spark's
 * {@code AlterTableSetLocationCommand} runs it for a table of its own catalog: the spec is normalized as Spark does
 * (its errors for a column that is not a partition column, or a spec that does not name each one), the Glue
 * partition object gets the new location ({@code partitions.PartitionCommands#setLocation}, BatchUpdatePartition),
 * and Spark's cached relation of the table is dropped. A partition Glue does not hold is Spark's
 * {@code PARTITIONS_NOT_FOUND}; an unpartitioned table Spark's refusal for a table whose partitions its catalog
 * does not keep.
 */
final class PartitionLocationByName extends GlueCommandPlan {
  private static final String COMMAND = "ALTER TABLE ... SET LOCATION";
  private final GlueTarget target;
  private final Map<String, String> spec;
  private final String location;

  PartitionLocationByName(GlueTarget target, Map<String, String> spec, String location) {
    super(List.of()); // no rows, as Spark's command
    this.target = target;
    this.spec = spec;
    this.location = location;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    FileTable file = (FileTable) target.catalog().loadTable(target.ident());
    CatalogTable table = file.describedTable();
    StructType partitionSchema = file.partitionSchema();
    if (partitionSchema.fields().length == 0) {
      throw (Exception) QueryCompilationErrors.actionNotAllowedOnTableSincePartitionMetadataNotStoredError(COMMAND,
          table.identifier().table());
    }
    Map<String, String> normalized = new LinkedHashMap<>(Scala.javaMap(PartitioningUtils.normalizePartitionSpec(
        SparkCompat.scalaMap(spec), partitionSchema, table.identifier().quotedString(),
        SQLConf.get().resolver())));
    List<String> columns = List.of(partitionSchema.fieldNames());
    // Spark's own check (its SessionCatalog's before a partition is read), with its error on each line
    PartitioningUtils.requireExactMatchedPartitionSpec(table.identifier().toString(),
        SparkCompat.scalaMap(normalized), Scala.list(columns));
    Map<String, String> ordered = new LinkedHashMap<>();
    for (String column : columns) {
      ordered.put(column, normalized.get(column));
    }
    if (!file.partitionCommands().setLocation(ordered, location)) {
      throw new NoSuchPartitionException(table.identifier().database().getOrElse(() -> ""),
          table.identifier().table(), SparkCompat.scalaMap(ordered));
    }
    spark.catalog().refreshTable(target.qualified());
    return List.of();
  }

  @Override
  public String simpleString(int maxFields) {
    return "PartitionLocationByName " + target.qualified() + " " + spec + " " + location;
  }
}
