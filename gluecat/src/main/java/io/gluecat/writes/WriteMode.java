package io.gluecat.writes;

import io.gluecat.partitions.StaticPartitions;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.sources.Filter;

/** What a write of a table's files does to the rows already there, as Spark asks for it. */
public enum WriteMode {
  /** {@code INSERT INTO}: the new files join the old. */
  APPEND,
  /** {@code INSERT OVERWRITE} in static mode: what the static partition values select is replaced (all without any). */
  OVERWRITE,
  /** {@code INSERT OVERWRITE} in dynamic mode: the partitions written are replaced. */
  DYNAMIC;

  /**
   * Whether a partition (its values by column, unescaped as in its directory name) is selected by an overwrite's
   * filter; an empty spec checks the filter only. A filter on anything but the partition columns is refused,
   * naming the table: a file write replaces whole partitions, never rows.
   *
   * @param kind how the refusal names the table's kind, e.g. "file source table"
   */
  public static boolean selects(String table, String kind, List<String> partitionColumns, Filter filter,
      Map<String, String> spec) {
    return StaticPartitions.selects(filter, spec, partitionColumns, f -> new UnsupportedOperationException(
        String.format("Table %s: an overwrite of a %s replaces whole partitions, selected by values of its "
            + "partition columns %s; it cannot replace the rows where %s. Nothing was written.", table, kind,
            partitionColumns, f)));
  }
}
