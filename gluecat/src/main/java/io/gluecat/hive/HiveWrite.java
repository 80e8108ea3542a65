package io.gluecat.hive;

import io.gluecat.entry.StoredTable;
import io.gluecat.writes.PartitionSortedWrite;
import io.gluecat.writes.WriteMode;
import io.gluecat.writes.WriteModeBuilder;
import java.util.Map;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.Filter;

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
final class HiveWrite {
  /** How messages name the table's kind. */
  static final String KIND = "Hive-format table";

  private HiveWrite() {}

  /**
   * The table a write goes to.
   *
   * @param name catalog.database.table, for messages
   * @param serde the entry's SerDe, for messages
   * @param source what the entry is to Spark: format, options, columns, partition keys
   * @param location the table's location
   * @param options the source's options with the catalog's shareable Hadoop settings (no {@code path})
   * @param entry the entry as read, whose storage is the model of the partition objects a write adds
   * @param partitions the table's Glue partition objects
   */
  record Target(String name, String serde, HiveSource source, String location, Map<String, String> options,
      StoredTable entry, HivePartitions partitions) {}

  /** What Spark asks for (an append, an overwrite of what the filters select, or of the partitions written). */
  static WriteBuilder builder(Target target, LogicalWriteInfo info) {
    return new WriteModeBuilder(target.name(), KIND, target.source().partitionColumns(),
        (mode, filters) -> new PartitionSortedWrite(String.format("%s files of Hive-format table %s",
            target.source().format(), target.name()), target.source().partitionColumns(),
            () -> new HiveBatchWrite(target, info, mode, filters)));
  }

  /** Whether a partition spec satisfies one of an overwrite's filters (Spark's static partition values, AND-ed). */
  static boolean matches(Target target, Filter filter, Map<String, String> spec) {
    return WriteMode.selects(target.name(), KIND, target.source().partitionColumns(), filter, spec);
  }
}
