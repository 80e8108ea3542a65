package io.gluecat.files;

import io.gluecat.entry.EntryV1Table;
import io.gluecat.partitions.GluePartitionManagement;
import io.gluecat.partitions.PartitionCommands;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.spark.sql.catalyst.catalog.CatalogStatistics;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A file source table as Spark reads it: its {@code V1Table} (Spark's file source reads and inserts it; the
 * catalog's own settings stay out of its properties, see {@link EntryV1Table}), with partition DDL and TRUNCATE through Glue ({@link GluePartitionManagement}), which Spark asks a catalog plugin's
 * table for.
 *
 * <p>Spark reads a {@code V1Table} of a catalog plugin through its V1 file source, whose estimate comes from the
 * CatalogTable's statistics; its V2 DESCRIBE EXTENDED of the same table asks the table's scan for them instead,
 * so this table also answers {@link #newScanBuilder} with a scan that only reports the stored statistics (Spark
 * never reads through it: it plans the V1 relation first).
 */
public final class FileTable extends EntryV1Table implements GluePartitionManagement, SupportsRead {
  private final transient PartitionCommands partitions;

  public FileTable(CatalogTable table, Set<String> catalogSettings, PartitionCommands partitions) {
    super(table, catalogSettings);
    this.partitions = partitions;
  }

  /**
   * The columns with their declared CHAR/VARCHAR types: the entry keeps such a column as a string with its type
   * in the field metadata (as Spark's own catalog keeps it), which Spark's V1 commands read back but its V2
   * commands (DESCRIBE, SHOW CREATE TABLE of a named catalog) do not. Spark reads and writes the table through
   * the CatalogTable, whose schema is unchanged.
   */
  @Override
  @SuppressWarnings("deprecation")
  public StructType schema() {
    return CharVarcharUtils.getRawSchema(super.schema());
  }

  @Override
  public PartitionCommands partitionCommands() {
    return partitions;
  }

  /**
   * Whether Spark's V1 commands print {@code Partition Provider: Catalog} for this table, as its own catalog does
   * for a table whose partitions it keeps: partitioned, with Glue keeping the partitions. The CatalogTable does not
   * say so itself: it must not send Spark to its own catalog for them (tracksPartitionsInCatalog is false).
   */
  public boolean partitionProviderIsCatalog() {
    CatalogTable table = v1Table();
    return !table.tracksPartitionsInCatalog() && !table.partitionColumnNames().isEmpty() && partitions.inGlue();
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    StructType schema = schema();
    scala.Option<CatalogStatistics> stored = v1Table().stats();
    return () -> new StatisticsScan(schema, stored.isDefined() ? stored.get() : null);
  }

  /** The stored statistics as a scan reports them: size and row count (no scan: nothing is read through it). */
  private record StatisticsScan(StructType readSchema, CatalogStatistics stored)
      implements Scan, SupportsReportStatistics {
    @Override
    public Statistics estimateStatistics() {
      OptionalLong size = stored == null ? OptionalLong.empty() : OptionalLong.of(stored.sizeInBytes().longValue());
      OptionalLong rows = stored == null || stored.rowCount().isEmpty() ? OptionalLong.empty()
          : OptionalLong.of(stored.rowCount().get().longValue());
      return new Statistics() {
        @Override
        public OptionalLong sizeInBytes() {
          return size;
        }

        @Override
        public OptionalLong numRows() {
          return rows;
        }
      };
    }
  }
}
