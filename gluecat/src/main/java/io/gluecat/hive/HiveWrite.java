package io.gluecat.hive;

import io.gluecat.partitions.StaticPartitions;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.SupportsDynamicOverwrite;
import org.apache.spark.sql.connector.write.SupportsOverwrite;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.Filter;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;

/**
 * A write into a Hive-format table: {@code INSERT INTO}, {@code INSERT OVERWRITE} of the whole table, of
 * static partitions or (with {@code partitionOverwriteMode=dynamic}) of the partitions written, and
 * {@code DataFrameWriter.insertInto}. The rows become files of the entry's format, written by Spark's own file
 * writer with the options that make them files the entry's SerDe reads ({@link HiveWriteFormats}), in Hive's
 * {@code key=value} directories under the table's location, or in an existing partition's own location
 * wherever Glue says it is. The partitions the write adds become Glue partition objects, as Hive and Trino
 * add them, so that every Glue reader (Trino's Hive connector, Athena, Spark's Hive path) sees the rows.
 *
 * <p>An overwrite never deletes before the new files are committed: the files it replaces are removed after
 * the job's commit (they are the ones whose names lack this job's id), so a failed write leaves the table as
 * it was and a failure after the commit leaves the old rows beside the new, never neither.
 */
final class HiveWrite implements Write, RequiresDistributionAndOrdering {
  /**
   * The table a write goes to.
   *
   * @param name catalog.database.table, for messages
   * @param serde the entry's SerDe, for messages
   * @param source what the entry is to Spark: format, options, columns, partition keys
   * @param location the table's location
   * @param options the source's options with the catalog's shareable Hadoop settings (no {@code path})
   * @param storage the entry's StorageDescriptor, the model of the partition objects a write adds
   * @param partitions the table's Glue partition objects
   */
  record Target(String name, String serde, HiveSource source, String location, Map<String, String> options,
      StorageDescriptor storage, HivePartitions partitions) {}

  enum Mode { APPEND, OVERWRITE, DYNAMIC }

  /** What Spark asks for: an append, an overwrite of what the filters select, or of the partitions written. */
  static final class Builder implements SupportsOverwrite, SupportsDynamicOverwrite {
    private final Target target;
    private final LogicalWriteInfo info;
    private Mode mode = Mode.APPEND;
    private Filter[] filters = new Filter[0];

    Builder(Target target, LogicalWriteInfo info) {
      this.target = target;
      this.info = info;
    }

    @Override
    public WriteBuilder overwrite(Filter[] filters) {
      // checked now, while the statement is planned: only partition values can be overwritten
      for (Filter f : filters) {
        matches(target, f, Map.of());
      }
      this.mode = Mode.OVERWRITE;
      this.filters = filters.clone();
      return this;
    }

    @Override
    public WriteBuilder overwriteDynamicPartitions() {
      this.mode = target.source().partitionColumns().isEmpty() ? Mode.OVERWRITE : Mode.DYNAMIC;
      return this;
    }

    @Override
    public Write build() {
      return new HiveWrite(target, info, mode, filters);
    }
  }

  private final Target target;
  private final LogicalWriteInfo info;
  private final Mode mode;
  private final Filter[] filters;

  private HiveWrite(Target target, LogicalWriteInfo info, Mode mode, Filter[] filters) {
    this.target = target;
    this.info = info;
    this.mode = mode;
    this.filters = filters;
  }

  @Override
  public String description() {
    return String.format("%s files of Hive-format table %s", target.source().format(), target.name());
  }

  @Override
  public Distribution requiredDistribution() {
    return Distributions.unspecified();
  }

  /** Spark's partitioned file writer closes a partition's file when the next row is of another partition. */
  @Override
  public SortOrder[] requiredOrdering() {
    return target.source().partitionColumns().stream()
        .map(c -> Expressions.sort(Expressions.column(c), SortDirection.ASCENDING)).toArray(SortOrder[]::new);
  }

  @Override
  public BatchWrite toBatch() {
    return new HiveBatchWrite(target, info, mode, filters);
  }

  /**
   * Whether a partition spec satisfies one of an overwrite's filters (StaticPartitions); a filter on anything but
   * the partition keys is refused while planning.
   */
  static boolean matches(Target target, Filter filter, Map<String, String> spec) {
    List<String> keys = target.source().partitionColumns();
    return StaticPartitions.selects(filter, spec, keys, f -> new UnsupportedOperationException(String.format(
        "Table %s: an overwrite of a Hive-format table replaces whole partitions, selected by values of its "
            + "partition keys %s; it cannot replace the rows where %s. Nothing was written.", target.name(), keys,
        f)));
  }
}
