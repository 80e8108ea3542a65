package io.gluecat.it;

import static io.gluecat.it.HiveFormatTablesIT.LAZY_SIMPLE;
import static io.gluecat.it.HiveFormatTablesIT.PARQUET_INPUT;
import static io.gluecat.it.HiveFormatTablesIT.PARQUET_OUTPUT;
import static io.gluecat.it.HiveFormatTablesIT.PARQUET_SERDE;
import static io.gluecat.it.HiveFormatTablesIT.TEXT_INPUT;
import static io.gluecat.it.HiveFormatTablesIT.TEXT_OUTPUT;
import static io.gluecat.it.HiveFormatTablesIT.columns;
import static io.gluecat.it.HiveFormatTablesIT.files;
import static io.gluecat.it.HiveFormatTablesIT.hiveEntry;
import static io.gluecat.it.HiveFormatTablesIT.partition;
import static io.gluecat.it.HiveFormatTablesIT.writeFile;
import static io.gluecat.it.TableLoadIT.assertMessage;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.GlueSemantics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * Writes into Hive-format Glue entries (the tables crawlers, Athena and Trino's Hive connector create):
 * INSERT INTO, INSERT OVERWRITE of static and dynamic partitions and of the whole table, insertInto. The
 * rows read back, the files are the entry's format where Hive readers look for them, and the partitions a
 * write adds are Glue partition objects; what gluecat does not write is refused before anything is written.
 */
class HiveFormatWritesIT extends CatalogModeTest {
  static final String ORC_SERDE = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
  static final String ORC_INPUT = "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat";
  static final String ORC_OUTPUT = "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat";

  /** Glue's partitions of a table: values joined by '/', to their location. */
  private Map<String, String> gluePartitions(String table) {
    return GLUE.getPartitions(r -> r.databaseName(db).tableName(table)).partitions().stream()
        .collect(Collectors.toMap(p -> String.join("/", p.values()), p -> p.storageDescriptor().location(),
            (a, b) -> a, TreeMap::new));
  }

  private Partition gluePartition(String table, String... values) {
    return GLUE.getPartition(r -> r.databaseName(db).tableName(table).partitionValues(values)).partition();
  }

  /**
   * Athena's partitioned parquet table: partition eu/2023 under the table in key=value layout, us/2024 in a
   * directory of its own outside the table's location, as ALTER TABLE ADD PARTITION ... LOCATION leaves it.
   */
  private String athenaPartitionedParquet(String table) {
    String location = newDirectory(table);
    hiveEntry(db, table, location, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of("serialization.format", "1"),
        Map.of("EXTERNAL", "TRUE", "parquet.compression", "SNAPPY"), List.of("id bigint", "note string"),
        List.of("region string", "year int"));
    String eu = location + "/region=eu/year=2023";
    spark().range(1, 3).selectExpr("id", "'old' AS note").write().mode("overwrite").parquet(eu);
    String us = newDirectory(table + "_elsewhere") + "/us-2024";
    spark().range(10, 11).selectExpr("id", "'old' AS note").write().mode("overwrite").parquet(us);
    partition(db, table, eu, "eu", "2023");
    partition(db, table, us, "us", "2024");
    return location;
  }

  @Test
  void insertIntoAddsGluePartitionsAndAppendsToPartitionsWhereverTheyAre() {
    String location = athenaPartitionedParquet("sales");
    String us = gluePartitions("sales").get("us/2024");

    run("INSERT INTO " + t("sales") + " PARTITION (region = 'eu', year = 2024) VALUES (5, 'static')");
    run("INSERT INTO " + t("sales") + " VALUES (6, 'dynamic', 'ap', 2025), (11, 'custom', 'us', 2024), "
        + "(7, 'null key', NULL, 2025)");

    assertEquals(List.of("[1,old,eu,2023]", "[2,old,eu,2023]", "[5,static,eu,2024]", "[6,dynamic,ap,2025]",
        "[7,null key,null,2025]", "[10,old,us,2024]", "[11,custom,us,2024]"),
        rows("SELECT * FROM " + t("sales") + " ORDER BY id"));
    // the new partitions are Glue objects at Hive's key=value directories, with the table's storage
    assertEquals(Map.of("eu/2023", location + "/region=eu/year=2023", "eu/2024", location + "/region=eu/year=2024",
        "ap/2025", location + "/region=ap/year=2025", "us/2024", us,
        "__HIVE_DEFAULT_PARTITION__/2025", location + "/region=__HIVE_DEFAULT_PARTITION__/year=2025"),
        gluePartitions("sales"));
    Partition added = gluePartition("sales", "eu", "2024");
    Table entry = glueTable(db, "sales");
    assertEquals(PARQUET_SERDE, added.storageDescriptor().serdeInfo().serializationLibrary());
    assertEquals(PARQUET_INPUT, added.storageDescriptor().inputFormat());
    assertEquals(entry.storageDescriptor().columns(), added.storageDescriptor().columns());
    // the custom partition's new file went to its own location, and the files are parquet without the keys
    assertEquals(List.of("[10,old]", "[11,custom]"), spark().read().parquet(us).orderBy("id").collectAsList()
        .stream().map(Row::toString).toList());
    assertEquals(List.of("[5,static]"), spark().read().parquet(location + "/region=eu/year=2024")
        .collectAsList().stream().map(Row::toString).toList());
    // the entry itself is as it was
    assertEquals(entry.parameters(), glueTable(db, "sales").parameters());
    assertNull(entry.parameters().get("spark.sql.sources.provider"));
  }

  @Test
  void insertOverwriteOfAStaticPartitionReplacesOnlyThatPartition() {
    athenaPartitionedParquet("daily");
    String us = gluePartitions("daily").get("us/2024");

    run("INSERT OVERWRITE " + t("daily") + " PARTITION (region = 'us', year = 2024) VALUES (12, 'new')");
    run("INSERT OVERWRITE " + t("daily") + " PARTITION (region = 'eu', year = 2023) SELECT 3, 'new'");

    assertEquals(List.of("[3,new,eu,2023]", "[12,new,us,2024]"), rows("SELECT * FROM " + t("daily") + " ORDER BY id"));
    assertEquals(us, gluePartitions("daily").get("us/2024"));
    assertEquals(1, files(us).stream().filter(f -> f.endsWith(".parquet")).count());
    assertEquals(List.of("eu/2023", "us/2024"), List.copyOf(gluePartitions("daily").keySet()));
  }

  @Test
  void dynamicOverwriteReplacesThePartitionsWrittenAndStaticOverwriteEverything() {
    String location = athenaPartitionedParquet("events");
    String us = gluePartitions("events").get("us/2024");
    session.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try {
      run("INSERT OVERWRITE " + t("events") + " VALUES (3, 'new', 'eu', 2023), (4, 'new', 'ap', 2025)");
    } finally {
      session.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
    assertEquals(List.of("[3,new,eu,2023]", "[4,new,ap,2025]", "[10,old,us,2024]"),
        rows("SELECT * FROM " + t("events") + " ORDER BY id"));

    // static mode: the whole table is replaced; partitions left empty are gone from Glue with their files
    run("INSERT OVERWRITE " + t("events") + " VALUES (8, 'all', 'eu', 2023)");
    assertEquals(List.of("[8,all,eu,2023]"), rows("SELECT * FROM " + t("events")));
    assertEquals(Map.of("eu/2023", location + "/region=eu/year=2023"), gluePartitions("events"));
    assertEquals(List.of(), files(us).stream().filter(f -> f.endsWith(".parquet")).toList());
  }

  /**
   * Each write asks Glue for the partitions it touches only: an append or a dynamic overwrite for those it wrote,
   * once the job has committed; a static overwrite for those its values select, before it writes. Rows of an
   * existing partition that Glue keeps at a location of its own land there either way: a job that learned of it
   * only after writing moves its files there from the key=value directory it wrote them in.
   */
  @Test
  void writesAskGlueForTheirPartitionsOnlyAndRowsReachCustomLocations() throws Exception {
    String location = athenaPartitionedParquet("custom");
    String us = gluePartitions("custom").get("us/2024");
    String usDefault = Path.of(URI.create(location + "/region=us/year=2024")).toString();
    session.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try (AutoCloseable asGlue = GlueSemantics.filterAndPagePartitions()) {
      GlueCallRecorder.clear();
      run("INSERT OVERWRITE " + t("custom") + " VALUES (12, 'replaced', 'us', 2024), (13, 'new', 'ap', 2025)");
      assertEquals(List.of("(region = 'ap' AND year = 2025) OR (region = 'us' AND year = 2024)"), expressions());
      session.conf().unset("spark.sql.sources.partitionOverwriteMode");

      assertEquals(List.of("[1,old,eu,2023]", "[2,old,eu,2023]", "[12,replaced,us,2024]", "[13,new,ap,2025]"),
          rows("SELECT * FROM " + t("custom") + " ORDER BY id"));
      assertEquals(List.of("[12,replaced]"), spark().read().parquet(us).collectAsList().stream().map(Row::toString)
          .toList());
      assertFalse(Files.exists(Path.of(usDefault)), "the moved files' directory is gone");

      GlueCallRecorder.clear();
      run("INSERT INTO " + t("custom") + " VALUES (14, 'appended', 'us', 2024)");
      assertEquals(List.of("(region = 'us' AND year = 2024)"), expressions());
      assertEquals(List.of("[12,replaced]", "[14,appended]"), spark().read().parquet(us).orderBy("id").collectAsList()
          .stream().map(Row::toString).toList());

      // a static overwrite of one key's value: the partitions it selects are read before the job writes
      GlueCallRecorder.clear();
      run("INSERT OVERWRITE " + t("custom") + " PARTITION (region = 'us') SELECT 15, 'static', 2024");
      assertEquals(List.of("region = 'us'"), expressions());
    } finally {
      session.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
    assertEquals(List.of("[1,old,eu,2023]", "[2,old,eu,2023]", "[13,new,ap,2025]", "[15,static,us,2024]"),
        rows("SELECT * FROM " + t("custom") + " ORDER BY id"));
    assertEquals(List.of("[15,static]"), spark().read().parquet(us).collectAsList().stream().map(Row::toString).toList());
    assertFalse(Files.exists(Path.of(usDefault)));
    assertEquals(Map.of("eu/2023", location + "/region=eu/year=2023", "us/2024", us,
        "ap/2025", location + "/region=ap/year=2025"), gluePartitions("custom"));
  }

  /** The expressions of the GetPartitions calls gluecat made since the recorder was cleared. */
  private static List<String> expressions() {
    return GlueCallRecorder.calls(c -> c.isGlue() && c.operation().equals("GetPartitions")).stream()
        .map(GlueCall::expression).collect(Collectors.toList());
  }

  /** An unpartitioned ORC table (Trino's default format): INSERT, insertInto, saveAsTable appending, overwrite. */
  @Test
  void anOrcTableTakesInsertsOverwritesAndInsertInto() {
    String location = newDirectory("orc_plain");
    hiveEntry(db, "orc_plain", location, ORC_SERDE, ORC_INPUT, ORC_OUTPUT, Map.of(), Map.of(),
        List.of("id int", "name varchar(10)", "day date"), List.of());

    run("INSERT INTO " + t("orc_plain") + " VALUES (1, 'a', DATE '2024-01-31')");
    session.sql("SELECT 2 AS id, 'b' AS name, DATE '2024-02-01' AS day").write().insertInto(t("orc_plain"));
    session.sql("SELECT 9 AS id, 'z' AS name, DATE '2024-02-02' AS day").write().mode("append")
        .saveAsTable(t("orc_plain"));
    assertEquals(List.of("[1,a,2024-01-31]", "[2,b,2024-02-01]", "[9,z,2024-02-02]"),
        rows("SELECT * FROM " + t("orc_plain") + " ORDER BY id"));

    run("INSERT OVERWRITE " + t("orc_plain") + " VALUES (3, 'c', NULL)");
    assertEquals(List.of("[3,c,null]"), rows("SELECT * FROM " + t("orc_plain")));
    List<String> written = files(location).stream().filter(f -> !Path.of(f).getFileName().toString().startsWith("."))
        .filter(f -> !Path.of(f).getFileName().toString().startsWith("_")).toList();
    assertEquals(1, written.size(), written.toString());
    assertTrue(written.get(0).endsWith(".orc"), written.toString());
    assertEquals(List.of(), GLUE.getPartitions(r -> r.databaseName(db).tableName("orc_plain")).partitions());
  }

  /**
   * A LazySimpleSerDe text table gets lines Hive reads: fields split by the entry's delimiter (Hive's \001 by
   * default), \N for null, no quotes, Hive's timestamp layout; partitioned, its partitions reach Glue.
   */
  @Test
  void aTextTableGetsLinesAsLazySimpleSerDeWritesThem() throws IOException {
    String location = newDirectory("text_log");
    hiveEntry(db, "text_log", location, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of("serialization.format", "1"),
        Map.of(), List.of("id int", "msg string", "at timestamp"), List.of("day string"));

    run("INSERT INTO " + t("text_log") + " PARTITION (day = '2024-01-31') VALUES (1, 'say \"hi\", bye', "
        + "TIMESTAMP '2024-01-31 10:11:12'), (2, NULL, NULL), (3, '', TIMESTAMP '2024-01-31 10:11:12.5')");

    // an empty string reads back as an empty string and a null as null, as Hive reads the lines
    assertEquals(List.of("[1,say \"hi\", bye,2024-01-31 10:11:12.0,2024-01-31]", "[2,null,null,2024-01-31]",
        "[3,,2024-01-31 10:11:12.5,2024-01-31]"), rows("SELECT * FROM " + t("text_log") + " ORDER BY id"));
    assertEquals(List.of("[2,1,3]"), rows("SELECT count(msg), count_if(msg = ''), count(*) FROM " + t("text_log")));
    String dir = location + "/day=2024-01-31";
    assertEquals(Map.of("2024-01-31", dir), gluePartitions("text_log"));
    List<String> lines = files(dir).stream().filter(f -> !Path.of(f).getFileName().toString().startsWith("."))
        .filter(f -> !Path.of(f).getFileName().toString().startsWith("_"))
        .flatMap(f -> read(f).lines()).sorted().toList();
    assertEquals(List.of("1\u0001say \"hi\", bye\u00012024-01-31 10:11:12.000000", "2\u0001\\N\u0001\\N",
        "3\u0001\u00012024-01-31 10:11:12.500000"), lines);
  }

  private static String read(String file) {
    try {
      return Files.readString(Path.of(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Creating the new partitions fails in Glue: the statement says so, the rows are written, nothing is lost. */
  @Test
  void aGlueFailureAfterTheFilesNamesThePartitionsAndLosesNothing() throws Exception {
    athenaPartitionedParquet("faulty");
    try (Fault.Handle fault = GlueFaults.inject(Fault.glue("BatchCreatePartition")
        .error("InternalServiceException", 500).message("Glue is down").always().build())) {
      assertMessage(() -> run("INSERT INTO " + t("faulty") + " VALUES (30, 'x', 'sa', 2026)"), qualified("faulty"),
          "[sa, 2026]", "were written", "PartitionSync.sync");
    }
    Map<String, String> before = gluePartitions("faulty");
    assertEquals(List.of("eu/2023", "us/2024"), List.copyOf(before.keySet()));
    // the recovery the message names adds the missing partition and leaves the others (us/2024 lies elsewhere)
    assertEquals(1, io.gluecat.partitions.PartitionSync.sync(catalog, db + ".faulty").created());
    Map<String, String> after = gluePartitions("faulty");
    assertEquals(before.get("us/2024"), after.get("us/2024"));
    assertEquals(List.of("eu/2023", "sa/2026", "us/2024"), List.copyOf(after.keySet()));
    assertEquals(List.of("[30,x]"), rows("SELECT id, note FROM " + t("faulty") + " WHERE region = 'sa'"));
  }

  // ---- refused ----

  @Test
  void tablesGluecatDoesNotWriteAreRefusedBeforeAnythingIsWritten() {
    String csv = newDirectory("quoted_csv");
    writeFile(csv, "a.csv", "\"1\",\"x\"\n");
    hiveEntry(db, "quoted_csv", csv, "org.apache.hadoop.hive.serde2.OpenCSVSerde", TEXT_INPUT, TEXT_OUTPUT, Map.of(),
        Map.of(), List.of("id string", "s string"), List.of());
    String escaped = newDirectory("escaped_text");
    writeFile(escaped, "a.txt", "1,x\n");
    hiveEntry(db, "escaped_text", escaped, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT,
        Map.of("field.delim", ",", "escape.delim", "\\"), Map.of(), List.of("id int", "s string"), List.of());
    String zipped = newDirectory("brotli_parquet");
    hiveEntry(db, "brotli_parquet", zipped, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of(),
        Map.of("parquet.compression", "BROTLI"), List.of("id int"), List.of());

    // bucketed the Hive way, as Athena's CREATE TABLE .. CLUSTERED BY leaves it: read as unbucketed, never written
    String bucketed = newDirectory("hive_bucketed");
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name("hive_bucketed").tableType("EXTERNAL_TABLE")
        .storageDescriptor(sd -> sd.location(bucketed).inputFormat(PARQUET_INPUT).outputFormat(PARQUET_OUTPUT)
            .columns(columns(List.of("id int", "s string"))).numberOfBuckets(4).bucketColumns("id")
            .serdeInfo(s -> s.serializationLibrary(PARQUET_SERDE)))));

    assertMessage(() -> run("INSERT INTO " + t("hive_bucketed") + " VALUES (2, 'y')"), qualified("hive_bucketed"),
        "bucketed the Hive way", "NumberOfBuckets = 4", "Nothing was written");
    assertEquals(List.of(), files(bucketed));
    assertEquals(List.of(), rows("SELECT * FROM " + t("hive_bucketed")));
    assertMessage(() -> run("INSERT INTO " + t("quoted_csv") + " VALUES ('2', 'y')"), qualified("quoted_csv"),
        "OpenCSVSerde", "does not write", "Nothing was written");
    assertMessage(() -> run("INSERT INTO " + t("escaped_text") + " VALUES (2, 'y')"), qualified("escaped_text"),
        "escape.delim", "Nothing was written");
    assertMessage(() -> run("INSERT INTO " + t("brotli_parquet") + " VALUES (2)"), qualified("brotli_parquet"),
        "parquet.compression = 'BROTLI'", "Nothing was written");
    assertEquals(List.of(Path.of(URI.create(csv)).resolve("a.csv").toString()), files(csv));
    assertEquals(List.of(Path.of(URI.create(escaped)).resolve("a.txt").toString()), files(escaped));
    assertEquals(List.of("[1,x]"), rows("SELECT * FROM " + t("escaped_text")));
  }

  /**
   * An overwrite that would change the entry (saveAsTable in overwrite mode replaces the table) and ALTER are
   * refused: the entry stays in the format its writer gave it.
   */
  @Test
  void replacingOrAlteringTheEntryIsRefused() {
    String location = newDirectory("kept");
    hiveEntry(db, "kept", location, ORC_SERDE, ORC_INPUT, ORC_OUTPUT, Map.of(), Map.of(), List.of("id int"), List.of());
    run("INSERT INTO " + t("kept") + " VALUES (1)");
    Table before = glueTable(db, "kept");

    assertMessage(() -> session.sql("SELECT 2 AS id").write().mode("overwrite").saveAsTable(t("kept")),
        qualified("kept"), "Hive-format", "does not replace it", "Nothing was written");
    assertMessage(() -> run("CREATE OR REPLACE TABLE " + t("kept") + " USING delta AS SELECT 2 AS id"),
        qualified("kept"), "Hive-format", "does not replace it");
    assertMessage(() -> run("REPLACE TABLE " + t("kept") + " (id int) USING parquet"), qualified("kept"),
        "Hive-format", "does not replace it");
    assertMessage(() -> run("ALTER TABLE " + t("kept") + " SET TBLPROPERTIES ('k' = 'v')"), qualified("kept"),
        "does not change their entries");
    Table after = glueTable(db, "kept");
    assertEquals(before.storageDescriptor(), after.storageDescriptor());
    assertEquals(before.parameters(), after.parameters());
    assertEquals(List.of("[1]"), rows("SELECT * FROM " + t("kept")));
  }
}
