package io.gluecat.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;

/** Partition objects as read and as created, and the ones derived from a read one (issue #42). */
class StoredPartitionTest {
  private static final String PARQUET_SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
  private static final StorageDescriptor TABLE = StorageDescriptor.builder()
      .location("s3://lake/t").columns(Column.builder().name("a").type("int").build())
      .inputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat")
      .outputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat")
      .serdeInfo(SerDeInfo.builder().serializationLibrary(PARQUET_SERDE)
          .parameters(Map.of("path", "s3://lake/t", "serialization.format", "1")).build())
      .build();
  private static final StoredTable ENTRY = new StoredTable(Table.builder().name("t").storageDescriptor(TABLE).build());

  private static StoredPartition read(StorageDescriptor sd) {
    return new StoredPartition(Partition.builder().values("eu").storageDescriptor(sd)
        .parameters(Map.of("numFiles", "3")).lastAccessTime(Instant.ofEpochSecond(100))
        .lastAnalyzedTime(Instant.ofEpochSecond(200)).creationTime(Instant.ofEpochMilli(1234)).build());
  }

  @Test
  void aNewPartitionIsTheTablesStorageAtItsDirectoryWithoutTheTablesPath() {
    NewPartition p = NewPartition.of(ENTRY, List.of("eu"), "s3://lake/t/region=eu");
    PartitionInput input = p.sdkInput();
    assertEquals(List.of("eu"), p.values());
    assertEquals("s3://lake/t/region=eu", p.location());
    assertEquals(TABLE.columns(), input.storageDescriptor().columns());
    assertEquals(PARQUET_SERDE, input.storageDescriptor().serdeInfo().serializationLibrary());
    assertEquals(Map.of("serialization.format", "1"), input.storageDescriptor().serdeInfo().parameters(),
        "a partition's SerDe parameters never carry the table's path");
  }

  @Test
  void whatIsReadOfAPartition() {
    StoredPartition p = read(TABLE.toBuilder().location("s3://lake/t/region=eu").build());
    assertEquals(List.of("eu"), p.values());
    assertEquals("s3://lake/t/region=eu", p.location());
    assertEquals(Map.of("numFiles", "3"), p.parameters());
    assertEquals(1234L, p.creationMillis());
    StoredPartition bare = new StoredPartition(Partition.builder().build());
    assertEquals(List.of(), bare.values());
    assertNull(bare.location());
    assertEquals(Map.of(), bare.parameters());
    assertEquals(0L, bare.creationMillis());
  }

  @Test
  void storageIsTheSameWhatEverReadersAddedAndStaleWhenWhatReadersReadDiffers() {
    NewPartition wanted = NewPartition.of(ENTRY, List.of("eu"), "s3://lake/t/region=eu");
    StorageDescriptor written = wanted.sdkInput().storageDescriptor();
    assertTrue(read(written).sameStorage(wanted));
    assertTrue(read(written.toBuilder().location("s3://lake/t/region=eu/").build()).sameStorage(wanted),
        "a trailing slash is the same location");
    assertTrue(read(written.toBuilder().serdeInfo(written.serdeInfo().toBuilder().parameters(Map.of("x", "y"))
        .build()).build()).sameStorage(wanted), "SerDe parameters a writer added do not make it stale");
    assertFalse(read(written.toBuilder().location("s3://elsewhere/eu").build()).sameStorage(wanted));
    assertFalse(read(written.toBuilder().columns(List.of()).build()).sameStorage(wanted));
    assertFalse(read(written.toBuilder().inputFormat("org.apache.hadoop.mapred.TextInputFormat").build())
        .sameStorage(wanted));
    assertFalse(read(written.toBuilder().serdeInfo(SerDeInfo.builder().serializationLibrary("other").build()).build())
        .sameStorage(wanted));
    assertFalse(new StoredPartition(Partition.builder().values("eu").build()).sameStorage(wanted),
        "an object without storage is stale");
  }

  @Test
  void setLocationKeepsEverythingButTheLocation() {
    StoredPartition old = read(TABLE.toBuilder().location("s3://lake/t/region=eu").build());
    PartitionInput moved = old.at("s3://archive/eu").sdkInput();
    assertEquals(List.of("eu"), moved.values());
    assertEquals(TABLE.toBuilder().location("s3://archive/eu").build(), moved.storageDescriptor());
    assertEquals(Map.of("numFiles", "3"), moved.parameters());
    assertEquals(Instant.ofEpochSecond(100), moved.lastAccessTime());
  }

  @Test
  void renameTakesNewValuesAndLocationAndKeepsTheParameters() {
    StoredPartition old = read(TABLE.toBuilder().location("s3://lake/t/region=eu").build());
    PartitionInput renamed = old.renamed(List.of("us"), "s3://lake/t/region=us").sdkInput();
    assertEquals(List.of("us"), renamed.values());
    assertEquals("s3://lake/t/region=us", renamed.storageDescriptor().location());
    assertEquals(Map.of("serialization.format", "1"), renamed.storageDescriptor().serdeInfo().parameters());
    assertEquals(Map.of("numFiles", "3"), renamed.parameters());
  }

  @Test
  void aCopyForARenamedTableIsTheObjectAsItWas() {
    StorageDescriptor sd = TABLE.toBuilder().location("s3://lake/t/region=eu").build();
    PartitionInput copy = read(sd).copy().sdkInput();
    assertEquals(PartitionInput.builder().values("eu").storageDescriptor(sd).parameters(Map.of("numFiles", "3"))
        .lastAccessTime(Instant.ofEpochSecond(100)).lastAnalyzedTime(Instant.ofEpochSecond(200)).build(), copy);
  }
}
