package io.gluecat.partitions;

import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.NoSuchPartitionException;
import org.apache.spark.sql.catalyst.analysis.PartitionsAlreadyExistException;
import org.apache.spark.sql.connector.catalog.SupportsAtomicPartitionManagement;
import org.apache.spark.sql.connector.catalog.TruncatableTable;
import org.apache.spark.sql.types.StructType;

/**
 * Spark's partition management and TRUNCATE for a file source table, through {@link PartitionCommands}. Both
 * tables a load of one can return implement it: the {@code V1Table} of reads and DDL and the table of SQL INSERT
 * (Spark 4 loads with write privileges for partition DDL and TRUNCATE too), so the statements work whichever a
 * load returned, in both catalog modes (Spark runs its v2 partition commands for both: gluecat is no
 * {@code CatalogExtension}).
 */
public interface GluePartitionManagement extends SupportsAtomicPartitionManagement, TruncatableTable {

  /** The table's partition commands. */
  PartitionCommands partitionCommands();

  @Override
  default StructType partitionSchema() {
    return partitionCommands().partitionSchema();
  }

  @Override
  default void createPartitions(InternalRow[] idents, Map<String, String>[] properties)
      throws PartitionsAlreadyExistException {
    partitionCommands().create(idents, properties);
  }

  @Override
  default boolean dropPartitions(InternalRow[] idents) {
    return partitionCommands().drop(idents);
  }

  /** PURGE: Spark's catalog drops the files of its tables' partitions either way. */
  @Override
  default boolean purgePartitions(InternalRow[] idents) {
    return partitionCommands().drop(idents);
  }

  @Override
  default boolean purgePartition(InternalRow ident) {
    return partitionCommands().drop(new InternalRow[] {ident});
  }

  @Override
  default boolean renamePartition(InternalRow from, InternalRow to)
      throws PartitionsAlreadyExistException, NoSuchPartitionException {
    return partitionCommands().rename(from, to);
  }

  @Override
  default boolean truncatePartition(InternalRow ident) throws NoSuchPartitionException {
    return partitionCommands().truncate(new InternalRow[] {ident});
  }

  @Override
  default boolean truncatePartitions(InternalRow[] idents) throws NoSuchPartitionException {
    return partitionCommands().truncate(idents);
  }

  @Override
  default boolean truncateTable() {
    return partitionCommands().truncateTable();
  }

  @Override
  default void replacePartitionMetadata(InternalRow ident, Map<String, String> properties) {
    throw new UnsupportedOperationException("gluecat does not replace a partition's metadata");
  }

  @Override
  default Map<String, String> loadPartitionMetadata(InternalRow ident) {
    return partitionCommands().metadata(ident);
  }

  @Override
  default InternalRow[] listPartitionIdentifiers(String[] names, InternalRow ident) {
    return partitionCommands().identifiers(names, ident);
  }
}
