package io.gluecat.it;

import static io.gluecat.it.DeltaLifecycleIT.columns;
import static io.gluecat.it.DeltaLifecycleIT.location;
import static io.gluecat.it.TableLoadIT.messages;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.GlueCallRecorder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.streaming.StreamingQuery;
import org.apache.spark.sql.streaming.Trigger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * Delta statements that name a table in ways other than CREATE: SHALLOW CLONE into a gluecat name, CREATE TABLE
 * LIKE, and streaming reads by name, each run as with Delta's own catalog, with the Glue entry checked after
 * each. Named mode here; SessionModeDeltaParityCloneIT runs what session mode supports.
 */
class DeltaParityCloneIT extends CatalogModeTest {

  protected static boolean sparkLine(String prefix) {
    return spark().version().startsWith(prefix);
  }

  /** A Delta entry in the shape of docs/entry-format.md, at a location that holds a Delta log. */
  protected static Table assertDeltaEntry(String database, String table, List<String> columns) {
    Table entry = glueTable(database, table);
    assertEquals("delta", entry.parameters().get("spark.sql.sources.provider"));
    assertEquals("DELTA", entry.parameters().get("table_type"));
    assertEquals("EXTERNAL_TABLE", entry.tableType());
    assertEquals(location(entry), entry.storageDescriptor().location(), "Delta entries carry the real location");
    assertEquals(columns, columns(entry));
    Path log = Paths.get(location(entry).substring("file:".length())).resolve("_delta_log");
    assertTrue(Files.isDirectory(log), "a Delta log at " + location(entry));
    return entry;
  }

  private void createSource(String table) {
    run("CREATE TABLE " + t(table) + " (id BIGINT, region STRING) USING delta PARTITIONED BY (region)");
    run("INSERT INTO " + t(table) + " VALUES (1, 'eu'), (2, 'us')");
    run("INSERT INTO " + t(table) + " VALUES (3, 'eu')");
  }

  // ---- SHALLOW CLONE ----

  @Test
  void shallowCloneOfACatalogTableIsANewDeltaTableWithItsOwnEntry() {
    createSource("src");
    String sourceLocation = location(glueTable(db, "src"));

    run("CREATE TABLE " + t("c") + " SHALLOW CLONE " + t("src"));
    assertEquals(rows("SELECT * FROM " + t("src") + " ORDER BY id"), rows("SELECT * FROM " + t("c") + " ORDER BY id"));
    Table entry = assertDeltaEntry(db, "c", List.of("id bigint", "region string"));
    assertTrue(location(entry).startsWith(dbLocation + "/c-"), "a managed location of its own: " + location(entry));
    assertNotEquals(sourceLocation, location(entry));
    assertEquals("region", entry.parameters().get("spark.sql.sources.schema.partCol.0"));

    run("INSERT INTO " + t("c") + " VALUES (4, 'us')");
    assertEquals(4, run("SELECT * FROM " + t("c")).size());
    assertEquals(3, run("SELECT * FROM " + t("src")).size(), "the source is untouched by writes to the clone");
    assertTrue(rows("DESCRIBE HISTORY " + t("c")).stream().anyMatch(r -> r.contains("CLONE")),
        "the clone is in the table's history");
  }

  @Test
  void shallowCloneOfAPathAndAtAVersion() {
    String path = newDirectory("by_path");
    session.range(0, 3).write().format("delta").save(path);
    session.range(3, 5).write().format("delta").mode("append").save(path);

    run("CREATE TABLE " + t("from_path") + " SHALLOW CLONE delta.`" + path + "`");
    assertEquals(5, run("SELECT * FROM " + t("from_path")).size());
    assertDeltaEntry(db, "from_path", List.of("id bigint"));

    run("CREATE TABLE " + t("path_v0") + " SHALLOW CLONE delta.`" + path + "` VERSION AS OF 0");
    assertEquals(3, run("SELECT * FROM " + t("path_v0")).size());

    createSource("src");
    run("ALTER TABLE " + t("src") + " ADD COLUMNS (note STRING)");
    run("CREATE TABLE " + t("src_v1") + " SHALLOW CLONE " + t("src") + " VERSION AS OF 1");
    assertEquals(List.of("[1,eu]", "[2,us]"), rows("SELECT * FROM " + t("src_v1") + " ORDER BY id"));
    assertDeltaEntry(db, "src_v1", List.of("id bigint", "region string"));
  }

  @Test
  void shallowCloneOfAnotherCatalogsTable() {
    String other = newCatalog(session, ministackOptions());
    String otherDb = newDatabase(newDirectory("other_db"));
    run("CREATE TABLE " + other + "." + otherDb + ".s USING delta AS SELECT id, 'x' AS tag FROM range(3)");
    run("CREATE TABLE " + t("from_other") + " SHALLOW CLONE " + other + "." + otherDb + ".s");
    assertEquals(3, run("SELECT * FROM " + t("from_other")).size());
    assertDeltaEntry(db, "from_other", List.of("id bigint", "tag string"));

    if (sessionMode()) {
      return; // spark_catalog is gluecat here; the built-in catalog's tables are named mode's case
    }
    // Delta's own catalog as spark_catalog (named mode keeps it)
    String builtin = unique("builtin");
    run("CREATE TABLE spark_catalog.default." + builtin + " USING delta AS SELECT id FROM range(2)");
    try {
      run("CREATE TABLE " + t("from_builtin") + " SHALLOW CLONE spark_catalog.default." + builtin);
      assertEquals(2, run("SELECT * FROM " + t("from_builtin")).size());
      assertDeltaEntry(db, "from_builtin", List.of("id bigint"));
    } finally {
      run("DROP TABLE spark_catalog.default." + builtin);
    }
  }

  @Test
  void createOrReplaceAndIfNotExistsClones() {
    createSource("src");
    run("CREATE TABLE " + t("other") + " USING delta AS SELECT id, 'o' AS tag FROM range(10, 12)");

    run("CREATE OR REPLACE TABLE " + t("c") + " SHALLOW CLONE " + t("src"));
    assertEquals(3, run("SELECT * FROM " + t("c")).size());
    Table created = assertDeltaEntry(db, "c", List.of("id bigint", "region string"));

    run("CREATE TABLE IF NOT EXISTS " + t("c") + " SHALLOW CLONE " + t("other"));
    assertEquals(3, run("SELECT * FROM " + t("c")).size(), "IF NOT EXISTS leaves an existing table alone");
    assertEquals(created.versionId(), glueTable(db, "c").versionId(), "and its entry");

    Throwable e = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("c") + " SHALLOW CLONE " + t("other")));
    assertTrue(messages(e).contains("already exists") || messages(e).contains("ALREADY_EXISTS"), messages(e));
    assertEquals(3, run("SELECT * FROM " + t("c")).size());
    assertEquals(created.versionId(), glueTable(db, "c").versionId());

    run("CREATE TABLE IF NOT EXISTS " + t("c2") + " SHALLOW CLONE " + t("other"));
    assertEquals(2, run("SELECT * FROM " + t("c2")).size());
    assertDeltaEntry(db, "c2", List.of("id bigint", "tag string"));
  }

  /** Delta clones onto an existing table only while it has no files, with its own catalog as with gluecat. */
  @Test
  void createOrReplaceCloneOntoAnExistingTable() {
    run("CREATE TABLE " + t("c") + " USING delta AS SELECT id, 'c' AS tag FROM range(3)");
    run("CREATE TABLE " + t("other") + " USING delta AS SELECT id, 'o' AS tag FROM range(10, 12)");
    Table before = glueTable(db, "c");
    Throwable e = assertThrows(Throwable.class,
        () -> run("CREATE OR REPLACE TABLE " + t("c") + " SHALLOW CLONE " + t("other")));
    assertTrue(messages(e).contains("DELTA_UNSUPPORTED_NON_EMPTY_CLONE"), messages(e));
    assertEquals(3, run("SELECT * FROM " + t("c")).size());
    assertEquals(before.versionId(), glueTable(db, "c").versionId(), "the entry is untouched");
  }

  /** Onto an existing table without files, Delta's clone replaces it; the entry follows the clone's columns. */
  @Test
  void createOrReplaceCloneOntoAnEmptyExistingTable() {
    createSource("src");
    run("CREATE TABLE " + t("e") + " (x INT) USING delta");
    String location = location(glueTable(db, "e"));
    run("CREATE OR REPLACE TABLE " + t("e") + " SHALLOW CLONE " + t("src"));
    assertEquals(rows("SELECT * FROM " + t("src") + " ORDER BY id"), rows("SELECT * FROM " + t("e") + " ORDER BY id"));
    Table entry = assertDeltaEntry(db, "e", List.of("id bigint", "region string"));
    assertEquals(location, location(entry), "a replace keeps the table where it is");
    assertEquals("region", entry.parameters().get("spark.sql.sources.schema.partCol.0"));
  }

  @Test
  void aCloneFromAMissingSourceWritesNothing() {
    GlueCallRecorder.reset();
    Throwable e = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("c") + " SHALLOW CLONE " + t("nothing")));
    assertTrue(messages(e).contains("TABLE_OR_VIEW_NOT_FOUND") || messages(e).contains("not found"), messages(e));
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "c"));
    assertTrue(GlueCallRecorder.callsOf("CreateTable").isEmpty(), "Glue was never asked to create it");
  }

  // ---- CREATE TABLE LIKE ----

  /**
   * Spark 4.2 sends CREATE TABLE LIKE to the catalog (createTableLike) for every name; Spark 3.5 and 4.1 parse it
   * for two-part names only, into a command of the built-in catalog that gluecat's extension takes over.
   */
  protected boolean likeHere() {
    return sparkLine("4.2") || sessionMode();
  }

  @Test
  void createTableLikeADeltaTable() {
    assumeTrue(likeHere(), "Spark before 4.2 parses CREATE TABLE LIKE for two-part names only");
    run("CREATE TABLE " + t("src") + " (id BIGINT, region STRING) USING delta PARTITIONED BY (region) "
        + "COMMENT 'the source' TBLPROPERTIES ('delta.appendOnly' = 'true')");
    run("INSERT INTO " + t("src") + " VALUES (1, 'eu')");

    run("CREATE TABLE " + t("l") + " LIKE " + t("src"));
    assertEquals(0, run("SELECT * FROM " + t("l")).size(), "LIKE copies the definition, not the rows");
    Table entry = assertDeltaEntry(db, "l", List.of("id bigint", "region string"));
    assertTrue(location(entry).startsWith(dbLocation + "/l-"), location(entry));
    assertEquals("region", entry.parameters().get("spark.sql.sources.schema.partCol.0"));
    assertTrue(rows("SHOW TBLPROPERTIES " + t("l")).contains("[delta.appendOnly,true]"),
        "the source's Delta properties come along, as with Delta's own catalog");

    String elsewhere = newDirectory("like_location");
    run("CREATE TABLE " + t("l2") + " LIKE " + t("src") + " LOCATION '" + elsewhere + "'");
    assertEquals(elsewhere, location(assertDeltaEntry(db, "l2", List.of("id bigint", "region string"))));

    Throwable e = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("l") + " LIKE " + t("src")));
    assertTrue(messages(e).contains("ALREADY_EXISTS") || messages(e).contains("already exists"), messages(e));
    run("CREATE TABLE IF NOT EXISTS " + t("l") + " LIKE " + t("src"));
  }

  /** Two-part names after USE reach the current gluecat catalog on every line (3.5 and 4.1 through the extension). */
  @Test
  void createTableLikeWithTwoPartNamesAfterUse() {
    assumeTrue(!sessionMode(), "session mode's two-part names are the tests above");
    run("CREATE TABLE " + t("src") + " (id BIGINT, region STRING) USING delta PARTITIONED BY (region)");
    run("USE " + catalog);
    try {
      run("CREATE TABLE " + db + ".l LIKE " + db + ".src");
    } finally {
      run("USE spark_catalog.default");
    }
    assertDeltaEntry(db, "l", List.of("id bigint", "region string"));
    assertEquals("region", glueTable(db, "l").parameters().get("spark.sql.sources.schema.partCol.0"));
  }

  @Test
  void createTableLikeAFileTable() {
    assumeTrue(likeHere(), "Spark before 4.2 parses CREATE TABLE LIKE for two-part names only");
    run("CREATE TABLE " + t("psrc") + " (id BIGINT, day STRING) USING parquet PARTITIONED BY (day)");
    run("INSERT INTO " + t("psrc") + " VALUES (1, 'd1')");

    run("CREATE TABLE " + t("pl") + " LIKE " + t("psrc"));
    Table entry = glueTable(db, "pl");
    assertEquals("parquet", entry.parameters().get("spark.sql.sources.provider"));
    assertEquals(List.of("id bigint"), columns(entry));
    assertEquals("day", entry.partitionKeys().get(0).name());
    assertNotEquals(location(glueTable(db, "psrc")), location(entry));
    assertEquals(0, run("SELECT * FROM " + t("pl")).size());
    run("INSERT INTO " + t("pl") + " VALUES (2, 'd2')");
    assertEquals(List.of("[2,d2]"), rows("SELECT * FROM " + t("pl")));

    run("CREATE TABLE " + t("pd") + " LIKE " + t("psrc") + " USING delta");
    assertDeltaEntry(db, "pd", List.of("id bigint", "day string"));
    assertEquals("day", glueTable(db, "pd").parameters().get("spark.sql.sources.schema.partCol.0"));
  }

  // ---- CONVERT TO DELTA ----

  @Test
  void convertToDeltaTurnsAParquetTableAndItsEntryIntoDelta() {
    run("CREATE TABLE " + t("pq") + " (id BIGINT, region STRING) USING parquet PARTITIONED BY (region) "
        + "COMMENT 'sales' TBLPROPERTIES ('team' = 'growth')");
    run("INSERT INTO " + t("pq") + " VALUES (1, 'eu'), (2, 'us')");
    String location = location(glueTable(db, "pq"));

    run("CONVERT TO DELTA " + t("pq"));
    Table entry = assertDeltaEntry(db, "pq", List.of("id bigint", "region string"));
    assertEquals(location, location(entry), "converted in place");
    assertEquals("region", entry.parameters().get("spark.sql.sources.schema.partCol.0"));
    assertEquals("sales", entry.description());
    assertEquals("growth", entry.parameters().get("team"));
    assertEquals(List.of("[1,eu]", "[2,us]"), rows("SELECT * FROM " + t("pq") + " ORDER BY id"));
    assertTrue(rows("SHOW TBLPROPERTIES " + t("pq")).contains("[team,growth]"),
        "the table's properties are in the log, as Delta's own catalog puts them there");
    assertTrue(rows("DESCRIBE HISTORY " + t("pq")).stream().anyMatch(r -> r.contains("CONVERT")));
    run("INSERT INTO " + t("pq") + " VALUES (3, 'eu')");
    assertEquals(List.of("[1,eu]", "[3,eu]"), rows("SELECT * FROM " + t("pq") + " WHERE region = 'eu' ORDER BY id"));

    String versionId = glueTable(db, "pq").versionId();
    run("CONVERT TO DELTA " + t("pq"));
    assertEquals(versionId, glueTable(db, "pq").versionId(), "a Delta table is left as it is, as Delta does");
  }

  /** A crawler's parquet table (a Hive SerDe entry, partition keys in Glue) converts too. */
  @Test
  void convertToDeltaOfACrawlersParquetTable() {
    String location = newDirectory("crawled");
    spark().range(4).selectExpr("id", "concat('n', id) AS name", "IF(id < 2, 'a', 'b') AS part")
        .write().mode("overwrite").partitionBy("part").parquet(location);
    HiveFormatTablesIT.hiveEntry(db, "crawled", location, HiveFormatTablesIT.PARQUET_SERDE,
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat", Map.of("serialization.format", "1"),
        Map.of("classification", "parquet"), List.of("id bigint", "name string"), List.of("part string"));

    run("CONVERT TO DELTA " + t("crawled"));
    Table entry = assertDeltaEntry(db, "crawled", List.of("id bigint", "name string", "part string"));
    assertEquals(location, location(entry));
    assertEquals("part", entry.parameters().get("spark.sql.sources.schema.partCol.0"));
    assertEquals(List.of("[0,n0,a]", "[3,n3,b]"), rows("SELECT * FROM " + t("crawled") + " WHERE id IN (0, 3) ORDER BY id"));
  }

  @Test
  void convertToDeltaRefusesWhatDeltaCannotConvertBeforeWritingAnything() {
    run("CREATE TABLE " + t("c") + " (id BIGINT) USING csv");
    run("INSERT INTO " + t("c") + " VALUES (1)");
    Table before = glueTable(db, "c");
    Throwable e = assertThrows(Throwable.class, () -> run("CONVERT TO DELTA " + t("c")));
    assertTrue(messages(e).contains(catalog + "." + db + ".c") && messages(e).contains("csv"), messages(e));
    assertEquals(before.versionId(), glueTable(db, "c").versionId(), "the entry is untouched");
    assertFalse(Files.exists(Paths.get(location(before).substring("file:".length())).resolve("_delta_log")));

    run("CREATE TABLE " + t("p") + " (id BIGINT, region STRING) USING parquet PARTITIONED BY (region)");
    e = assertThrows(Throwable.class, () -> run("CONVERT TO DELTA " + t("p") + " PARTITIONED BY (day STRING)"));
    assertTrue(messages(e).contains("PARTITIONED BY") && messages(e).contains("region"), messages(e));
    assertEquals("parquet", glueTable(db, "p").parameters().get("spark.sql.sources.provider"));
  }

  // ---- streaming reads by name ----

  @Test
  void streamingReadByName() throws Exception {
    namedModeOnly();
    run("CREATE TABLE " + t("events") + " (id BIGINT, v STRING) USING delta");
    run("INSERT INTO " + t("events") + " VALUES (1, 'a'), (2, 'b')");
    String sink = unique("events_sink");
    StreamingQuery query = session.readStream().table(t("events")).writeStream().format("memory").queryName(sink)
        .option("checkpointLocation", newDirectory("stream_checkpoint")).trigger(Trigger.AvailableNow()).start();
    query.awaitTermination();
    assertEquals(List.of("[1,a]", "[2,b]"), rows("SELECT * FROM " + sink + " ORDER BY id"));
  }
}
