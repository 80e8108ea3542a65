package io.gluecat.catalog;

import static io.gluecat.catalog.InMemoryCatalogs.DATABASE;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.config.CatalogOptions;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.InMemoryGlue;
import io.gluecat.partitions.PartitionSync;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.glue.model.BatchCreatePartitionRequest;
import software.amazon.awssdk.services.glue.model.BatchDeletePartitionRequest;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.PartitionValueList;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * PartitionSync's decision (issue #42): partition directories on the file system against the partition objects in
 * Glue. A directory without an object gets one, an object without a directory is deleted, an object whose
 * storage no longer matches its directory is deleted and created again; one that matches is left alone.
 */
class PartitionSyncDecisionTest {
  private static final TableName EVENTS = new TableName(DATABASE, "events");
  private static SparkSession spark;

  @TempDir
  Path warehouse;
  private InMemoryGlue glue;
  private PartitionSync sync;

  @BeforeAll
  static void startSession() {
    spark = InMemoryCatalogs.startSession("partition-sync-decision");
  }

  @AfterAll
  static void stopSession() {
    spark.stop();
  }

  @BeforeEach
  void partitionedParquetTable() {
    TableInput entry = EntryWriter.forRunningSpark().newEntry(new TableDefinition(EVENTS, "parquet",
        StructType.fromDDL("id BIGINT, dt STRING"), List.of("dt"), warehouse.resolve("events").toUri().toString(),
        Optional.empty(), Map.of(), Map.of()), Optional.empty(), Optional.empty());
    glue = InMemoryCatalogs.glueWithDatabase(warehouse).entry(DATABASE, entry);
    // one listing in one piece, so that the calls come in one order
    sync = InMemoryCatalogs.catalog(glue, Map.of(CatalogOptions.PARTITION_SEGMENTS, "1")).partitionSync();
  }

  private void directories(String... values) throws Exception {
    for (String value : values) {
      Files.createDirectories(warehouse.resolve("events").resolve("dt=" + value));
    }
  }

  /** The partition objects in Glue (read after the calls asserted): dt to location, without a trailing slash. */
  private Map<String, String> partitionsInGlue() {
    Map<String, String> held = new TreeMap<>();
    for (Partition p : glue.getPartitions(r -> r.databaseName(DATABASE).tableName("events")).partitions()) {
      held.put(p.values().get(0), p.storageDescriptor().location().replaceAll("/$", ""));
    }
    return held;
  }

  private String directory(String value) {
    return warehouse.resolve("events").resolve("dt=" + value).toUri().toString().replaceAll("/$", "");
  }

  @Test
  void aDirectoryWithoutAnObjectGetsOne() throws Exception {
    directories("a", "b");

    PartitionSync.Result result = sync.syncTable(EVENTS);

    assertEquals(List.of(2, 2, 0), List.of(result.directories(), result.created(), result.deleted()));
    assertEquals(List.of("GetTable sales.events", "GetPartitions sales.events", "BatchCreatePartition sales.events"),
        glue.callNames());
    assertEquals(Map.of("a", directory("a"), "b", directory("b")), partitionsInGlue());
  }

  @Test
  void objectsAreCreatedDeletedAndRecreatedToMatchTheDirectories() throws Exception {
    directories("a", "b", "c");
    sync.syncTable(EVENTS);
    // then: a's directory is gone, d's is new, and b's object was pointed elsewhere (by another writer)
    Files.delete(warehouse.resolve("events").resolve("dt=a"));
    directories("d");
    Partition b = glue.getPartitions(r -> r.databaseName(DATABASE).tableName("events")).partitions().stream()
        .filter(p -> p.values().equals(List.of("b"))).findFirst().orElseThrow();
    PartitionInput movedB = PartitionInput.builder().values("b").storageDescriptor(b.storageDescriptor().toBuilder()
        .location(warehouse.resolve("elsewhere").toUri().toString()).build()).build();
    glue.batchDeletePartition(BatchDeletePartitionRequest.builder().databaseName(DATABASE).tableName("events")
        .partitionsToDelete(PartitionValueList.builder().values("b").build()).build());
    glue.batchCreatePartition(BatchCreatePartitionRequest.builder().databaseName(DATABASE).tableName("events")
        .partitionInputList(movedB).build());
    glue.clearCalls();

    PartitionSync.Result result = sync.syncTable(EVENTS);

    // created: d (new) and b (recreated); deleted: a (directory gone) and b (recreated); c is left alone
    assertEquals(List.of(3, 2, 2), List.of(result.directories(), result.created(), result.deleted()));
    assertEquals(List.of("GetTable sales.events", "GetPartitions sales.events", "BatchDeletePartition sales.events",
        "BatchCreatePartition sales.events"), glue.callNames(), "deletes first, then creates");
    assertEquals(Map.of("b", directory("b"), "c", directory("c"), "d", directory("d")), partitionsInGlue());
  }

  @Test
  void objectsThatMatchTheirDirectoriesAreLeftAlone() throws Exception {
    directories("a", "b");
    sync.syncTable(EVENTS);
    glue.clearCalls();

    PartitionSync.Result result = sync.syncTable(EVENTS);

    assertEquals(List.of(2, 0, 0), List.of(result.directories(), result.created(), result.deleted()));
    assertEquals(List.of("GetTable sales.events", "GetPartitions sales.events"), glue.callNames(),
        "nothing to change, nothing written");
  }
}
