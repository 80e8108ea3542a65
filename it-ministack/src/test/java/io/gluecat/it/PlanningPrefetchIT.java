package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.GlueRendezvous;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * With gluecat's session extension, the entries of the tables a statement reads are fetched from Glue together
 * before Spark resolves them (docs/performance.md, "Planning many tables"): the same GetTable calls as one by
 * one, in flight at once. Two catalogs on the same Glue tables: one reads 4 entries at a time, the other has
 * the prefetch off ({@code planning.prefetch-threads=1}), which behaves as a session without the extension.
 * Spark 4.x reads them from an analyzer rule, Spark 3.5 when the parsed statement starts reading Glue.
 */
class PlanningPrefetchIT extends MiniStackSparkTest {
  private static final int TABLES = 12;
  private static final int THREADS = 4;
  private static final StructType SCHEMA = new StructType().add("id", DataTypes.LongType);

  private static String on;
  private static String off;
  private static String db;

  @BeforeAll
  static void tables() {
    Map<String, String> options = ministackOptions();
    options.put("planning.prefetch-threads", String.valueOf(THREADS));
    on = newCatalog(options);
    Map<String, String> sequential = ministackOptions();
    sequential.put("planning.prefetch-threads", "1");
    off = newCatalog(sequential);
    db = newDatabase(newDirectory("prefetch"));
    for (int i = 0; i < TABLES; i++) {
      putEntry(db, "t" + i, "parquet", SCHEMA, List.of(), newDirectory("t" + i), Map.of());
    }
    sql("SHOW TABLES IN " + on + "." + db); // both catalogs initialised
    sql("SHOW TABLES IN " + off + "." + db);
  }

  private static String join(String catalog, int tables) {
    return "SELECT count(*) FROM " + IntStream.range(0, tables)
        .mapToObj(i -> catalog + "." + db + ".t" + i + " t" + i + (i == 0 ? "" : " ON t0.id = t" + i + ".id"))
        .collect(Collectors.joining(" JOIN "));
  }

  /** The Glue calls of planning {@code statement} (running it reads files only), by operation. */
  private static Map<String, Integer> calls(String statement) {
    GlueCallRecorder.clear();
    plan(statement);
    return counts(GlueCallRecorder.calls());
  }

  private static void plan(String statement) {
    spark().sql(statement).queryExecution().executedPlan();
  }

  private static Map<String, Integer> counts(List<GlueCall> calls) {
    Map<String, Integer> counts = new TreeMap<>();
    calls.forEach(call -> counts.merge(call.operation(), 1, Integer::sum));
    return counts;
  }

  /** The message without what differs between two catalogs' calls: the catalog name and the request id. */
  private static String message(Exception e, String catalog) {
    return e.getMessage().replace(catalog, "<catalog>").replaceAll("request id [\\w-]+", "request id <id>");
  }

  private static List<String> tablesRead() {
    return GlueCallRecorder.callsOf("GetTable").stream().map(GlueCall::tableName).sorted().toList();
  }

  @Test
  void aTwelveTableJoinReadsEachEntryOnceWithTheReadsInFlightTogether() {
    try (GlueRendezvous.Meeting meeting = GlueRendezvous.meet("GetTable", THREADS, 60_000)) {
      assertEquals(Map.of("GetTable", TABLES), calls(join(on, TABLES)));
      assertTrue(meeting.met(), "4 GetTable calls were never in flight at the same time");
      assertTrue(meeting.mostHeld() <= THREADS, "more reads at once than planning.prefetch-threads: "
          + meeting.mostHeld());
    }
    assertEquals(IntStream.range(0, TABLES).mapToObj(i -> "t" + i).sorted().toList(), tablesRead());
  }

  @Test
  void explainReadsTheTablesOfItsSubqueriesTogether() {
    String t = on + "." + db + ".t";
    try (GlueRendezvous.Meeting meeting = GlueRendezvous.meet("GetTable", 3, 60_000)) {
      GlueCallRecorder.clear();
      spark().sql("EXPLAIN SELECT count(*) FROM " + t + "0 WHERE id IN (SELECT id FROM " + t + "1) AND EXISTS "
          + "(SELECT 1 FROM " + t + "2 WHERE " + t + "2.id = " + t + "0.id)").collectAsList();
      assertEquals(Map.of("GetTable", 3), counts(GlueCallRecorder.calls()));
      assertTrue(meeting.met(), "the 3 GetTable calls were never in flight at the same time");
    }
  }

  @Test
  void inSessionModeTwoPartNamesAreReadTogether() {
    org.apache.spark.sql.SparkSession sessionMode = newSessionModeSession();
    try {
      sessionMode.sql("SHOW TABLES IN " + db).collectAsList(); // the session's catalog initialised
      try (GlueRendezvous.Meeting meeting = GlueRendezvous.meet("GetTable", 3, 60_000)) {
        GlueCallRecorder.clear();
        sessionMode.sql("SELECT count(*) FROM " + db + ".t0 JOIN " + db + ".t1 ON t0.id = t1.id JOIN " + db
            + ".t2 ON t0.id = t2.id").queryExecution().executedPlan();
        assertEquals(Map.of("GetTable", 3), counts(GlueCallRecorder.calls()));
        assertTrue(meeting.met(), "the 3 GetTable calls were never in flight at the same time");
      }
    } finally {
      org.apache.spark.sql.SparkSession.setActiveSession(spark());
    }
  }

  @Test
  void withThePrefetchOffTheSameCallsAreMadeOneAfterAnother() {
    try (GlueRendezvous.Meeting meeting = GlueRendezvous.meet("GetTable", 2, 1_000)) {
      assertEquals(Map.of("GetTable", TABLES), calls(join(off, TABLES)));
      assertFalse(meeting.met(), "two GetTable calls were in flight together with the prefetch off");
    }
  }

  @Test
  void cteAndTemporaryViewNamesAreNotReadFromGlue() {
    String view = unique("tv");
    spark().sql("CREATE TEMPORARY VIEW " + view + " AS SELECT 1L AS id");
    // t5 names a CTE, and the view's name is unqualified: both resolve to the current catalog, a gluecat one
    spark().sql("USE " + on + "." + db);
    try {
      String query = "WITH t5 AS (SELECT id FROM t1) SELECT count(*) FROM t5 JOIN t2 ON t5.id = t2.id JOIN " + view
          + " v ON v.id = t2.id JOIN t3 ON t3.id = t2.id";
      assertEquals(Map.of("GetTable", 3), calls(query));
      assertEquals(List.of("t1", "t2", "t3"), tablesRead());
    } finally {
      spark().sql("USE spark_catalog.default");
      spark().sql("DROP VIEW " + view);
    }
  }

  @Test
  void aMissingTableFailsAsWithoutThePrefetch() {
    String on3 = join(on, 3) + " JOIN " + on + "." + db + ".missing m ON m.id = t0.id";
    String off3 = join(off, 3) + " JOIN " + off + "." + db + ".missing m ON m.id = t0.id";
    GlueCallRecorder.clear();
    Exception withPrefetch = assertThrows(Exception.class, () -> plan(on3));
    Map<String, Integer> onCalls = counts(GlueCallRecorder.calls());
    GlueCallRecorder.clear();
    Exception without = assertThrows(Exception.class, () -> plan(off3));
    assertEquals(counts(GlueCallRecorder.calls()), onCalls);
    assertEquals(Map.of("GetTable", 4), onCalls);
    assertEquals(without.getClass(), withPrefetch.getClass());
    assertTrue(withPrefetch.getMessage().contains("TABLE_OR_VIEW_NOT_FOUND"), withPrefetch.getMessage());
    assertTrue(withPrefetch.getMessage().contains("missing"), withPrefetch.getMessage());
  }

  @Test
  void aFailedReadIsReportedByTheTablesLoadAsWithoutThePrefetch() {
    Exception withPrefetch;
    Exception without;
    Map<String, Integer> onCalls;
    try (Fault.Handle denied = GlueFaults.inject(Fault.glue("GetTable").always()
        .when(call -> "t2".equals(call.tableName())).accessDenied().build())) {
      GlueCallRecorder.clear();
      withPrefetch = assertThrows(Exception.class, () -> plan(join(on, 4)));
      onCalls = counts(GlueCallRecorder.calls());
      GlueCallRecorder.clear();
      without = assertThrows(Exception.class, () -> plan(join(off, 4)));
      // one by one, Spark stops at t2 and never reads t3; the prefetch has read every table once by then
      assertEquals(Map.of("GetTable", 3), counts(GlueCallRecorder.calls()));
    }
    assertEquals(Map.of("GetTable", 4), onCalls);
    assertEquals(without.getClass(), withPrefetch.getClass());
    assertEquals(message(without, off), message(withPrefetch, on));
    assertTrue(withPrefetch.getMessage().contains("t2"), withPrefetch.getMessage());
  }

  @Test
  void aStatementParsedButNeverRunLeavesNoReadsToTheNextStatement() throws Exception {
    spark().sessionState().sqlParser().parsePlan(join(on, 3));
    assertEquals(List.of(), GlueCallRecorder.calls());
    // the next statement is not parsed (a DataFrame): it reads its own table only
    spark().table(on + "." + db + ".t5").queryExecution().analyzed();
    assertEquals(List.of("t5"), tablesRead());
    assertEquals(Map.of("GetTable", 1), counts(GlueCallRecorder.calls()));
  }

  @Test
  void entriesReadTogetherServeTheirStatementOnly() {
    String fresh = unique("fresh");
    putEntry(db, fresh, "parquet", SCHEMA, List.of(), newDirectory(fresh), Map.of());
    String name = on + "." + db + "." + fresh;
    plan("SELECT count(*) FROM " + name + " f JOIN " + on + "." + db + ".t0 ON f.id = t0.id");
    // another engine moves the table after that statement
    String moved = newDirectory(fresh + "_moved");
    GLUE.deleteTable(r -> r.databaseName(db).name(fresh));
    putEntry(db, fresh, "parquet", SCHEMA, List.of(), moved, Map.of());
    GlueCallRecorder.clear();
    String location = spark().sql("DESCRIBE TABLE EXTENDED " + name).collectAsList().stream()
        .filter(row -> "Location".equals(row.getString(0))).map(row -> row.getString(1)).findFirst().orElseThrow();
    assertEquals(moved, location);
    assertEquals(Map.of("GetTable", 1), counts(GlueCallRecorder.calls()));
  }
}
