package io.gluecat.extensions.statistics;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.entry.EntryStatistics;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.files.FileStatistics;
import io.gluecat.files.FileTable;
import io.gluecat.glue.GlueGateway;
import io.gluecat.partitions.PartitionSync;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.catalog.CatalogStatistics;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;

/**
 * ANALYZE TABLE of a gluecat file source table, as Spark's own catalog runs it (its {@code AnalyzeTableCommand}
 * and {@code AnalyzeColumnCommand}): the statistics are computed by {@link FileStatistics} and stored in the Glue
 * entry in Spark's Hive-path shape ({@link EntryStatistics}), with one UpdateTable at the version read, so Spark's
 * readers of the entry (gluecat, Spark's Glue Hive client) give them to the optimizer. A partition's statistics
 * ({@code PARTITION (...)}) are refused: gluecat does not write Glue partition parameters yet.
 */
final class AnalyzeByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final boolean partitions;
  private final boolean noScan;
  /** The columns of FOR COLUMNS; null for the table alone or FOR ALL COLUMNS. */
  private final List<String> columns;
  private final boolean allColumns;

  AnalyzeByName(GlueTarget target, boolean partitions, boolean noScan, List<String> columns, boolean allColumns) {
    super(List.of()); // no rows, as Spark's commands
    this.target = target;
    this.partitions = partitions;
    this.noScan = noScan;
    this.columns = columns;
    this.allColumns = allColumns;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    String qualified = target.qualified();
    if (partitions) {
      throw new UnsupportedOperationException(String.format("ANALYZE TABLE %s PARTITION (...): gluecat does not "
          + "store partition statistics (Spark keeps them in each Glue partition's parameters, which gluecat does "
          + "not write yet). Analyze the whole table instead (ANALYZE TABLE %s COMPUTE STATISTICS). Nothing was "
          + "written.", qualified, qualified));
    }
    GlueGateway glue = target.catalog().parts().glue();
    TableName name = target.catalog().tableName(target.ident());
    StoredTable entry = glue.getStoredTable(name);
    CatalogTable stored = ((FileTable) target.catalog().loadTable(target.ident())).v1Table();
    long size = FileStatistics.size(spark, target.catalog().parts().hadoop(), qualified, locations(glue, name, entry,
        stored));
    Optional<CatalogStatistics> statistics = columns == null && !allColumns
        ? FileStatistics.table(spark, qualified, stored, size, noScan)
        : Optional.of(FileStatistics.columns(spark, qualified, stored, size, allColumns ? null : columns));
    if (statistics.isPresent()) {
      glue.updateStatistics(name, entry, EntryStatistics.parameters(statistics.get()));
      spark.catalog().refreshTable(qualified);
    }
    return List.of();
  }

  /**
   * Where the table's data is, as Spark's catalog measures it: the partitions Glue holds for a table whose
   * partitions it keeps (a partition may have a location of its own), else the table's location.
   */
  private static List<String> locations(GlueGateway glue, TableName name,
      StoredTable entry, CatalogTable stored) throws Exception {
    if (stored.partitionColumnNames().isEmpty() || PartitionSync.notApplicable(entry) != null) {
      return List.of(stored.location().toString());
    }
    return glue.partitions().locations(name);
  }

  @Override
  public String simpleString(int maxFields) {
    return "AnalyzeByName " + target.qualified() + (noScan ? " noscan" : "")
        + (allColumns ? " all columns" : columns != null ? " columns " + columns : "");
  }
}
