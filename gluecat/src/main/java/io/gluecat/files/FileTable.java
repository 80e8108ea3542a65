package io.gluecat.files;

import io.gluecat.entry.EntryV1Table;
import io.gluecat.partitions.GluePartitionManagement;
import io.gluecat.partitions.PartitionCommands;
import java.util.Set;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.types.StructType;

/**
 * A file source table as Spark reads it: its {@code V1Table} (Spark's file source reads and inserts it; the
 * catalog's own settings stay out of its properties, see {@link EntryV1Table}), with partition DDL and TRUNCATE through Glue ({@link GluePartitionManagement}), which Spark asks a catalog plugin's
 * table for.
 */
public final class FileTable extends EntryV1Table implements GluePartitionManagement {
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
}
