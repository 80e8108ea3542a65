package io.gluecat.entry;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;

/**
 * A partition object as Glue returned it, for code outside {@code glue} and {@code entry} (issue #42): its values
 * and location in gluecat's terms, and the partitions derived from it (moved, renamed, copied to another table),
 * built here so that the partition's StorageDescriptor stays whole without leaving the entry format's hands.
 */
public final class StoredPartition {
  private final Partition partition;

  public StoredPartition(Partition partition) {
    this.partition = partition;
  }

  /** Glue's Partition, every field as read: for {@code glue} and {@code entry} only. */
  public Partition sdkPartition() { return partition; }

  /** The values, in partition-key order; empty when the object has none. */
  public List<String> values() { return partition.hasValues() ? partition.values() : List.of(); }

  /** StorageDescriptor.Location exactly as stored; null when the object has no StorageDescriptor or no Location. */
  public String location() {
    return partition.storageDescriptor() == null ? null : partition.storageDescriptor().location();
  }

  /** The object's parameters; empty when it has none. */
  public Map<String, String> parameters() { return partition.hasParameters() ? partition.parameters() : Map.of(); }

  /** When Glue created the object, in milliseconds since the epoch; 0 when Glue did not say. */
  public long creationMillis() {
    return partition.creationTime() == null ? 0L : partition.creationTime().toEpochMilli();
  }

  /**
   * Whether this object's storage is what {@code wanted} gives it: the same location (a trailing slash aside),
   * columns, input and output formats and SerDe library. Other fields (SerDe parameters, statistics) a reader
   * or writer may have added do not make it stale.
   */
  public boolean sameStorage(NewPartition wanted) {
    StorageDescriptor want = wanted.sdkInput().storageDescriptor();
    StorageDescriptor have = partition.storageDescriptor();
    return have != null && Objects.equals(EntryFormat.withoutTrailingSlash(want.location()),
            EntryFormat.withoutTrailingSlash(have.location()))
        && Objects.equals(want.columns(), have.columns())
        && Objects.equals(want.inputFormat(), have.inputFormat())
        && Objects.equals(want.outputFormat(), have.outputFormat())
        && Objects.equals(want.serdeInfo() == null ? null : want.serdeInfo().serializationLibrary(),
            have.serdeInfo() == null ? null : have.serdeInfo().serializationLibrary());
  }

  /**
   * The same object with its storage at {@code location}, its storage otherwise, parameters and last access
   * time as they are (SET LOCATION, which changes only the location, as Spark's catalog does).
   */
  public NewPartition at(String location) {
    StorageDescriptor sd = partition.storageDescriptor();
    return new NewPartition(PartitionInput.builder().values(values())
        .storageDescriptor((sd == null ? StorageDescriptor.builder() : sd.toBuilder()).location(location).build())
        .parameters(partition.parameters()).lastAccessTime(partition.lastAccessTime()).build());
  }

  /** The object under other values, its storage at {@code location} and its parameters kept (RENAME PARTITION). */
  public NewPartition renamed(List<String> values, String location) {
    return new NewPartition(PartitionInput.builder().values(values)
        .storageDescriptor(EntryWriter.partitionStorage(partition.storageDescriptor(), location))
        .parameters(partition.parameters()).build());
  }

  /**
   * The object as it is (values, storage, parameters, access and analysis times), to be created under another
   * table: the half of a table rename Glue does not do.
   */
  public NewPartition copy() {
    return new NewPartition(PartitionInput.builder().values(values()).storageDescriptor(partition.storageDescriptor())
        .parameters(partition.parameters()).lastAccessTime(partition.lastAccessTime())
        .lastAnalyzedTime(partition.lastAnalyzedTime()).build());
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof StoredPartition && partition.equals(((StoredPartition) other).partition);
  }

  @Override
  public int hashCode() { return partition.hashCode(); }

  @Override
  public String toString() { return values() + " at " + location(); }
}
