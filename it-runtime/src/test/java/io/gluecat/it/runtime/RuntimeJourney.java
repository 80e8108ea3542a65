package io.gluecat.it.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.it.spark.LogCapture;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.util.VersionInfo;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * The runtime journey: what a user of an AWS runtime does first with gluecat, run on that runtime's own Spark
 * and Delta from Maven Central (matrix.yaml, a row's {@code runtimes:}; one module per pair under it-runtime/)
 * with the row's gluecat artifact as built. Each step is a cell of the compatibility report's runtime table
 * and checks its rows and the Glue entry. The steps share one catalog and one Glue database, in the order
 * below; where a step fails inside Delta on the pair (the pair's {@code limits}), the step asserts that failure
 * and that gluecat named it when the catalog started, and is recorded as a known limit. The tables live in a
 * local directory ({@code file:}), not on MiniStack's S3: S3A is the row's hadoop-aws on every pair of the row,
 * which the row's own suites run on S3, and here it would only add its start and its requests to each step.
 * {@link RuntimeJourneyIT} runs it in named mode, {@link SessionModeRuntimeJourneyIT} in session mode, in one
 * JVM: one SparkContext and one MiniStack for both.
 */
@ExtendWith(CompatResults.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class RuntimeJourney extends CatalogModeTest implements CompatResults.RuntimePairAware {
  static final RuntimePair PAIR = RuntimePair.fromMatrix();

  private final List<String> logged = new ArrayList<>();
  private boolean started;

  @Override
  public String runtimePair() {
    return PAIR.id();
  }

  @Override
  public String limitOf(String caseId) {
    return PAIR.limitOf(caseId);
  }

  /** Whether this pair's known break is in step {@code caseId}. */
  private boolean limitIn(String caseId) {
    return !limitOf(caseId).isEmpty();
  }

  /** One catalog and database for all the steps: set up before the first only; later ones get its session back. */
  @BeforeEach
  @Override
  protected void setUpCatalogMode() {
    if (!started) {
      started = true;
      super.setUpCatalogMode();
    } else if (sessionMode()) {
      SparkSession.setActiveSession(session);
    }
  }

  @Test
  @Order(1)
  @CompatCase(id = "runtime-01-start", writer = "gluecat", reader = "gluecat",
      title = "The catalog starts on the pair's Spark and Delta (the row's Hadoop); it warns of the pair's known break")
  void start() throws Exception {
    assertEquals(PAIR.spark(), spark().version(), "Spark");
    assertEquals(PAIR.delta(), org.apache.spark.sql.delta.catalog.DeltaCatalog.class.getPackage()
        .getImplementationVersion(), "Delta");
    assertEquals(PAIR.rowHadoop(), VersionInfo.getVersion(), "Hadoop");
    try (LogCapture capture = LogCapture.start(logged)) {
      assertTrue(rows(sessionMode() ? "SHOW DATABASES" : "SHOW NAMESPACES IN " + catalog).contains("[" + db + "]"));
    }
    String warning = "gluecat catalog '" + catalog + "': Delta Lake " + PAIR.delta() + " on Spark " + PAIR.spark();
    assertEquals(!PAIR.limits().isEmpty(), logged.stream().anyMatch(l -> l.contains(warning)),
        "a warning naming both versions iff the pair has a known break: " + logged);
  }

  /** The start-up warnings, which name the pair's versions, what fails and the fix. */
  private String startWarning() {
    return String.join("\n", logged.stream().filter(l -> l.contains("gluecat catalog '" + catalog + "': Delta Lake"))
        .toList());
  }

  @Test
  @Order(2)
  @CompatCase(id = "runtime-02-delta-create", writer = "gluecat", reader = "gluecat",
      title = "CREATE TABLE ... USING delta: a Delta entry in Glue")
  void deltaCreate() {
    run("CREATE TABLE " + t("orders") + " (id INT, name STRING) USING delta");
    Table entry = glueTable(db, "orders");
    assertEquals("DELTA", entry.parameters().get("table_type"));
    assertEquals(List.of("id", "name"), columns(entry));
    assertEquals(List.of(), rows("SELECT * FROM " + t("orders")));
  }

  @Test
  @Order(3)
  @CompatCase(id = "runtime-03-delta-insert", writer = "gluecat", reader = "gluecat", title = "INSERT INTO a Delta table")
  void deltaInsert() {
    run("INSERT INTO " + t("orders") + " VALUES (1, 'a'), (2, 'b')");
    assertEquals(List.of("[1,a]", "[2,b]"), rows("SELECT * FROM " + t("orders") + " ORDER BY id"));
  }

  @Test
  @Order(4)
  @CompatCase(id = "runtime-04-delta-ctas", writer = "gluecat", reader = "gluecat",
      title = "CREATE TABLE ... USING delta AS SELECT")
  void deltaCtas() {
    run("CREATE TABLE " + t("agg") + " USING delta AS SELECT id, name FROM " + t("orders") + " WHERE id > 1");
    assertEquals(List.of("[2,b]"), rows("SELECT * FROM " + t("agg")));
    Table entry = glueTable(db, "agg");
    assertEquals("DELTA", entry.parameters().get("table_type"));
    assertEquals(List.of("id", "name"), columns(entry));
  }

  @Test
  @Order(5)
  @CompatCase(id = "runtime-05-delta-rtas", writer = "gluecat", reader = "gluecat",
      title = "CREATE OR REPLACE TABLE ... USING delta AS SELECT")
  void deltaRtas() {
    String rtas = "CREATE OR REPLACE TABLE " + t("agg") + " USING delta AS SELECT id * 10 AS id, name, true AS big FROM "
        + t("orders");
    if (limitIn("runtime-05-delta-rtas")) {
      Throwable e = assertThrows(Throwable.class, () -> run(rtas));
      assertTrue(messages(e).contains("does not support truncate in batch mode"), messages(e));
      assertTrue(startWarning().contains("cannot run CREATE OR REPLACE TABLE") && startWarning().contains(
          "Use Delta 3.3.3"), "the catalog named this break when it started: " + startWarning());
      assertEquals(List.of("[2,b]"), rows("SELECT * FROM " + t("agg")), "the table is as it was");
      assertEquals(List.of("id", "name"), columns(glueTable(db, "agg")));
      return;
    }
    run(rtas);
    assertEquals(List.of("[10,a,true]", "[20,b,true]"), rows("SELECT * FROM " + t("agg") + " ORDER BY id"));
    assertEquals(List.of("id", "name", "big"), columns(glueTable(db, "agg")));
  }

  @Test
  @Order(6)
  @CompatCase(id = "runtime-06-delta-merge", writer = "gluecat", reader = "gluecat", title = "MERGE INTO a Delta table")
  void deltaMerge() {
    run("MERGE INTO " + t("orders") + " o USING (SELECT 2 AS id, 'B' AS name UNION ALL SELECT 3, 'c') s "
        + "ON o.id = s.id WHEN MATCHED THEN UPDATE SET name = s.name WHEN NOT MATCHED THEN INSERT *");
    assertEquals(List.of("[1,a]", "[2,B]", "[3,c]"), rows("SELECT * FROM " + t("orders") + " ORDER BY id"));
  }

  @Test
  @Order(7)
  @CompatCase(id = "runtime-07-delta-alter-add-columns", writer = "gluecat", reader = "gluecat",
      title = "ALTER TABLE ... ADD COLUMNS on a Delta table; the Glue columns follow")
  void deltaAlterAddColumns() {
    String alter = "ALTER TABLE " + t("orders") + " ADD COLUMNS (score DOUBLE)";
    if (limitIn("runtime-07-delta-alter-add-columns")) {
      Throwable e = assertThrows(Throwable.class, () -> run(alter));
      assertFalse(e instanceof LinkageError, "not a bare linkage error: " + e);
      String expected = "Delta Lake " + PAIR.delta() + " on Spark " + PAIR.spark() + " cannot run ALTER TABLE";
      assertTrue(messages(e).contains(expected) && messages(e).contains("Use Delta 4.4.0"), messages(e));
      assertTrue(messages(e).contains("IgnoreCachedData"), messages(e));
      assertTrue(startWarning().contains(expected), "the catalog named this break when it started: " + startWarning());
      assertEquals(List.of("id", "name"), columns(glueTable(db, "orders")), "Glue's columns as they were");
      return;
    }
    run(alter);
    assertEquals(List.of("id", "name", "score"), columns(glueTable(db, "orders")));
    assertEquals(List.of("[1,a,null]"), rows("SELECT * FROM " + t("orders") + " WHERE id = 1"));
  }

  @Test
  @Order(8)
  @CompatCase(id = "runtime-08-delta-time-travel", writer = "gluecat", reader = "gluecat",
      title = "Time travel: SELECT ... VERSION AS OF")
  void deltaTimeTravel() {
    assertEquals(List.of("[1,a]", "[2,b]"), rows("SELECT id, name FROM " + t("orders") + " VERSION AS OF 1 ORDER BY id"));
  }

  @Test
  @Order(9)
  @CompatCase(id = "runtime-09-delta-generated-identity", writer = "gluecat", reader = "gluecat",
      title = "Generated and identity columns of a Delta table")
  void deltaGeneratedAndIdentityColumns() {
    if (limitIn("runtime-09-delta-generated-identity")) {
      Throwable e = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t("gen") + " (x INT, "
          + "y INT GENERATED ALWAYS AS (x * 2)) USING delta"));
      assertTrue(messages(e).contains("does not support generated columns"), messages(e));
      assertTrue(startWarning().contains("Delta Lake " + PAIR.delta() + " on Spark " + PAIR.spark()
          + " cannot create Delta tables with generated or identity columns"), "named at start: " + startWarning());
      assertFalse(GLUE.getTables(r -> r.databaseName(db)).tableList().stream().anyMatch(x -> x.name().equals("gen")));
      return;
    }
    if (spark().version().startsWith("3.")) {
      createGeneratedWithDeltasBuilder();
    } else {
      run("CREATE TABLE " + t("gen") + " (id BIGINT GENERATED ALWAYS AS IDENTITY, x INT, "
          + "y INT GENERATED ALWAYS AS (x * 2)) USING delta");
    }
    run("INSERT INTO " + t("gen") + " (x) VALUES (1), (2)");
    assertEquals(List.of("[1,2]", "[2,4]"), rows("SELECT x, y FROM " + t("gen") + " ORDER BY x"));
    assertEquals(List.of("[2]"), rows("SELECT count(DISTINCT id) FROM " + t("gen")));
    assertEquals(List.of("id", "x", "y"), columns(glueTable(db, "gen")));
  }

  /**
   * Table gen of step 9 as the 3.5 line makes such columns (docs/how-it-works.md): with Delta's builder, as
   * Spark 3.5's SQL has no IDENTITY and Delta 3.3's catalog refuses generated columns in SQL. The builder takes
   * its name as db.table, so named mode makes the catalog current first; it then reads the table back through
   * Spark's built-in catalog, which does not hold gluecat's tables (as in DeltaParityIT): the create has happened.
   */
  private void createGeneratedWithDeltasBuilder() {
    if (!sessionMode()) {
      run("USE " + catalog + "." + db);
    }
    try {
      io.delta.tables.DeltaTable.create(session).tableName(db + ".gen")
          .addColumn(io.delta.tables.DeltaTable.columnBuilder(session, "id").dataType("BIGINT")
              .generatedAlwaysAsIdentity().build())
          .addColumn("x", "INT")
          .addColumn(io.delta.tables.DeltaTable.columnBuilder(session, "y").dataType("INT")
              .generatedAlwaysAs("x * 2").build())
          .execute();
    } catch (Exception e) {
      assertTrue(messages(e).contains("DELTA_MISSING_DELTA_TABLE"), messages(e));
    } finally {
      if (!sessionMode()) {
        run("USE spark_catalog.default");
      }
    }
  }

  @Test
  @Order(10)
  @CompatCase(id = "runtime-10-parquet-partitioned", writer = "gluecat", reader = "gluecat",
      title = "A partitioned parquet table: its rows and its Glue partitions")
  void parquetPartitioned() {
    run("CREATE TABLE " + t("events") + " (v INT, d STRING) USING parquet PARTITIONED BY (d)");
    run("INSERT INTO " + t("events") + " VALUES (1, 'x'), (2, 'y')");
    assertEquals(List.of("[1,x]", "[2,y]"), rows("SELECT * FROM " + t("events") + " ORDER BY v"));
    assertEquals(List.of("[x]", "[y]"), GLUE.getPartitions(r -> r.databaseName(db).tableName("events")).partitions()
        .stream().map(p -> p.values().toString()).sorted().toList());
  }

  @Test
  @Order(11)
  @CompatCase(id = "runtime-11-hive-format-read", writer = "athena", reader = "gluecat",
      title = "A Hive-format parquet entry (Athena's shape) read with a partition filter, pruned in Glue")
  void hiveFormatRead() {
    String location = dbLocation + "/crawled";
    session().sql("SELECT * FROM VALUES (1), (2) AS v(id)").write().parquet(location + "/region=eu");
    session().sql("SELECT * FROM VALUES (3) AS v(id)").write().parquet(location + "/region=us");
    Map<String, String> serde = Map.of("serialization.format", "1");
    GLUE.createTable(r -> r.databaseName(db).tableInput(ti -> ti.name("crawled").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("classification", "parquet", "EXTERNAL", "TRUE"))
        .partitionKeys(Column.builder().name("region").type("string").build())
        .storageDescriptor(sd -> sd.location(location).columns(Column.builder().name("id").type("int").build())
            .inputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat")
            .outputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat")
            .serdeInfo(s -> s.serializationLibrary("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe")
                .parameters(serde)))));
    for (String region : List.of("eu", "us")) {
      GLUE.createPartition(r -> r.databaseName(db).tableName("crawled").partitionInput(p -> p.values(region)
          .storageDescriptor(sd -> sd.location(location + "/region=" + region)
              .columns(Column.builder().name("id").type("int").build())
              .inputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat")
              .outputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat")
              .serdeInfo(s -> s.serializationLibrary("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe")
                  .parameters(serde)))));
    }
    GlueCallRecorder.clear();
    assertEquals(List.of("[3,us]"), rows("SELECT id, region FROM " + t("crawled") + " WHERE region = 'us'"));
    assertTrue(GlueCallRecorder.callsOf("GetPartitions").stream()
        .allMatch(c -> c.expression() != null && c.expression().contains("region")),
        "Glue lists only the filter's partitions: " + GlueCallRecorder.callsOf("GetPartitions"));
    assertFalse(GlueCallRecorder.callsOf("GetPartitions").isEmpty());
  }

  @Test
  @Order(12)
  @CompatCase(id = "runtime-12-view", writer = "gluecat", reader = "gluecat", title = "CREATE VIEW and a read of it")
  void view() {
    run("CREATE VIEW " + t("recent") + " AS SELECT id, name FROM " + t("orders") + " WHERE id >= 2");
    assertEquals("VIRTUAL_VIEW", glueTable(db, "recent").tableType());
    assertEquals(List.of("[2,B]", "[3,c]"), rows("SELECT * FROM " + t("recent") + " ORDER BY id"));
  }

  /**
   * REORG TABLE (and TRUNCATE TABLE) of a Delta table, after the report's steps and not one of them: REORG works,
   * or, on a pair where Delta fails it with a linkage error (Delta before 4.3.0 on Spark 4.1.2 and later, AWS Glue
   * 6.1; Delta 4.0.0 on Spark 4.0.1 and later, Amazon EMR 8.0 as Maven Central serves it), gluecat refuses it with
   * a message naming both versions and the fix, never a bare linkage error, and the rows stay.
   */
  @Test
  @Order(13)
  void reorgOfADeltaTable() {
    run("CREATE TABLE " + t("maint") + " (id INT, name STRING) USING delta");
    run("INSERT INTO " + t("maint") + " VALUES (1, 'a'), (2, 'b')");
    String reorg = "REORG TABLE " + t("maint") + " APPLY (PURGE)";
    if (!sessionMode() && (PAIR.delta().startsWith("3.") || PAIR.delta().startsWith("4.0."))) {
      // A known limit (docs/how-it-works.md): Delta 3.3 and 4.0 look REORG's table up in the session catalog only
      Throwable e = assertThrows(Throwable.class, () -> run(reorg));
      assertTrue(e.getMessage().contains("TABLE_OR_VIEW_NOT_FOUND"), e::toString);
    } else if (reorgFix() != null) {
      Throwable e = assertThrows(Throwable.class, () -> run(reorg));
      String messages = messages(e);
      assertFalse(e instanceof LinkageError, () -> "not a bare linkage error: " + messages);
      assertTrue(messages.contains("Delta Lake " + PAIR.delta() + " on Spark " + PAIR.spark() + " cannot run")
          && messages.contains(reorgFix()), messages);
    } else {
      run(reorg);
    }
    assertEquals(List.of("[1,a]", "[2,b]"), rows("SELECT * FROM " + t("maint") + " ORDER BY id"));
    // Delta's tables take no TRUNCATE on any pair (Spark: "Table does not support truncates"), as with Delta's own
    // catalog: Spark's refusal, not a linkage error, and nothing removed
    Throwable truncate = null;
    try {
      run("TRUNCATE TABLE " + t("maint"));
    } catch (Throwable e) { // AnalysisException is checked to Java, undeclared by Scala
      truncate = e;
    }
    if (truncate != null) {
      assertFalse(truncate instanceof LinkageError, truncate::toString);
      assertEquals(List.of("[1,a]", "[2,b]"), rows("SELECT * FROM " + t("maint") + " ORDER BY id"));
    }
  }

  /** The fix gluecat's refusal of REORG names on a pair where Delta fails it (DeltaSupport); null where it runs. */
  private String reorgFix() {
    if (limitIn("runtime-07-delta-alter-add-columns")) { // the IgnoreCachedData break: ALTER's step has it too
      return "Use Delta 4.4.0";
    }
    boolean purgeBreak = PAIR.delta().equals("4.0.0") && PAIR.spark().startsWith("4.0.") && !PAIR.spark().equals("4.0.0");
    return purgeBreak ? "Use Delta 4.0.1" : null;
  }

  private static List<String> columns(Table entry) {
    return entry.storageDescriptor().columns().stream().map(Column::name).toList();
  }

  /** Every message of an error and its causes, one a line. */
  static String messages(Throwable e) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      all.append(t).append('\n');
    }
    return all.toString();
  }
}
