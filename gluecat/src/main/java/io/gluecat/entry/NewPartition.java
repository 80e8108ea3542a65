package io.gluecat.entry;

import java.util.List;
import software.amazon.awssdk.services.glue.model.PartitionInput;

/**
 * A partition object about to be created or written, for code outside {@code glue} and {@code entry} (issue #42):
 * the table's storage at the partition's directory ({@link EntryWriter#partitionStorage}), as Hive and Trino add
 * one. {@code glue} sends it ({@link #sdkInput}).
 */
public final class NewPartition {
  private final PartitionInput input;

  NewPartition(PartitionInput input) {
    this.input = input;
  }

  /** The object of the partition {@code values} of {@code table}, whose directory is {@code location}. */
  public static NewPartition of(StoredTable table, List<String> values, String location) {
    return new NewPartition(PartitionInput.builder().values(values)
        .storageDescriptor(EntryWriter.partitionStorage(table.sdkTable().storageDescriptor(), location)).build());
  }

  /** The values, in partition-key order. */
  public List<String> values() { return input.values(); }

  /** The StorageDescriptor.Location the object gets. */
  public String location() { return input.storageDescriptor().location(); }

  /** The object to send, for {@code glue} only. */
  public PartitionInput sdkInput() { return input; }

  @Override
  public String toString() { return values() + " at " + location(); }
}
