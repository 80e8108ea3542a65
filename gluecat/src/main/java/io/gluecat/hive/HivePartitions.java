package io.gluecat.hive;

import io.gluecat.entry.NewPartition;
import io.gluecat.entry.StoredPartition;
import java.util.List;

/**
 * A Hive-format table's Glue partition objects: its scans read them ({@link GluePartitionIndex.Source}), its
 * writes add the partitions they create and remove the ones an overwrite empties. {@link GlueHivePartitions} binds it to Glue.
 */
public interface HivePartitions extends GluePartitionIndex.Source {
  /**
   * The partitions any of the expressions selects (one listing each); every partition when Glue refuses one.
   * How a write asks for the partitions it touches ({@code glue.PartitionExpressions}).
   */
  List<StoredPartition> partitions(List<String> expressions);

  /** Creates partition objects; one that already exists is left as it is. */
  void create(List<NewPartition> partitions);

  /** Deletes partition objects by their values (never data); one already gone is not an error. */
  void delete(List<List<String>> values);
}
