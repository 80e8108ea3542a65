package io.gluecat.it;

import io.gluecat.it.spark.LogCapture;
import static io.gluecat.it.TableLoadIT.messages;
import static org.junit.jupiter.api.Assertions.*;

import io.delta.tables.DeltaTable;
import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * Delta statements by name that Delta's own catalog runs, run through gluecat (named mode here, session mode
 * in {@link SessionModeDeltaParityIT}): generated, identity and default columns, and the Glue entry following
 * every schema change a statement commits, or another writer left behind. What DeltaLifecycleIT already
 * covers (MERGE, UPDATE, DELETE, time travel, writeTo create/replace, streaming into a new table) is not
 * repeated here.
 */
class DeltaParityIT extends CatalogModeTest {

  private static boolean spark35() {
    return spark().version().startsWith("3.");
  }

  @AfterEach
  void resetSettings() {
    GlueFaults.clear();
    session.conf().unset("spark.databricks.delta.schema.autoMerge.enabled");
  }

  /**
   * gluecat re-syncs Glue after Spark reports the statement's end, on Spark's listener thread: wait for it,
   * as a reader in another process would find the entry a moment after the statement returned.
   */
  private void settled() {
    try {
      session.sparkContext().listenerBus().waitUntilEmpty();
    } catch (Exception e) { // Scala declares a TimeoutException; Spark waits without a limit here
      throw new AssertionError(e);
    }
  }

  private static List<String> columns(Table entry) {
    return entry.storageDescriptor().columns().stream().map(c -> c.name() + " " + c.type())
        .collect(Collectors.toList());
  }

  /** The schema JSON of the entry, whole or in parts, as Spark's Hive path stores it. */
  private static StructType schemaJson(Table entry) {
    Map<String, String> p = entry.parameters();
    String json = p.get("spark.sql.sources.schema");
    if (json == null) {
      StringBuilder parts = new StringBuilder();
      int n = Integer.parseInt(p.get("spark.sql.sources.schema.numParts"));
      for (int i = 0; i < n; i++) {
        parts.append(p.get("spark.sql.sources.schema.part." + i));
      }
      json = parts.toString();
    }
    return (StructType) DataType.fromJson(json);
  }

  private static String location(Table entry) {
    return entry.storageDescriptor().serdeInfo().parameters().get("path");
  }

  /** After a schema change: Glue's columns and schema JSON are the log's. */
  private void assertGlueFollows(String table, String... expected) {
    settled();
    Table entry = glueTable(db, table);
    assertEquals(List.of(expected), columns(entry));
    assertEquals(List.of(expected), java.util.Arrays.stream(schemaJson(entry).fields())
        .map(f -> f.name() + " " + f.dataType().catalogString())
        .collect(Collectors.toList()));
  }

  // ---- generated, identity and default columns ----

  @Test
  void generatedIdentityAndDefaultColumnsBySql() {
    if (spark35()) {
      return; // Spark 3.5's SQL has no IDENTITY and Delta 3.3's own catalog refuses generated columns in SQL
    }
    if (spark().version().startsWith("4.0")) {
      generatedAndIdentityRefusedDefaultsKeptOnSpark40();
      return;
    }
    run("CREATE TABLE " + t("gen") + " (id BIGINT GENERATED ALWAYS AS IDENTITY (START WITH 10 INCREMENT BY 5), "
        + "ts TIMESTAMP, day DATE GENERATED ALWAYS AS (CAST(ts AS DATE)), n INT DEFAULT 7) USING delta "
        + "TBLPROPERTIES ('delta.feature.allowColumnDefaults' = 'supported')");
    run("INSERT INTO " + t("gen") + " (ts) VALUES (TIMESTAMP'2026-01-02 03:04:05')");
    run("INSERT INTO " + t("gen") + " (ts, n) VALUES (TIMESTAMP'2026-02-03 00:00:00', 1)");
    assertEquals(List.of("[10,2026-01-02,7]", "[15,2026-02-03,1]"),
        rows("SELECT id, CAST(day AS STRING), n FROM " + t("gen") + " ORDER BY id"));
    Throwable e = assertThrows(Throwable.class, () -> run("INSERT INTO " + t("gen") + " (ts, day) VALUES "
        + "(TIMESTAMP'2026-01-02 03:04:05', DATE'2000-01-01')"));
    assertTrue(messages(e).contains("DELTA_") || messages(e).contains("CHECK constraint"), messages(e));
    assertEquals(2, run("SELECT * FROM " + t("gen")).size());

    settled();
    Table entry = glueTable(db, "gen");
    assertEquals(List.of("id bigint", "ts timestamp", "day date", "n int"), columns(entry));
    entry.storageDescriptor().columns().forEach(c -> assertTrue(c.parameters().isEmpty(), c.toString()));
    StructType json = schemaJson(entry);
    assertEquals("CAST(ts AS DATE)", json.apply("day").metadata().getString("delta.generationExpression"));
    assertEquals(10L, json.apply("id").metadata().getLong("delta.identity.start"));
    assertEquals(5L, json.apply("id").metadata().getLong("delta.identity.step"));
    assertFalse(json.apply("id").metadata().contains("delta.identity.highWaterMark"), "changes on every insert");
    assertEquals("7", json.apply("n").metadata().getString("CURRENT_DEFAULT"));

    // the staged create (CREATE OR REPLACE on a new name) carries them too
    run("CREATE OR REPLACE TABLE " + t("gen2") + " (a INT, b INT GENERATED ALWAYS AS (a * 2)) USING delta");
    run("INSERT INTO " + t("gen2") + " (a) VALUES (21)");
    assertEquals(List.of("[21,42]"), rows("SELECT a, b FROM " + t("gen2")));
    settled();
    assertEquals("a * 2", schemaJson(glueTable(db, "gen2")).apply("b").metadata()
        .getString("delta.generationExpression"));
  }

  /**
   * The 4.0 row's limit: Spark refuses generated and identity columns before any catalog is reached, as Delta
   * 4.0's catalog does not declare them (delta-io/delta#7290, in Delta 4.4.0, which has no Spark 4.0 build);
   * Delta's own catalog is refused alike, and the catalog's start-up warning says so (DeltaSupportTest, the
   * emr-8.0 runtime journey). Nothing reaches Glue. Column defaults work, as with Delta's own catalog.
   */
  private void generatedAndIdentityRefusedDefaultsKeptOnSpark40() {
    Throwable generated = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("gen") + " (x INT, "
        + "y INT GENERATED ALWAYS AS (x * 2)) USING delta"));
    assertTrue(messages(generated).contains("UNSUPPORTED_FEATURE.TABLE_OPERATION")
        && messages(generated).contains("does not support generated columns"), messages(generated));
    Throwable identity = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("ident") + " (id BIGINT "
        + "GENERATED ALWAYS AS IDENTITY, x INT) USING delta"));
    assertTrue(messages(identity).contains("does not support identity column"), messages(identity));
    assertEquals(List.of(), GLUE.getTables(r -> r.databaseName(db)).tableList().stream().map(Table::name)
        .filter(n -> n.equals("gen") || n.equals("ident")).collect(Collectors.toList()));

    run("CREATE TABLE " + t("def") + " (ts TIMESTAMP, n INT DEFAULT 7) USING delta "
        + "TBLPROPERTIES ('delta.feature.allowColumnDefaults' = 'supported')");
    run("INSERT INTO " + t("def") + " (ts) VALUES (TIMESTAMP'2026-01-02 03:04:05')");
    assertEquals(List.of("[7]"), rows("SELECT n FROM " + t("def")));
    settled();
    assertEquals("7", schemaJson(glueTable(db, "def")).apply("n").metadata().getString("CURRENT_DEFAULT"));
  }

  @Test
  void generatedAndIdentityColumnsThroughDeltasBuilder() {
    // Delta's builder parses its name as db.table: named mode makes the catalog current first
    if (!sessionMode()) {
      run("USE " + catalog + "." + db);
    }
    try {
      DeltaTable.create(session).tableName(db + ".built")
          .addColumn(DeltaTable.columnBuilder(session, "id").dataType("BIGINT").generatedAlwaysAsIdentity().build())
          .addColumn("ts", "TIMESTAMP")
          .addColumn(DeltaTable.columnBuilder(session, "day").dataType("DATE").generatedAlwaysAs("CAST(ts AS DATE)")
              .build())
          .execute();
    } catch (Exception e) {
      // Delta's builder reads the new table back through Spark's built-in session catalog (DeltaTable.forName),
      // which does not hold gluecat's tables: the create itself has happened, as with any catalog but Delta's own
      assertTrue(messages(e).contains("DELTA_MISSING_DELTA_TABLE"), messages(e));
    } finally {
      if (!sessionMode()) {
        run("USE spark_catalog.default");
      }
    }
    run("INSERT INTO " + t("built") + " (ts) VALUES (TIMESTAMP'2026-03-04 05:06:07')");
    assertEquals(List.of("[1,2026-03-04]"), rows("SELECT id, CAST(day AS STRING) FROM " + t("built")));
    assertThrows(Throwable.class, () -> run("INSERT INTO " + t("built") + " (ts, day) VALUES "
        + "(TIMESTAMP'2026-03-04 05:06:07', DATE'1999-01-01')"));
    settled();
    Table entry = glueTable(db, "built");
    assertEquals(List.of("id bigint", "ts timestamp", "day date"), columns(entry));
    StructType json = schemaJson(entry);
    assertEquals("CAST(ts AS DATE)", json.apply("day").metadata().getString("delta.generationExpression"));
    assertTrue(json.apply("id").metadata().contains("delta.identity.start"), json.prettyJson());
  }

  // ---- the Glue entry follows the log ----

  @Test
  void everySchemaChangingWriteIsFollowedInGlue() throws Exception {
    String tbl = t("evo");
    run("CREATE TABLE " + tbl + " (id BIGINT, v STRING) USING delta");
    run("INSERT INTO " + tbl + " VALUES (1, 'a')");

    session.conf().set("spark.databricks.delta.schema.autoMerge.enabled", "true");
    run("MERGE INTO " + tbl + " t USING (SELECT 2L AS id, 'b' AS v, 2.5D AS m) s ON t.id = s.id "
        + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    assertGlueFollows("evo", "id bigint", "v string", "m double");

    session.sql("SELECT 3L AS id, 'c' AS v, 3.5D AS m, 'x' AS s1").write().format("delta").mode("append")
        .option("mergeSchema", "true").saveAsTable(tbl);
    assertGlueFollows("evo", "id bigint", "v string", "m double", "s1 string");

    session.sql("SELECT 4L AS id, 'd' AS v, 4.5D AS m, 'y' AS s1, 4 AS w2").writeTo(tbl)
        .option("mergeSchema", "true").append();
    assertGlueFollows("evo", "id bigint", "v string", "m double", "s1 string", "w2 int");

    session.sql("SELECT 5L AS id, 'e' AS v, 5.5D AS m, 'z' AS s1, 5 AS w2, true AS i3").write()
        .option("mergeSchema", "true").insertInto(tbl);
    assertGlueFollows("evo", "id bigint", "v string", "m double", "s1 string", "w2 int", "i3 boolean");

    run("INSERT INTO " + tbl + " SELECT 6L, 'f', 6.5D, 'q', 6, false, DATE'2026-01-01' AS sq4");
    assertGlueFollows("evo", "id bigint", "v string", "m double", "s1 string", "w2 int", "i3 boolean", "sq4 date");

    run("INSERT INTO " + tbl + " REPLACE WHERE id = 6 SELECT 6L, 'f', 6.5D, 'q', 6, false, DATE'2026-01-01', "
        + "'r' AS rw5");
    assertGlueFollows("evo", "id bigint", "v string", "m double", "s1 string", "w2 int", "i3 boolean", "sq4 date",
        "rw5 string");
    assertEquals(6, run("SELECT * FROM " + tbl).size());

    String source = newDirectory("stream_src");
    Files.writeString(Paths.get(source.substring("file:".length())).resolve("a.json"),
        "{\"id\": 7, \"st6\": \"s\"}\n");
    session.readStream().schema("id BIGINT, st6 STRING").json(source).writeStream().format("delta")
        .option("checkpointLocation", newDirectory("checkpoint")).option("mergeSchema", "true")
        .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow()).toTable(tbl).awaitTermination();
    assertEquals(7, run("SELECT * FROM " + tbl).size());
    assertGlueFollows("evo", "id bigint", "v string", "m double", "s1 string", "w2 int", "i3 boolean", "sq4 date",
        "rw5 string", "st6 string");
  }

  @Test
  void restoreRevertsGlueColumns() {
    namedModeOnly();
    String tbl = t("rest");
    run("CREATE TABLE " + tbl + " (id BIGINT) USING delta");
    run("INSERT INTO " + tbl + " VALUES (1)");
    run("ALTER TABLE " + tbl + " ADD COLUMNS (extra STRING)");
    run("INSERT INTO " + tbl + " VALUES (2, 'x')");
    assertGlueFollows("rest", "id bigint", "extra string");
    run("RESTORE TABLE " + tbl + " TO VERSION AS OF 1");
    assertEquals(List.of("[1]"), rows("SELECT * FROM " + tbl));
    assertGlueFollows("rest", "id bigint");
  }

  /** REPLACE TABLE and CREATE OR REPLACE TABLE without a query, with a new schema, as with Delta's own catalog. */
  @Test
  void replaceWithANewSchemaAndNoQuery() {
    String tbl = t("repl");
    run("CREATE TABLE " + tbl + " (id BIGINT) USING delta");
    run("INSERT INTO " + tbl + " VALUES (1)");
    run("REPLACE TABLE " + tbl + " (id BIGINT, note STRING) USING delta");
    assertEquals(List.of(), rows("SELECT * FROM " + tbl));
    assertGlueFollows("repl", "id bigint", "note string");
    run("CREATE OR REPLACE TABLE " + tbl + " (k STRING) USING delta");
    run("INSERT INTO " + tbl + " VALUES ('a')");
    assertEquals(List.of("[a]"), rows("SELECT * FROM " + tbl));
    assertGlueFollows("repl", "k string");
  }

  @Test
  void aStatementThatChangesNoSchemaMakesNoExtraGlueCall() {
    namedModeOnly();
    String tbl = t("quiet");
    run("CREATE TABLE " + tbl + " (id BIGINT, v STRING) USING delta");
    settled();
    String version = glueTable(db, "quiet").versionId();
    for (String statement : List.of("INSERT INTO " + tbl + " VALUES (1, 'a')", "UPDATE " + tbl + " SET v = 'b'",
        "SELECT * FROM " + tbl, "ALTER TABLE " + tbl + " SET TBLPROPERTIES ('k' = 'v')")) {
      run(statement);
      settled();
      GlueCallRecorder.clear();
      run("SELECT * FROM " + tbl);
      settled();
      assertEquals(List.of("GetTable"), GlueCallRecorder.calls().stream().map(c -> c.operation())
          .collect(Collectors.toList()), "after " + statement);
    }
    assertEquals(version, glueTable(db, "quiet").versionId());
  }

  // ---- drift left by other writers ----

  @Test
  void driftFromAnotherWriterIsRepairedByTheNextLoad() {
    namedModeOnly();
    String tbl = t("drift");
    run("CREATE TABLE " + tbl + " (id BIGINT) USING delta");
    String location = location(glueTable(db, "drift"));
    // a writer by path (or a session without gluecat, or Trino) evolves the schema; Glue does not see it
    session.sql("SELECT 1L AS id, 'x' AS other").write().format("delta").mode("append")
        .option("mergeSchema", "true").save(location);
    settled();
    // the next load by name sees a log newer than the entry and writes the log's schema to Glue
    assertEquals(List.of("[1,x]"), rows("SELECT * FROM " + tbl));
    assertGlueFollows("drift", "id bigint", "other string");
    GlueCallRecorder.clear();
    run("SELECT * FROM " + tbl);
    settled();
    assertTrue(GlueCallRecorder.callsOf("UpdateTable").isEmpty(), "repaired once");

    // a principal that may not update Glue still reads; the entry stays behind and a warning says so
    session.sql("SELECT 2L AS id, 'y' AS other, 3 AS third").write().format("delta").mode("append")
        .option("mergeSchema", "true").save(location);
    settled();
    GlueFaults.inject(Fault.glue("UpdateTable").accessDenied().always().build());
    List<String> logged = new ArrayList<>();
    try (LogCapture capture = LogCapture.start(logged)) {
      assertEquals(2, run("SELECT * FROM " + tbl).size());
      settled();
    }
    assertTrue(logged.stream().anyMatch(l -> l.contains(db + ".drift") && l.contains("REFRESH TABLE")), logged.toString());
    GlueFaults.clear();
    assertEquals(List.of("id bigint", "other string"), columns(glueTable(db, "drift")));
    run("REFRESH TABLE " + tbl);
    assertGlueFollows("drift", "id bigint", "other string", "third int");
  }

  @Test
  void anEntryChangedInGlueAloneIsPutBackByTheNextLoad() {
    namedModeOnly();
    String tbl = t("glueonly");
    run("CREATE TABLE " + tbl + " (id BIGINT, v STRING) USING delta");
    run("INSERT INTO " + tbl + " VALUES (1, 'a')");
    assertEquals(List.of("[1,a]"), rows("SELECT * FROM " + tbl)); // loads that find entry and log agreeing
    settled();
    // another client rewrites the entry's columns; the log stays as it was
    Table entry = glueTable(db, "glueonly");
    Map<String, String> parameters = new java.util.LinkedHashMap<>(entry.parameters());
    parameters.keySet().removeIf(k -> k.startsWith("spark.sql.sources.schema"));
    parameters.put("spark.sql.sources.schema", new StructType().add("id", "bigint").json());
    software.amazon.awssdk.services.glue.model.TableInput input = software.amazon.awssdk.services.glue.model
        .TableInput.builder().name(entry.name()).tableType(entry.tableType()).parameters(parameters)
        .partitionKeys(entry.partitionKeys()).storageDescriptor(entry.storageDescriptor().toBuilder()
            .columns(Column.builder().name("id").type("bigint").build()).build()).build();
    GLUE.updateTable(r -> r.databaseName(db).tableInput(input).versionId(entry.versionId()));
    assertEquals(List.of("id bigint"), columns(glueTable(db, "glueonly")));
    // the next load compares the changed entry with the log again and writes the log's schema back
    assertEquals(List.of("[1,a]"), rows("SELECT * FROM " + tbl));
    assertGlueFollows("glueonly", "id bigint", "v string");
  }

  // ---- what already worked, kept working ----

  @Test
  void constraintsDeletionVectorsOptimizeVacuumAndHistory() {
    namedModeOnly();
    String tbl = t("kept");
    run("CREATE TABLE " + tbl + " (id BIGINT NOT NULL, v INT) USING delta "
        + "TBLPROPERTIES ('delta.enableDeletionVectors' = 'true', 'delta.enableChangeDataFeed' = 'true')");
    run("ALTER TABLE " + tbl + " ADD CONSTRAINT positive CHECK (v > 0)");
    run("INSERT INTO " + tbl + " VALUES (1, 10), (2, 20), (3, 30)");
    assertThrows(Throwable.class, () -> run("INSERT INTO " + tbl + " VALUES (4, -1)"));
    assertThrows(Throwable.class, () -> run("INSERT INTO " + tbl + " VALUES (NULL, 1)"));
    run("DELETE FROM " + tbl + " WHERE id = 2");
    assertTrue(run("DESCRIBE HISTORY " + tbl).stream().anyMatch(r -> "DELETE".equals(r.getAs("operation"))));
    run("OPTIMIZE " + tbl);
    run("VACUUM " + tbl + " RETAIN 168 HOURS");
    assertEquals(List.of("[1,10]", "[3,30]"), rows("SELECT * FROM " + tbl + " ORDER BY id"));
    assertTrue(run("DESCRIBE DETAIL " + tbl).get(0).<Long>getAs("numFiles") > 0);
    assertEquals(List.of("[2,delete]"), rows("SELECT id, _change_type FROM table_changes('" + tbl
        + "', 3) WHERE _change_type = 'delete'"));
    assertEquals(3, run("SELECT * FROM " + tbl + " VERSION AS OF 2").size());
  }

  @Test
  void columnMappingRenameAndDropAreFollowedInGlue() {
    namedModeOnly();
    String tbl = t("mapped");
    run("CREATE TABLE " + tbl + " (id BIGINT, old STRING, gone INT) USING delta TBLPROPERTIES ("
        + "'delta.columnMapping.mode' = 'name', 'delta.minReaderVersion' = '2', 'delta.minWriterVersion' = '5')");
    run("INSERT INTO " + tbl + " VALUES (1, 'a', 9)");
    run("ALTER TABLE " + tbl + " RENAME COLUMN old TO renamed");
    run("ALTER TABLE " + tbl + " DROP COLUMN gone");
    assertEquals(List.of("[1,a]"), rows("SELECT id, renamed FROM " + tbl));
    assertGlueFollows("mapped", "id bigint", "renamed string");
    for (Column c : glueTable(db, "mapped").storageDescriptor().columns()) {
      assertFalse(schemaJson(glueTable(db, "mapped")).apply(c.name()).metadata()
          .contains("delta.columnMapping.physicalName"), "mapping metadata is the log's business");
    }
  }

  @Test
  void clusteringReplaceWhereDynamicOverwriteAndWriterV2() throws Exception {
    run("CREATE TABLE " + t("clustered") + " (id BIGINT, v STRING) USING delta CLUSTER BY (id)");
    run("INSERT INTO " + t("clustered") + " VALUES (1, 'a'), (2, 'b')");
    Row detail = run("DESCRIBE DETAIL " + t("clustered")).get(0);
    assertEquals(List.of("id"), detail.getList(detail.fieldIndex("clusteringColumns")));

    run("CREATE TABLE " + t("parts") + " (id BIGINT, p STRING) USING delta PARTITIONED BY (p)");
    run("INSERT INTO " + t("parts") + " VALUES (1, 'a'), (2, 'b')");
    run("INSERT INTO " + t("parts") + " REPLACE WHERE p = 'a' VALUES (3, 'a')");
    session.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try {
      run("INSERT OVERWRITE " + t("parts") + " VALUES (4, 'b')");
    } finally {
      session.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
    assertEquals(List.of("[3,a]", "[4,b]"), rows("SELECT * FROM " + t("parts") + " ORDER BY id"));

    run("CREATE TABLE " + t("v2") + " (id BIGINT, p STRING) USING delta PARTITIONED BY (p)");
    session.sql("SELECT 1L AS id, 'x' AS p").writeTo(t("v2")).append();
    session.sql("SELECT 2L AS id, 'y' AS p").writeTo(t("v2")).append();
    session.sql("SELECT 3L AS id, 'x' AS p").writeTo(t("v2")).overwritePartitions();
    assertEquals(List.of("[2,y]", "[3,x]"), rows("SELECT * FROM " + t("v2") + " ORDER BY id"));
    settled();
    assertEquals(List.of("id bigint", "p string"), columns(glueTable(db, "v2")));
  }
}
