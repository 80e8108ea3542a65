package io.gluecat.partitions;

/**
 * What {@link PartitionSync#sync(String, String)} needs of a catalog found by name in the Spark session: its
 * partition sync. The catalog implements it, so this package depends on no catalog class.
 */
public interface PartitionSyncOwner {
  PartitionSync partitionSync();
}
