package io.gluecat.files;

import io.gluecat.partitions.GluePartitionManagement;
import io.gluecat.partitions.PartitionCommands;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.connector.catalog.V1Table;

/**
 * A file source table as Spark reads it: its {@code V1Table} (Spark's file source reads and inserts it), with
 * partition DDL and TRUNCATE through Glue ({@link GluePartitionManagement}), which Spark asks a catalog plugin's
 * table for.
 */
public final class FileTable extends V1Table implements GluePartitionManagement {
  private final transient PartitionCommands partitions;

  public FileTable(CatalogTable table, PartitionCommands partitions) {
    super(table);
    this.partitions = partitions;
  }

  @Override
  public PartitionCommands partitionCommands() {
    return partitions;
  }
}
