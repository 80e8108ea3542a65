package io.gluecat.files;

import io.gluecat.entry.Bucketing;
import io.gluecat.entry.GlueEntry;
import io.gluecat.partitions.GluePartitionManagement;
import io.gluecat.partitions.PartitionCommands;
import io.gluecat.storage.CatalogHadoopConf;
import io.gluecat.writes.PartitionSortedWrite;
import io.gluecat.writes.WriteModeBuilder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.catalog.BucketSpec;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * A partitioned Hive-compatible file source table (parquet, orc, avro) as the target of a SQL
 * {@code INSERT INTO} / {@code INSERT OVERWRITE} (a load with write privileges that is not DataFrameWriter's,
 * see {@link WriterCall}). Spark's V1 insert of the table's {@code V1Table} would write the files without
 * telling the catalog; this table writes the same files with Spark's own file format writer and commit
 * protocol in Spark's {@code key=value} layout, and then runs the partition sync in the same statement.
 *
 * <p>It shows the table's partitioning, so that Spark resolves static and mixed partition specs into the rows
 * (static values become columns) and asks for: an append ({@code INSERT INTO}); an overwrite of what the
 * static values select ({@code INSERT OVERWRITE} in {@code partitionOverwriteMode=static}, the whole table
 * without a spec); an overwrite of the partitions written ({@code dynamic}). Reads of the table in the same
 * statement still load its {@code V1Table}.
 */
public final class InsertTable implements SupportsWrite, GluePartitionManagement {
  /** How messages name the table's kind. */
  static final String KIND = "file source table";
  private final String name;
  private final GlueEntry entry;
  private final CatalogHadoopConf hadoop;
  private final AfterInsert afterWrite;
  private final PartitionCommands partitions;

  /** What follows an INSERT's commit, given the partition directories it wrote and removed ({@code k1=v1/k2=v2}). */
  public interface AfterInsert {
    void run(List<String> written, List<String> removed);
  }

  public InsertTable(String name, GlueEntry entry, CatalogHadoopConf hadoop, PartitionCommands partitions,
      AfterInsert afterWrite) {
    this.name = name;
    this.partitions = partitions;
    this.entry = entry;
    this.hadoop = hadoop;
    this.afterWrite = afterWrite;
  }

  /** Spark 4 loads a table with write privileges for partition DDL and TRUNCATE too: they run here as well. */
  @Override
  public PartitionCommands partitionCommands() {
    return partitions;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  @SuppressWarnings("deprecation") // Table.schema() is what every Spark line reads for writes
  public StructType schema() {
    return entry.schema();
  }

  @Override
  public Transform[] partitioning() {
    return entry.partitionColumns().stream().map(Expressions::identity).toArray(Transform[]::new);
  }

  @Override
  public Map<String, String> properties() {
    return entry.properties();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_WRITE, TableCapability.TRUNCATE, TableCapability.OVERWRITE_BY_FILTER,
        TableCapability.OVERWRITE_DYNAMIC);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    hadoop.open(name, entry.location());
    Map<String, String> options = hadoop.writeOptions(name, entry.storageProperties(),
        info.options().asCaseSensitiveMap());
    Optional<BucketSpec> bucketSpec = entry.bucketing().map(Bucketing::toSpark);
    Target target = new Target(name, entry.provider(), entry.location(), entry.partitionColumns(), options,
        bucketSpec, afterWrite);
    return new WriteModeBuilder(name, KIND, entry.partitionColumns(), (mode, filters) -> new PartitionSortedWrite(
        String.format("%s files of table %s", target.provider(), name), entry.partitionColumns(), bucketSpec,
        () -> new InsertBatchWrite(target, info, mode, filters)));
  }

  /**
   * What a write needs of its table.
   *
   * @param name catalog.database.table, for messages
   * @param provider parquet, orc or avro
   * @param location the table's location
   * @param partitionColumns the partition columns, in order
   * @param options the table's options with the catalog's shareable Hadoop settings and the statement's options
   * @param bucketSpec the table's bucketing, which the files follow as Spark's V1 insert's do
   * @param afterWrite what follows the commit: the partition sync and forgetting Spark's cached relation
   */
  record Target(String name, String provider, String location, List<String> partitionColumns,
      Map<String, String> options, Optional<BucketSpec> bucketSpec, AfterInsert afterWrite) {}
}
