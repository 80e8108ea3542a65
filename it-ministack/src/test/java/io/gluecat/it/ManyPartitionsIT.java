package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueSemantics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.PartitionInput;

/**
 * A Hive-format table of {@value #DAYS} x {@value #SHARDS} Glue partitions, answered as AWS Glue answers
 * GetPartitions (the test kit applies the Expression and pages the answer, which MiniStack does not): a query
 * of one partition costs one GetTable and the GetPartitions pages of that partition, never a listing of all.
 * The table is made once per JVM; only the partitions read have files. {@link CallCountsIT} counts the calls of
 * writes into the same table (in days of its own, after the 100 here), so the suite builds it once.
 */
class ManyPartitionsIT extends CatalogModeTest {
  static final int DAYS = 100;
  static final int SHARDS = 100;

  /** The first day of the table's partitions; they run to {@code FIRST_DAY + DAYS - 1}. */
  static final java.time.LocalDate FIRST_DAY = java.time.LocalDate.of(2024, 1, 1);

  /** The table, made once per JVM in a database of its own (creating 10,000 partitions takes seconds). */
  private static String events;

  /**
   * A parquet table partitioned by (day date, shard int), its partitions created 100 per BatchCreatePartition;
   * the tests write files under the partitions they read. Returns its database.table.
   */
  static synchronized String events() {
    if (events != null) {
      return events;
    }
    String location = newDirectory("events");
    String database = newDatabase(newDirectory("many_partitions"));
    HiveFormatTablesIT.hiveEntry(database, "events", location, HiveFormatTablesIT.PARQUET_SERDE,
        HiveFormatTablesIT.PARQUET_INPUT, HiveFormatTablesIT.PARQUET_OUTPUT, Map.of("serialization.format", "1"),
        Map.of("classification", "parquet"), List.of("id bigint"), List.of("day date", "shard int"));
    List<PartitionInput> page = new ArrayList<>();
    java.time.LocalDate first = FIRST_DAY;
    for (int d = 0; d < DAYS; d++) {
      for (int s = 0; s < SHARDS; s++) {
        String day = first.plusDays(d).toString();
        String shard = String.valueOf(s);
        page.add(PartitionInput.builder().values(day, shard)
            .storageDescriptor(sd -> sd.location(location + "/day=" + day + "/shard=" + shard)).build());
        if (page.size() == 100) {
          List<PartitionInput> batch = List.copyOf(page);
          assertEquals(List.of(), GLUE.batchCreatePartition(r -> r.databaseName(database).tableName("events")
              .partitionInputList(batch)).errors());
          page.clear();
        }
      }
    }
    eventsLocation = location;
    events = database + ".events";
    return events;
  }

  private static String eventsLocation;

  /** Writes rows [from, to) as the files of one partition of the table. */
  private static void writePartition(String day, int shard, long from, long to) {
    events();
    spark().range(from, to).write().mode("overwrite").parquet(eventsLocation + "/day=" + day + "/shard=" + shard);
  }

  @Test
  void aQueryOfOnePartitionAsksGlueForThatPartitionOnly() throws Exception {
    writePartition("2024-02-15", 42, 7, 10);
    GlueCallRecorder.clear();

    List<String> rows;
    try (AutoCloseable asGlue = GlueSemantics.filterAndPagePartitions()) {
      rows = run("SELECT * FROM " + catalog + "." + events() + " WHERE day = DATE'2024-02-15' AND shard = 42 "
          + "ORDER BY id").stream().map(Row::toString).toList();
    }

    assertEquals(List.of("[7,2024-02-15,42]", "[8,2024-02-15,42]", "[9,2024-02-15,42]"), rows);
    List<GlueCall> calls = GlueCallRecorder.calls(GlueCall::isGlue);
    assertEquals(List.of("GetTable", "GetPartitions"), calls.stream().map(GlueCall::operation).toList(),
        calls.toString());
    GlueCall partitions = calls.get(1);
    assertEquals("(day = '2024-02-15') AND (shard = 42)", partitions.expression());
    assertEquals(1, partitions.returned(), "Glue's answer holds the one partition");
    assertTrue(calls.stream().noneMatch(c -> c.operation().equals("GetPartitions") && c.expression() == null));
  }

  /** A range and a list select a few partitions: Glue answers those (the ones without files read as empty). */
  @Test
  void aQueryOfAFewPartitionsAsksGlueForThoseOnly() throws Exception {
    writePartition("2024-03-02", 7, 1, 3);
    GlueCallRecorder.clear();

    List<String> rows;
    try (AutoCloseable asGlue = GlueSemantics.filterAndPagePartitions()) {
      rows = run("SELECT id, day, shard FROM " + catalog + "." + events() + " WHERE day BETWEEN DATE'2024-03-01' AND "
          + "DATE'2024-03-02' AND shard IN (7, 8) ORDER BY id").stream().map(Row::toString).toList();
    }

    assertEquals(List.of("[1,2024-03-02,7]", "[2,2024-03-02,7]"), rows);
    List<GlueCall> calls = GlueCallRecorder.calls(GlueCall::isGlue);
    assertEquals(List.of("GetTable", "GetPartitions"), calls.stream().map(GlueCall::operation).toList(),
        calls.toString());
    assertEquals(4, calls.get(1).returned(), calls.get(1).expression());
  }
}
