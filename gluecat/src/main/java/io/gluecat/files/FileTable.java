package io.gluecat.files;

import io.gluecat.entry.EntryV1Table;
import io.gluecat.partitions.GluePartitionManagement;
import io.gluecat.partitions.PartitionCommands;
import java.util.Set;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;

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

  @Override
  public PartitionCommands partitionCommands() {
    return partitions;
  }
}
