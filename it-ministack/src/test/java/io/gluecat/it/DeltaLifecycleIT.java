package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.assertMessage;
import static io.gluecat.it.TableLoadIT.messages;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * Delta tables by name, named mode: gluecat registered as its own catalog, spark_catalog left to Delta.
 * Creates and replaces run on Delta by path first, then Glue; SessionModeDeltaIT runs the core of this
 * with gluecat as spark_catalog.
 */
class DeltaLifecycleIT extends CatalogModeTest {

  @AfterEach
  void clearFaults() {
    GlueCallRecorder.reset();
    session.conf().unset("spark.databricks.delta.catalog.update.enabled");
    session.conf().unset("spark.sql.runSQLOnFiles");
  }

  protected List<Long> ids(String table) {
    return run("SELECT id FROM " + t(table) + " ORDER BY id").stream().map(r -> r.getLong(0))
        .collect(Collectors.toList());
  }

  protected static String location(Table entry) {
    return entry.storageDescriptor().serdeInfo().parameters().get("path");
  }

  protected static List<String> columns(Table entry) {
    return entry.storageDescriptor().columns().stream().map(c -> c.name() + " " + c.type())
        .collect(Collectors.toList());
  }

  protected static boolean hasDeltaLog(String location) {
    Path log = Paths.get(location.substring("file:".length())).resolve("_delta_log");
    return Files.isDirectory(log) && log.toFile().list().length > 0;
  }

  protected long deltaVersion(String location) {
    return session.sql("DESCRIBE HISTORY delta.`" + location + "`").collectAsList().stream()
        .mapToLong(r -> r.getLong(0)).max().orElse(-1);
  }

  // ---- create ----

  @Test
  void createManagedTableWritesDeltaThenGlueAndServesInserts() {
    run("CREATE TABLE " + t("orders") + " (id BIGINT COMMENT 'order id', region STRING) USING delta "
        + "PARTITIONED BY (region) COMMENT 'All orders' TBLPROPERTIES ('team' = 'finance')");
    Table entry = glueTable(db, "orders");
    String location = location(entry);
    assertTrue(location.startsWith(dbLocation + "/orders-"), "unique managed location under the database: " + location);
    assertEquals(location, entry.storageDescriptor().location(), "Delta entries carry the real location");
    assertEquals("delta", entry.parameters().get("spark.sql.sources.provider"));
    assertEquals("DELTA", entry.parameters().get("table_type"));
    assertEquals("EXTERNAL_TABLE", entry.tableType());
    assertEquals("region", entry.parameters().get("spark.sql.sources.schema.partCol.0"));
    assertEquals("finance", entry.parameters().get("team"));
    assertEquals("All orders", entry.description());
    assertEquals(List.of("id bigint", "region string"), columns(entry));
    assertEquals("order id", entry.storageDescriptor().columns().get(0).comment());
    assertTrue(hasDeltaLog(location));

    run("INSERT INTO " + t("orders") + " VALUES (1, 'eu'), (2, 'us')");
    assertEquals(List.of(1L, 2L), ids("orders"));
    assertEquals(2L, session.read().format("delta").load(location).count(), "the data is at the entry's location");
  }

  @Test
  void createWithLocationAndRegisterAnExistingDeltaTable() {
    String external = newDirectory("external");
    run("CREATE TABLE " + t("ext") + " (id BIGINT) USING delta LOCATION '" + external + "'");
    assertEquals(external, location(glueTable(db, "ext")));

    String existing = newDirectory("existing");
    session.range(0, 3).write().format("delta").mode("overwrite").save(existing);
    run("CREATE TABLE " + t("registered") + " USING delta LOCATION '" + existing + "'");
    assertEquals(List.of(0L, 1L, 2L), ids("registered"));
    assertEquals(List.of("id bigint"), columns(glueTable(db, "registered")));

    Throwable mismatch = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("mismatch")
        + " (name STRING) USING delta LOCATION '" + existing + "'"));
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "mismatch"), messages(mismatch));
  }

  @Test
  void creatingAnExistingTableFailsBeforeAnythingIsWritten() {
    run("CREATE TABLE " + t("dup") + " (id BIGINT) USING delta");
    String before = location(glueTable(db, "dup"));
    Throwable e = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("dup") + " (id BIGINT) USING delta"));
    assertTrue(messages(e).contains("TABLE_OR_VIEW_ALREADY_EXISTS") || messages(e).contains("already exists"),
        messages(e));
    assertEquals(before, location(glueTable(db, "dup")));
    run("CREATE TABLE IF NOT EXISTS " + t("dup") + " (id BIGINT) USING delta");
  }

  @Test
  void droppingAndRecreatingAManagedTableNeverReattachesOldData() {
    run("CREATE TABLE " + t("again") + " USING delta AS SELECT id FROM range(3)");
    String first = location(glueTable(db, "again"));
    run("DROP TABLE " + t("again"));
    assertTrue(hasDeltaLog(first), "DROP never deletes data");
    run("CREATE TABLE " + t("again") + " (id BIGINT) USING delta");
    String second = location(glueTable(db, "again"));
    assertNotEquals(first, second);
    assertEquals(List.of(), ids("again"));
  }

  // ---- CTAS, replace, DataFrame writers ----

  @Test
  void ctasRtasAndCreateOrReplace() {
    run("CREATE TABLE " + t("ctas") + " USING delta AS SELECT id, 'a' AS tag FROM range(3)");
    Table created = glueTable(db, "ctas");
    String location = location(created);
    assertEquals(List.of("id bigint", "tag string"), columns(created));
    assertEquals(0L, deltaVersion(location));
    assertEquals(List.of(0L, 1L, 2L), ids("ctas"));

    run("REPLACE TABLE " + t("ctas") + " USING delta AS SELECT id, id * 2 AS doubled FROM range(5, 7)");
    Table replaced = glueTable(db, "ctas");
    assertEquals(location, location(replaced), "a replace keeps the location");
    assertEquals(List.of("id bigint", "doubled bigint"), columns(replaced));
    assertEquals(1L, deltaVersion(location), "the replace is one more Delta commit");
    assertEquals(List.of(5L, 6L), ids("ctas"));
    assertEquals(Integer.parseInt(created.versionId()) + 1, Integer.parseInt(replaced.versionId()));
    List<io.gluecat.testkit.GlueCall> updates = GlueCallRecorder.callsOf("UpdateTable");
    assertEquals(1, updates.size());
    assertEquals(created.versionId(), updates.get(0).versionId(), "the update names the version it replaces");
    assertEquals(Boolean.FALSE, updates.get(0).skipArchive(), "glue.skip-archive defaults to false");

    run("CREATE OR REPLACE TABLE " + t("ctas") + " USING delta AS SELECT id FROM range(1)");
    assertEquals(List.of(0L), ids("ctas"));
    run("CREATE OR REPLACE TABLE " + t("fresh") + " USING delta AS SELECT id FROM range(2)");
    assertEquals(List.of(0L, 1L), ids("fresh"));

    assertMessage(() -> run("REPLACE TABLE " + t("missing") + " USING delta AS SELECT 1 AS id"), "missing");
  }

  @Test
  void saveAsTableInEveryModeAndWriterV2() {
    Dataset<Row> three = session.range(0, 3).toDF();
    String name = t("saved");
    three.write().format("delta").saveAsTable(name);
    assertEquals(List.of(0L, 1L, 2L), ids("saved"));
    assertThrows(Throwable.class, () -> three.write().format("delta").mode(SaveMode.ErrorIfExists).saveAsTable(name));
    three.write().format("delta").mode(SaveMode.Append).saveAsTable(name);
    assertEquals(6, ids("saved").size());
    session.range(10, 12).write().format("delta").mode(SaveMode.Overwrite).saveAsTable(name);
    assertEquals(List.of(10L, 11L), ids("saved"));
    three.write().format("delta").mode(SaveMode.Ignore).saveAsTable(name);
    assertEquals(List.of(10L, 11L), ids("saved"));

    String v2 = t("v2");
    try {
      session.range(0, 2).writeTo(v2).using("delta").create();
      assertEquals(List.of(0L, 1L), ids("v2"));
      session.range(5, 6).writeTo(v2).append();
      assertEquals(List.of(0L, 1L, 5L), ids("v2"));
      session.range(7, 8).writeTo(v2).using("delta").replace();
      assertEquals(List.of(7L), ids("v2"));
      session.range(8, 9).writeTo(v2).using("delta").createOrReplace();
      assertEquals(List.of(8L), ids("v2"));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void aFailingQueryLeavesNeitherGlueNorDeltaBehind() {
    assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("boom") + " USING delta AS "
        + "SELECT id, CASE WHEN id = 2 THEN raise_error('boom') ELSE id END AS v FROM range(3)"));
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "boom"));
    assertTrue(GlueCallRecorder.callsOf("CreateTable").isEmpty(), "Glue was never asked to create it");
  }

  @Test
  void ctasOntoAnExistingDeltaTableFailsAsDeltaDoes() {
    String existing = newDirectory("occupied");
    session.range(2).write().format("delta").mode("overwrite").save(existing);
    Throwable e = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("occupied") + " USING delta LOCATION '"
        + existing + "' AS SELECT id FROM range(5)"));
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "occupied"), messages(e));
    assertEquals(2L, session.read().format("delta").load(existing).count(), "the existing table is untouched");
  }

  @Test
  void withoutSqlOnFilesCreatesFailBeforeDeltaWrites() {
    session.conf().set("spark.sql.runSQLOnFiles", "false");
    String target = dbLocation + "/nofiles";
    assertMessage(() -> run("CREATE TABLE " + t("nofiles") + " (id BIGINT) USING delta LOCATION '" + target + "'"),
        "spark.sql.runSQLOnFiles", db + ".nofiles");
    assertMessage(() -> run("CREATE TABLE " + t("nofiles") + " USING delta AS SELECT 1 AS id"),
        "spark.sql.runSQLOnFiles");
    assertFalse(Files.exists(Paths.get(target.substring("file:".length()))), "Delta wrote nothing");
  }

  // ---- Glue failing after Delta committed ----

  @Test
  void aGlueFailureAfterTheDeltaCommitIsReportedAndRecoverable() {
    String location = newDirectory("recover");
    GlueFaults.inject(Fault.glue("CreateTable").accessDenied().always().build());
    Throwable e = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("recover") + " USING delta LOCATION '"
        + location + "' AS SELECT id FROM range(4)"));
    String all = messages(e);
    assertTrue(all.contains("io.gluecat.DeltaCommittedButGlueFailedException"), all);
    assertTrue(all.contains(db + ".recover") && all.contains(location)
        && all.contains("Delta commit") && all.contains("succeeded") && all.contains("AccessDenied"), all);
    assertTrue(all.contains("CREATE TABLE " + catalog + "." + db + ".recover USING delta LOCATION '" + location + "'"),
        all);
    assertEquals(4L, session.read().format("delta").load(location).count(), "the Delta commit is there");
    GlueFaults.clear();

    assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("recover") + " USING delta LOCATION '"
        + location + "' AS SELECT id FROM range(4)"), "running the CTAS again fails: the location holds a table");
    run("CREATE TABLE " + t("recover") + " USING delta LOCATION '" + location + "'");
    assertEquals(List.of(0L, 1L, 2L, 3L), ids("recover"));
  }

  // ---- the UpdateCatalog hook ----

  @Test
  void theUpdateCatalogHookStopsDeltaOperationsButNotDropsOrListings() {
    run("CREATE TABLE " + t("hooked") + " USING delta AS SELECT id FROM range(2)");
    run("CREATE TABLE " + t("dropme") + " (id BIGINT) USING delta");
    session.conf().set("spark.databricks.delta.catalog.update.enabled", "true");
    assertMessage(() -> run("SELECT * FROM " + t("hooked")), "spark.databricks.delta.catalog.update.enabled");
    assertMessage(() -> run("INSERT INTO " + t("hooked") + " VALUES (9)"), "catalog.update.enabled");
    assertMessage(() -> run("CREATE TABLE " + t("new_one") + " (id BIGINT) USING delta"), "catalog.update.enabled");
    assertMessage(() -> run("ALTER TABLE " + t("hooked") + " ADD COLUMNS (x INT)"), "catalog.update.enabled");
    assertMessage(() -> run("REFRESH TABLE " + t("hooked")), "catalog.update.enabled");
    assertEquals(2, run("SHOW TABLES IN " + database()).size());
    run("DROP TABLE " + t("dropme"));
    run("SHOW NAMESPACES IN " + catalog);
    String fresh = newCatalog(session, ministackOptions());
    assertMessage(() -> run("SHOW NAMESPACES IN " + fresh), "catalog.update.enabled", fresh);
    session.conf().set("spark.databricks.delta.catalog.update.enabled", "false");
    assertEquals(List.of(0L, 1L), ids("hooked"));
  }

  // ---- alter, refresh, rename, drop ----

  @Test
  void alterColumnsResyncsGlueAndPropertiesStayInTheLog() {
    namedModeOnly();
    run("CREATE TABLE " + t("alt") + " (id BIGINT, name STRING) USING delta");
    run("ALTER TABLE " + t("alt") + " ADD COLUMNS (amount DOUBLE COMMENT 'in EUR')");
    Table entry = glueTable(db, "alt");
    assertEquals(List.of("id bigint", "name string", "amount double"), columns(entry));
    assertEquals("in EUR", entry.storageDescriptor().columns().get(2).comment());
    run("ALTER TABLE " + t("alt") + " ALTER COLUMN name COMMENT 'customer name'");
    assertEquals("customer name", glueTable(db, "alt").storageDescriptor().columns().get(1).comment());

    String version = glueTable(db, "alt").versionId();
    run("ALTER TABLE " + t("alt") + " SET TBLPROPERTIES ('delta.appendOnly' = 'true', 'stage' = 'prod')");
    assertEquals(version, glueTable(db, "alt").versionId(), "property changes do not touch Glue");
    Map<String, String> logProperties = run("SHOW TBLPROPERTIES " + t("alt")).stream()
        .collect(Collectors.toMap(r -> r.getString(0), r -> r.getString(1)));
    assertEquals("prod", logProperties.get("stage"));
  }

  @Test
  void refreshResyncsColumnsAfterSchemaEvolution() {
    namedModeOnly();
    run("CREATE TABLE " + t("evolve") + " USING delta AS SELECT id FROM range(2)");
    String location = location(glueTable(db, "evolve"));
    session.range(2, 3).selectExpr("id", "'x' AS extra").write().format("delta").mode("append")
        .option("mergeSchema", "true").save(location);
    assertEquals(List.of("id bigint"), columns(glueTable(db, "evolve")), "a write does not sync Glue");
    run("REFRESH TABLE " + t("evolve"));
    assertEquals(List.of("id bigint", "extra string"), columns(glueTable(db, "evolve")));
    int updates = GlueCallRecorder.callsOf("UpdateTable").size();
    run("REFRESH TABLE " + t("evolve"));
    assertEquals(updates, GlueCallRecorder.callsOf("UpdateTable").size(), "nothing to sync, nothing written");
  }

  @Test
  void setLocationNeedsADeltaTableAndMovesTheEntry() {
    namedModeOnly();
    run("CREATE TABLE " + t("moving") + " USING delta AS SELECT id FROM range(2)");
    String target = newDirectory("target");
    session.range(5, 8).selectExpr("id", "id AS copy").write().format("delta").mode("overwrite").save(target);
    run("ALTER TABLE " + t("moving") + " SET LOCATION '" + target + "'");
    Table moved = glueTable(db, "moving");
    assertEquals(target, location(moved));
    assertEquals(target, moved.storageDescriptor().location());
    assertEquals(List.of("id bigint", "copy bigint"), columns(moved));
    assertEquals(List.of(5L, 6L, 7L), ids("moving"));

    String empty = newDirectory("not_delta");
    assertMessage(() -> run("ALTER TABLE " + t("moving") + " SET LOCATION '" + empty + "'"), "no Delta table",
        empty);
    assertEquals(target, location(glueTable(db, "moving")));
  }

  @Test
  void skipArchiveFollowsTheOption() {
    namedModeOnly();
    Map<String, String> options = ministackOptions();
    options.put("glue.skip-archive", "true");
    String skipping = newCatalog(session, options);
    run("CREATE TABLE " + skipping + "." + db + ".archived (id BIGINT) USING delta");
    run("ALTER TABLE " + skipping + "." + db + ".archived ADD COLUMNS (x INT)");
    List<io.gluecat.testkit.GlueCall> updates = GlueCallRecorder.callsOf("UpdateTable");
    assertFalse(updates.isEmpty());
    updates.forEach(u -> assertEquals(Boolean.TRUE, u.skipArchive(), u.toString()));
    updates.forEach(u -> assertNotNull(u.versionId(), u.toString()));
  }

  @Test
  void aStaleVersionIdSurfacesAsTheRetryableException() {
    namedModeOnly();
    run("CREATE TABLE " + t("raced") + " (id BIGINT) USING delta");
    GlueFaults.inject(Fault.glue("UpdateTable").concurrentModification().always().build());
    assertMessage(() -> run("ALTER TABLE " + t("raced") + " ADD COLUMNS (x INT)"),
        "io.gluecat.GlueConcurrentModificationException", db + ".raced", "nothing was overwritten");
    GlueFaults.clear();
    run("REFRESH TABLE " + t("raced"));
    assertEquals(List.of("id bigint", "x int"), columns(glueTable(db, "raced")));
  }

  @Test
  void renameMovesTheEntryNotTheData() {
    run("CREATE TABLE " + t("before") + " USING delta AS SELECT id FROM range(3)");
    String location = location(glueTable(db, "before"));
    run("ALTER TABLE " + t("before") + " RENAME TO " + t("after"));
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "before"));
    assertEquals(location, location(glueTable(db, "after")));
    assertEquals(List.of(0L, 1L, 2L), ids("after"));

    GlueFaults.inject(Fault.glue("DeleteTable").internalError().always().build());
    assertMessage(() -> run("ALTER TABLE " + t("after") + " RENAME TO " + t("again")), "DROP TABLE",
        db + ".after", "Both entries");
    GlueFaults.clear();
    assertEquals(location, location(glueTable(db, "after")));
    assertEquals(location, location(glueTable(db, "again")));
    run("DROP TABLE " + t("after"));
    assertEquals(List.of(0L, 1L, 2L), ids("again"));
  }

  // ---- DML and time travel on tables loaded by name ----

  @Test
  void dmlAndTimeTravelWorkAsWithDeltasOwnCatalog() throws Exception {
    namedModeOnly();
    run("CREATE TABLE " + t("dml") + " (id BIGINT, v STRING) USING delta");
    run("INSERT INTO " + t("dml") + " VALUES (1, 'a'), (2, 'b'), (3, 'c')");
    long afterInsert = System.currentTimeMillis();
    Thread.sleep(1100);
    run("UPDATE " + t("dml") + " SET v = 'B' WHERE id = 2");
    run("DELETE FROM " + t("dml") + " WHERE id = 3");
    run("MERGE INTO " + t("dml") + " d USING (SELECT 1L AS id, 'A' AS v UNION ALL SELECT 4L, 'd') s "
        + "ON d.id = s.id WHEN MATCHED THEN UPDATE SET v = s.v WHEN NOT MATCHED THEN INSERT *");
    assertEquals(List.of("1A", "2B", "4d"), run("SELECT id, v FROM " + t("dml") + " ORDER BY id").stream()
        .map(r -> r.getLong(0) + r.getString(1)).collect(Collectors.toList()));
    run("INSERT OVERWRITE " + t("dml") + " VALUES (9, 'z')");
    assertEquals(List.of(9L), ids("dml"));

    assertEquals(3, run("SELECT * FROM " + t("dml") + " VERSION AS OF 1").size());
    String ts = new java.sql.Timestamp(afterInsert).toString();
    assertEquals(3, run("SELECT * FROM " + t("dml") + " TIMESTAMP AS OF '" + ts + "'").size());
  }

  @Test
  void streamingIntoAMissingTableCreatesIt() throws Exception {
    String source = newDirectory("stream_in");
    Files.writeString(Paths.get(source.substring("file:".length())).resolve("a.json"),
        "{\"id\": 1}\n{\"id\": 2}\n");
    String checkpoint = newDirectory("checkpoint");
    org.apache.spark.sql.streaming.StreamingQuery query = session.readStream().schema("id BIGINT").json(source)
        .writeStream().format("delta").option("checkpointLocation", checkpoint)
        .trigger(org.apache.spark.sql.streaming.Trigger.AvailableNow()).toTable(t("streamed"));
    query.awaitTermination();
    assertEquals(List.of(1L, 2L), ids("streamed"));
    assertEquals(List.of("id bigint"), columns(glueTable(db, "streamed")));
  }

}
