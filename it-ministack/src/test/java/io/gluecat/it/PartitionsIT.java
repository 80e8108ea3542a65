package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.assertMessage;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.GluePartitionsInStep;
import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.partitions.PartitionSync;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.GlueSemantics;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * Glue partition objects of partitioned Hive-compatible tables (parquet, orc) kept in step with their
 * partition directories (issue 16): after each write path gluecat performs, Glue lists exactly the
 * directories; DROP and RENAME carry them; batches are paged and name the catalog id; Spark-specific-form
 * tables get none. Partition calls are asserted on the requests gluecat sent (MiniStack does not page).
 */
class PartitionsIT extends MiniStackSparkTest {
  private static final String ACCOUNT = "123456789012";

  private SparkSession session;
  private String catalog;
  private String db;
  private String dbLocation;

  @BeforeEach
  void setUp() {
    session = spark();
    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    options.put("glue.id", ACCOUNT);
    catalog = newCatalog(options);
    dbLocation = newDirectory("db");
    db = newDatabase(dbLocation);
  }

  @AfterEach
  void tearDown() {
    session.conf().unset("spark.sql.sources.partitionOverwriteMode");
  }

  private String t(String table) {
    return catalog + "." + db + "." + table;
  }

  // ---- what Glue holds ----

  private static String location(Table entry) {
    return entry.storageDescriptor().location();
  }

  /** Glue's partition objects of the table against its directories (GluePartitionsInStep). */
  private void assertInStep(String table, String... expectedValues) {
    GluePartitionsInStep.assertInStep(GLUE, db, table, expectedValues);
  }

  /** The partition calls gluecat sent (the test's own Glue client is recorded too, and left out here). */
  private static List<GlueCall> partitionCalls() {
    return GlueCallRecorder.calls(c -> c.isGlue() && c.operation().contains("Partition") && sentByGluecat(c));
  }

  private static boolean sentByGluecat(GlueCall c) {
    return c.userAgent() != null && c.userAgent().contains("gluecat/");
  }

  /** Every partition call of the statement named this catalog's account and the table. */
  private static void assertCatalogIdOnPartitionCalls() {
    for (GlueCall c : partitionCalls()) {
      assertEquals(ACCOUNT, c.catalogId(), c.toString());
    }
  }

  private Dataset<Row> rows(long from, long to) {
    return session.range(from, to).selectExpr("id", "concat('p', id % 3) AS v");
  }

  // ---- write paths ----

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void createTableAsSelectAddsThePartitionsItWrote(String provider) {
    GlueCallRecorder.clear();
    run("CREATE TABLE " + t("ctas") + " USING " + provider + " PARTITIONED BY (v) AS "
        + "SELECT id, concat('p', id % 3) AS v FROM range(6)");
    assertInStep("ctas", "p0", "p1", "p2");
    // a new entry holds no partitions: none are read, one batch creates them
    assertEquals(List.of("BatchCreatePartition"), partitionCalls().stream().map(GlueCall::operation).collect(Collectors.toList()));
    assertCatalogIdOnPartitionCalls();
    assertEquals(6, run("SELECT * FROM " + t("ctas")).size());
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc"})
  void createOrReplaceAsSelectSwitchesThePartitionsToTheNewFiles(String provider) {
    run("CREATE TABLE " + t("cras") + " USING " + provider + " PARTITIONED BY (v) AS SELECT id, concat('p', id % 3) AS v FROM range(6)");
    String oldLocation = location(glueTable(db, "cras"));
    GlueCallRecorder.clear();
    run("CREATE OR REPLACE TABLE " + t("cras") + " USING " + provider + " PARTITIONED BY (v) AS "
        + "SELECT id, concat('q', id % 2) AS v FROM range(4)");
    assertNotEquals(oldLocation, location(glueTable(db, "cras")));
    assertInStep("cras", "q0", "q1");
    assertEquals(List.of("GetPartitions", "BatchDeletePartition", "BatchCreatePartition"),
        partitionCalls().stream().map(GlueCall::operation).collect(Collectors.toList()));
    assertCatalogIdOnPartitionCalls();
  }

  @Test
  void saveAsTableCreatesAppendsAndOverwrites() {
    rows(0, 4).write().format("parquet").partitionBy("v").saveAsTable(t("frames"));
    assertInStep("frames", "p0", "p1", "p2");
    session.range(10, 11).selectExpr("id", "'p9' AS v").write().mode("append").saveAsTable(t("frames"));
    assertInStep("frames", "p0", "p1", "p2", "p9");
    session.range(20, 22).selectExpr("id", "'r1' AS v").write().format("parquet").partitionBy("v").mode("overwrite")
        .saveAsTable(t("frames"));
    assertInStep("frames", "r1");
    assertCatalogIdOnPartitionCalls();
    assertEquals(List.of("[20,r1]", "[21,r1]"), run("SELECT * FROM " + t("frames") + " ORDER BY id").stream()
        .map(Row::toString).collect(Collectors.toList()));
  }

  @Test
  void insertIntoAddsAndStaticOverwriteRemoves() {
    run("CREATE TABLE " + t("slots") + " (id BIGINT, v STRING) USING parquet PARTITIONED BY (v)");
    assertInStep("slots");
    rows(0, 3).write().insertInto(t("slots"));
    assertInStep("slots", "p0", "p1", "p2");
    // static overwrite (Spark's default mode) replaces the whole table: the old partitions go
    session.range(7, 8).selectExpr("id", "'p1' AS v").write().mode("overwrite").insertInto(t("slots"));
    assertInStep("slots", "p1");
    session.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    rows(0, 3).write().insertInto(t("slots"));
    session.range(9, 10).selectExpr("id", "'p0' AS v").write().mode("overwrite").insertInto(t("slots"));
    assertInStep("slots", "p0", "p1", "p2");
    assertCatalogIdOnPartitionCalls();
  }

  @Test
  void dataFrameWriterV2CreateAndReplace() throws Exception {
    rows(0, 3).writeTo(t("v2")).using("parquet").partitionedBy(org.apache.spark.sql.functions.col("v"), noMoreColumns()).create();
    assertInStep("v2", "p0", "p1", "p2");
    session.range(5, 6).selectExpr("id", "'z' AS v").writeTo(t("v2")).using("parquet")
        .partitionedBy(org.apache.spark.sql.functions.col("v"), noMoreColumns()).createOrReplace();
    assertInStep("v2", "z");
  }

  /** The empty rest of a Scala varargs call (Spark 3.5's {@code partitionedBy} has no Java varargs form). */
  @SuppressWarnings("unchecked")
  private static scala.collection.immutable.Seq<org.apache.spark.sql.Column> noMoreColumns() {
    return (scala.collection.immutable.Seq<org.apache.spark.sql.Column>) (Object) scala.collection.immutable.Nil$.MODULE$;
  }

  @Test
  void alterTableSetLocationMovesThePartitions() {
    run("CREATE TABLE " + t("moved") + " USING parquet PARTITIONED BY (v) AS SELECT id, concat('p', id % 2) AS v FROM range(4)");
    String other = newDirectory("moved");
    run("CREATE TABLE " + t("elsewhere") + " USING parquet PARTITIONED BY (v) LOCATION '" + other + "' AS "
        + "SELECT id, 'x' AS v FROM range(2)");
    run("ALTER TABLE " + t("moved") + " SET LOCATION '" + other + "'");
    assertInStep("moved", "x");
  }

  // ---- writes gluecat does not see, and the sync on demand ----

  /** Files another job wrote into the table's directory, as {@code v=<value>} partitions (gluecat never sees it). */
  private void writtenByAnotherJob(String table, String... values) {
    String location = location(glueTable(db, table));
    for (String value : values) {
      session.range(1, 2).selectExpr("id").write().mode("append").parquet(location + "/v=" + value);
    }
  }

  @Test
  void writesGluecatDoesNotSeeNeedTheSyncOnDemand() throws Exception {
    run("CREATE TABLE " + t("sqlins") + " (id BIGINT, v STRING) USING parquet PARTITIONED BY (v)");
    GlueCallRecorder.clear();
    writtenByAnotherJob("sqlins", "a", "b");
    // another job wrote the files without telling the catalog: Glue has no partitions yet
    assertTrue(GluePartitionsInStep.partitions(GLUE, db, "sqlins").isEmpty());
    assertTrue(partitionCalls().isEmpty(), partitionCalls().toString());

    PartitionSync.Result result = PartitionSync.sync(catalog, db + ".sqlins");
    assertTrue(result.applicable());
    assertEquals(2, result.created());
    assertEquals(0, result.deleted());
    assertInStep("sqlins", "a", "b");
    // a second sync finds nothing to do: one read, no batch
    GlueCallRecorder.clear();
    assertEquals(0, PartitionSync.sync(catalog, db + ".sqlins").created());
    assertEquals(List.of("GetTable", "GetPartitions"), GlueCallRecorder.calls(c -> c.isGlue() && sentByGluecat(c)).stream()
        .map(GlueCall::operation).collect(Collectors.toList()));
  }

  /**
   * The repair statements run through gluecat's session extension in both catalog modes (Spark has no V2 form of
   * them): Glue gets the partitions another job wrote into the table's directory.
   */
  @Test
  void repairStatementsAddThePartitionsAnotherJobWroteInBothModes() {
    run("CREATE TABLE " + t("repair") + " (id BIGINT, v STRING) USING parquet PARTITIONED BY (v)");
    run("INSERT INTO " + t("repair") + " VALUES (1, 'a')");
    writtenByAnotherJob("repair", "b");
    run("MSCK REPAIR TABLE " + t("repair"));
    assertEquals(List.of("a", "b"), new ArrayList<>(GluePartitionsInStep.partitions(GLUE, db, "repair").keySet()));
    writtenByAnotherJob("repair", "c");
    run("ALTER TABLE " + t("repair") + " RECOVER PARTITIONS");
    assertEquals(List.of("a", "b", "c"), new ArrayList<>(GluePartitionsInStep.partitions(GLUE, db, "repair").keySet()));

    SparkSession sessionMode = newSessionModeSession();
    try {
      sessionMode.sql("CREATE TABLE " + db + ".srepair (id BIGINT, v STRING) USING parquet PARTITIONED BY (v)");
      sessionMode.sql("INSERT INTO " + db + ".srepair VALUES (1, 'a')");
      writtenByAnotherJob("srepair", "b");
      sessionMode.sql("MSCK REPAIR TABLE " + db + ".srepair").collectAsList();
      assertEquals(List.of("a", "b"), new ArrayList<>(GluePartitionsInStep.partitions(GLUE, db, "srepair").keySet()));
    } finally {
      SparkSession.setActiveSession(spark());
    }
  }

  @Test
  void syncOnDemandRefusesOtherCatalogsAndBadNames() {
    assertMessage(() -> PartitionSync.sync(catalog, "no_dot"), "<database>.<table>", catalog);
    assertMessage(() -> PartitionSync.sync("spark_catalog", db + ".t"), "is not a gluecat catalog");
  }

  @Test
  void onDemandModeMakesNoPartitionCallsInStatements() {
    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    options.put("partitions.sync", "on-demand");
    String quiet = newCatalog(options);
    GlueCallRecorder.clear();
    run("CREATE TABLE " + quiet + "." + db + ".quiet USING parquet PARTITIONED BY (v) AS SELECT id, concat('p', id % 2) AS v FROM range(4)");
    assertTrue(partitionCalls().isEmpty(), partitionCalls().toString());
    assertTrue(GluePartitionsInStep.partitions(GLUE, db, "quiet").isEmpty());
    try {
      assertEquals(2, PartitionSync.sync(quiet, db + ".quiet").created());
    } catch (Exception e) {
      throw new AssertionError(e);
    }
    assertInStep("quiet", "p0", "p1");
  }

  // ---- DROP and RENAME ----

  @Test
  void dropLeavesTheDataAndRemovesThePartitionsWithTheEntry() {
    run("CREATE TABLE " + t("dropped") + " USING parquet PARTITIONED BY (v) AS SELECT id, concat('p', id % 2) AS v FROM range(4)");
    String location = location(glueTable(db, "dropped"));
    assertEquals(2, GluePartitionsInStep.partitions(GLUE, db, "dropped").size());
    GlueCallRecorder.clear();
    run("DROP TABLE " + t("dropped"));
    // Glue deletes a table's partitions with it: DROP makes no partition call of its own
    assertTrue(partitionCalls().isEmpty(), partitionCalls().toString());
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "dropped"));
    assertThrows(EntityNotFoundException.class, () -> GluePartitionsInStep.partitions(GLUE, db, "dropped"), "no table, no partitions");
    assertEquals(List.of("v=p0", "v=p1"), GluePartitionsInStep.directories(location, 1));
  }

  @Test
  void renameCarriesThePartitions() {
    run("CREATE TABLE " + t("before") + " USING orc PARTITIONED BY (v) AS SELECT id, concat('p', id % 3) AS v FROM range(6)");
    Map<String, Partition> old = GluePartitionsInStep.partitions(GLUE, db, "before");
    GlueCallRecorder.clear();
    run("ALTER TABLE " + t("before") + " RENAME TO " + db + ".after");
    assertInStep("after", "p0", "p1", "p2");
    assertEquals(old.values().stream().map(p -> p.storageDescriptor().location()).collect(Collectors.toList()),
        GluePartitionsInStep.partitions(GLUE, db, "after").values().stream().map(p -> p.storageDescriptor().location()).collect(Collectors.toList()));
    assertThrows(EntityNotFoundException.class, () -> GluePartitionsInStep.partitions(GLUE, db, "before"), "no table, no partitions");
    assertEquals(List.of("GetPartitions", "BatchCreatePartition"),
        partitionCalls().stream().map(GlueCall::operation).collect(Collectors.toList()));
    assertEquals("after", partitionCalls().get(1).tableName());
    assertCatalogIdOnPartitionCalls();
    assertEquals(6, run("SELECT * FROM " + t("after")).size());
  }

  // ---- paging ----

  @Test
  void aThousandPartitionsTakeTenBatchesAndDeletesGoTwentyFiveAtATime() throws Exception {
    // seeded on disk: partition directories need no Spark job to be listed
    String location = newDirectory("many");
    Path root = Paths.get(URI.create("file://" + location.substring("file:".length())));
    for (int i = 0; i < 1000; i++) {
      Files.createDirectories(root.resolve("v=" + i));
    }
    GlueCallRecorder.clear();
    run("CREATE TABLE " + t("many") + " (id BIGINT, v INT) USING parquet PARTITIONED BY (v) LOCATION '" + location + "'");
    List<GlueCall> creates = partitionCalls().stream().filter(c -> c.operation().equals("BatchCreatePartition"))
        .collect(Collectors.toList());
    assertEquals(10, creates.size()); // ceil(1000 / 100)
    assertEquals(1000, GluePartitionsInStep.partitions(GLUE, db, "many").size());
    assertCatalogIdOnPartitionCalls();

    for (int i = 0; i < 60; i++) {
      Files.delete(root.resolve("v=" + i));
    }
    GlueCallRecorder.clear();
    PartitionSync.Result result;
    try (AutoCloseable paged = GlueSemantics.pageListings(400)) { // as AWS Glue pages GetPartitions
      result = PartitionSync.sync(catalog, db + ".many");
    }
    assertEquals(60, result.deleted());
    assertEquals(0, result.created());
    // every page of the listing read (3 of up to 400), then ceil(60 / 25) deletes
    assertEquals(List.of("GetPartitions", "GetPartitions", "GetPartitions", "BatchDeletePartition",
        "BatchDeletePartition", "BatchDeletePartition"),
        partitionCalls().stream().map(GlueCall::operation).collect(Collectors.toList()));
    assertCatalogIdOnPartitionCalls();
    assertEquals(940, GluePartitionsInStep.partitions(GLUE, db, "many").size());
  }

  // ---- tables that get no partitions ----

  @ParameterizedTest
  @ValueSource(strings = {"csv", "json"})
  void sparkSpecificFormTablesGetNoPartitions(String provider) throws Exception {
    GlueCallRecorder.clear();
    run("CREATE TABLE " + t("plain_" + provider) + " USING " + provider + " PARTITIONED BY (v) AS "
        + "SELECT id, concat('p', id % 2) AS v FROM range(4)");
    rows(0, 2).write().insertInto(t("plain_" + provider));
    assertTrue(partitionCalls().isEmpty(), partitionCalls().toString());
    assertTrue(GluePartitionsInStep.partitions(GLUE, db, "plain_" + provider).isEmpty());
    PartitionSync.Result result = PartitionSync.sync(catalog, db + ".plain_" + provider);
    assertFalse(result.applicable());
    assertTrue(result.reason().contains("Spark's own form"), result.reason());
  }

  @Test
  void tablesWithTypesHiveCannotHoldAndUnpartitionedTablesGetNoPartitions() {
    GlueCallRecorder.clear();
    run("CREATE TABLE " + t("ntz") + " USING parquet PARTITIONED BY (v) AS "
        + "SELECT id, TIMESTAMP_NTZ'2024-01-01 00:00:00' AS at, concat('p', id % 2) AS v FROM range(2)");
    run("CREATE TABLE " + t("flat") + " USING parquet AS SELECT id FROM range(2)");
    rows(0, 2).selectExpr("id").write().insertInto(t("flat"));
    assertTrue(partitionCalls().isEmpty(), partitionCalls().toString());
    assertTrue(GluePartitionsInStep.partitions(GLUE, db, "ntz").isEmpty());
  }

  // ---- failures after the data commit ----

  @Test
  void aFailedSyncAfterTheWriteKeepsDataAndEntryAndSaysHowToRecover() throws Exception {
    try (Fault.Handle h = GlueFaults.inject(Fault.glue("BatchCreatePartition").always().accessDenied().build())) {
      assertMessage(() -> run("CREATE TABLE " + t("late") + " USING parquet PARTITIONED BY (v) AS "
          + "SELECT id, concat('p', id % 2) AS v FROM range(4)"),
          catalog + "." + db + ".late", "syncing its Glue partition objects failed", "PartitionSync.sync(\"" + catalog
          + "\", \"" + db + ".late\")", "repair --partitions");
    }
    assertEquals(4, run("SELECT * FROM " + t("late")).size());
    assertTrue(GluePartitionsInStep.partitions(GLUE, db, "late").isEmpty());
    assertEquals(2, PartitionSync.sync(catalog, db + ".late").created());
    assertInStep("late", "p0", "p1");
  }

  @Test
  void syncDeletesStalePartitionsAndRecreatesMovedOnes() throws Exception {
    run("CREATE TABLE " + t("stale") + " (id BIGINT, v STRING) USING parquet PARTITIONED BY (v)");
    writtenByAnotherJob("stale", "a", "b");
    // as another tool left them: 'a' at a wrong location, 'gone' without a directory
    Table entry = glueTable(db, "stale");
    GLUE.batchCreatePartition(r -> r.databaseName(db).tableName("stale").partitionInputList(
        p -> p.values("a").storageDescriptor(entry.storageDescriptor().toBuilder().location("file:/elsewhere/v=a").build()),
        p -> p.values("gone").storageDescriptor(entry.storageDescriptor().toBuilder().location(location(entry) + "/v=gone").build())));
    PartitionSync.Result result = PartitionSync.sync(catalog, db + ".stale");
    assertEquals(2, result.deleted());
    assertEquals(2, result.created());
    assertInStep("stale", "a", "b");
  }
}
