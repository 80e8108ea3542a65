package io.gluecat.it;

import io.gluecat.it.spark.LogCapture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.codahale.metrics.Counting;
import com.codahale.metrics.Metric;
import com.codahale.metrics.MetricRegistry;
import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.SparkEnv;
import org.apache.spark.metrics.MetricsSystem;
import org.apache.spark.metrics.source.Source;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The catalog's metrics source (docs/operations.md, "Metrics"), read through Spark's metrics system, counts
 * exactly the Glue and STS calls the test kit's recorder saw: calls, retries, throttled attempts and failures
 * by error code, per operation; and with {@code log.statement-calls} each statement logs one line with the same
 * counts. Times are never asserted.
 */
class MetricsIT extends MiniStackSparkTest {
  private static final String ROLE = "arn:aws:iam::000000000000:role/gluecat-metrics";

  private static String c;
  private static String db;

  @BeforeAll
  static void catalog() {
    Map<String, String> options = ministackOptions();
    options.put("role.arn", ROLE);
    options.put("log.statement-calls", "true");
    c = newCatalog(options);
    db = newDatabase(newDirectory("metrics"));
  }

  private static String t(String table) {
    return c + "." + db + "." + table;
  }

  /** The catalog's source, as Spark's metrics system holds it: exactly one under {@code gluecat.<catalog>}. */
  private static MetricRegistry registry() {
    MetricsSystem system = SparkEnv.get().metricsSystem();
    scala.collection.Seq<Source> sources = system.getSourcesByName("gluecat." + c);
    assertEquals(1, sources.size(), "one source named gluecat." + c);
    return sources.head().metricRegistry();
  }

  /** Every counting metric of the source (counters and the latency timers' counts), by name. */
  private static Map<String, Long> snapshot() {
    Map<String, Long> counts = new TreeMap<>();
    for (Map.Entry<String, Metric> e : registry().getMetrics().entrySet()) {
      if (e.getValue() instanceof Counting) {
        counts.put(e.getKey(), ((Counting) e.getValue()).getCount());
      }
    }
    return counts;
  }

  /** What changed between two snapshots, zeros left out. */
  private static Map<String, Long> delta(Map<String, Long> before, Map<String, Long> after) {
    Map<String, Long> d = new TreeMap<>();
    after.forEach((name, n) -> {
      long diff = n - before.getOrDefault(name, 0L);
      if (diff != 0) {
        d.put(name, diff);
      }
    });
    return d;
  }

  /** The Glue and STS metrics the recorded attempts should have produced (cache metrics left out). */
  private static Map<String, Long> expected(List<GlueCall> calls) {
    Map<String, Long> m = new TreeMap<>();
    for (GlueCall call : calls) {
      String op = call.operation();
      if (call.attempt() == 1) {
        m.merge(op + ".calls", 1L, Long::sum);
        m.merge(op + ".latency", 1L, Long::sum);
      } else {
        m.merge(op + ".retries", 1L, Long::sum);
      }
      if (call.outcome() != GlueCall.Outcome.SUCCEEDED && isThrottling(call.errorCode())) {
        m.merge(op + ".throttles", 1L, Long::sum);
      }
      if (call.outcome() == GlueCall.Outcome.FAILED) {
        m.merge(op + ".failures." + call.errorCode(), 1L, Long::sum);
      }
    }
    return m;
  }

  private static boolean isThrottling(String code) {
    return "ThrottlingException".equals(code) || "Throttling".equals(code);
  }

  private static Map<String, Long> withoutCache(Map<String, Long> metrics) {
    Map<String, Long> m = new TreeMap<>(metrics);
    m.keySet().removeIf(k -> k.startsWith("cache."));
    return m;
  }

  /** Runs the statements and checks the source counted what the recorder saw; returns the recorded calls. */
  private static List<GlueCall> assertCountedAsRecorded(Runnable statements) {
    Map<String, Long> before = snapshot();
    GlueCallRecorder.clear();
    statements.run();
    List<GlueCall> calls = GlueCallRecorder.calls();
    Map<String, Long> counted = delta(before, snapshot());
    assertEquals(expected(calls), withoutCache(counted), "metrics of " + calls);
    return calls;
  }

  @Test
  void countsEqualTheRecordedCallsOfKnownStatements() {
    List<GlueCall> calls = assertCountedAsRecorded(() -> {
      sql("CREATE TABLE " + t("orders") + " (id BIGINT, amount DOUBLE) USING delta");
      sql("INSERT INTO " + t("orders") + " VALUES (1, 2.5)");
      sql("SELECT * FROM " + t("orders"));
      sql("ALTER TABLE " + t("orders") + " ADD COLUMNS (note STRING)");
      sql("SHOW TABLES IN " + c + "." + db);
      sql("DROP TABLE " + t("orders"));
    });
    assertTrue(calls.stream().anyMatch(call -> call.operation().equals("CreateTable")), String.valueOf(calls));
    // the create's not-found GetTable is a failed call with its code, as the recorder saw it
    assertTrue(snapshot().getOrDefault("GetTable.failures.EntityNotFoundException", 0L) >= 1, String.valueOf(snapshot()));
    // the metadata cache: every statement read the table once from Glue, and answered Spark's repeats itself
    Map<String, Long> all = snapshot();
    assertTrue(all.get("cache.misses") >= 1 && all.get("cache.hits") >= 1, String.valueOf(all));
  }

  @Test
  void failuresAreCountedByErrorCode() {
    sql("CREATE TABLE " + t("denied") + " (id BIGINT) USING delta");
    List<GlueCall> calls = assertCountedAsRecorded(() -> {
      try (Fault.Handle denied = GlueFaults.inject(Fault.glue("GetTable").accessDenied().build())) {
        assertThrows(Exception.class, () -> sql("SELECT * FROM " + t("denied")));
        assertEquals(1, denied.fired());
      }
    });
    assertTrue(calls.stream().anyMatch(call -> "AccessDeniedException".equals(call.errorCode())
        && call.outcome() == GlueCall.Outcome.FAILED), String.valueOf(calls));
    assertTrue(registry().getCounters().containsKey("GetTable.failures.AccessDeniedException"));
  }

  @Test
  void throttledAttemptsTheSdkRetriedAreCountedAsThrottlesAndRetries() {
    sql("CREATE TABLE " + t("throttled") + " (id BIGINT) USING delta");
    Map<String, Long> before = snapshot();
    assertCountedAsRecorded(() -> {
      try (Fault.Handle throttled = GlueFaults.inject(Fault.glue("GetTable").throttling().build())) {
        sql("SELECT * FROM " + t("throttled"));
        assertEquals(1, throttled.fired());
      }
    });
    Map<String, Long> d = delta(before, snapshot());
    assertEquals(1L, d.get("GetTable.throttles"), String.valueOf(d));
    assertEquals(1L, d.get("GetTable.retries"), String.valueOf(d));
    assertEquals(1L, d.get("GetTable.calls"), String.valueOf(d));
  }

  @Test
  void namesHoldNoDatabaseTableOrKey() throws Exception {
    sql("CREATE TABLE " + t("secret_named_table") + " (id BIGINT) USING delta");
    sql("SELECT * FROM " + t("secret_named_table"));
    List<String> forbidden = new ArrayList<>(List.of(db, "secret_named_table", "gluecat-metrics"));
    GlueCallRecorder.calls().stream().map(GlueCall::accessKeyId).filter(Objects::nonNull).distinct()
        .forEach(forbidden::add);
    List<String> names = new ArrayList<>(registry().getNames());
    names.addAll(sparkRegistryNames());
    for (String name : names) {
      for (String f : forbidden) {
        assertFalse(name.contains(f), name + " names " + f);
      }
    }
    // Spark publishes the source under <app id>.driver.gluecat.<catalog>, the names every sink shows
    String prefix = spark().sparkContext().applicationId() + ".driver.gluecat." + c + ".";
    assertTrue(sparkRegistryNames().contains(prefix + "GetTable.calls"), prefix + " in " + sparkRegistryNames());
  }

  /** The names in Spark's own registry (what the sinks read), by reflection: the field is private to Spark. */
  private static List<String> sparkRegistryNames() throws Exception {
    java.lang.reflect.Field field = MetricsSystem.class.getDeclaredField("registry");
    field.setAccessible(true);
    MetricRegistry spark = (MetricRegistry) field.get(SparkEnv.get().metricsSystem());
    return spark.getNames().stream().filter(n -> n.contains(".gluecat.")).collect(Collectors.toList());
  }

  @Test
  void aCatalogInitializedAgainUnderTheSameNameCountsIntoTheSameSource() {
    MetricRegistry first = registry();
    Map<String, String> options = ministackOptions();
    options.put("role.arn", ROLE);
    io.gluecat.GlueCatalog again = new io.gluecat.GlueCatalog();
    again.initialize(c, new CaseInsensitiveStringMap(options));
    assertSame(first, registry());
    long before = first.counter("GetDatabase.calls").getCount();
    again.namespaceExists(new String[] {db});
    assertEquals(before + 1, first.counter("GetDatabase.calls").getCount());
  }

  @Test
  void eachStatementLogsOneLineWithItsCalls() throws Exception {
    sql("CREATE TABLE " + t("logged") + " (id BIGINT) USING delta");
    List<String> lines = new ArrayList<>();
    Map<String, String> expectedLines = new TreeMap<>();
    try (LogCapture capture = LogCapture.start(lines)) {
      for (String[] statement : new String[][] {
          {"metrics-it alter", "ALTER TABLE " + t("logged") + " ADD COLUMNS (x INT)"},
          {"metrics-it insert", "INSERT INTO " + t("logged") + " VALUES (1, 2)"},
          {"metrics-it denied", "SELECT * FROM " + t("logged")}, // refused in its analysis: never executed
          {"metrics-it throttled", "SELECT * FROM " + t("logged")},
          {"metrics-it select", "SELECT * FROM " + t("logged")}}) {
        spark().sparkContext().setJobDescription(statement[0]);
        GlueCallRecorder.clear();
        Fault fault = statement[0].endsWith("denied") ? Fault.glue("GetTable").accessDenied().build()
            : statement[0].endsWith("throttled") ? Fault.glue("GetTable").throttling().build() : null;
        try (Fault.Handle injected = fault == null ? null : GlueFaults.inject(fault)) {
          if (statement[0].endsWith("denied")) {
            assertThrows(Exception.class, () -> sql(statement[1]));
          } else {
            sql(statement[1]);
          }
        } finally {
          spark().sparkContext().setJobDescription(null);
        }
        List<GlueCall> calls = GlueCallRecorder.calls();
        Map<String, Integer> ops = new TreeMap<>();
        calls.stream().filter(call -> call.attempt() == 1).forEach(call -> ops.merge(call.operation(), 1, Integer::sum));
        long retries = calls.stream().filter(call -> call.attempt() > 1).count();
        long throttled = calls.stream().filter(call -> call.outcome() != GlueCall.Outcome.SUCCEEDED
            && isThrottling(call.errorCode())).count();
        long failed = calls.stream().filter(call -> call.outcome() == GlueCall.Outcome.FAILED).count();
        expectedLines.put(statement[0], ops.entrySet().stream().map(e -> e.getKey() + " " + e.getValue())
            .collect(Collectors.joining(", ", "(", "), " + retries + (retries == 1 ? " retry, " : " retries, ")
                + throttled + " throttled, " + failed + " failed")));
      }
      spark().sparkContext().listenerBus().waitUntilEmpty();
    }
    assertTrue(expectedLines.get("metrics-it throttled").endsWith("1 retry, 1 throttled, 0 failed"),
        String.valueOf(expectedLines));
    assertTrue(expectedLines.get("metrics-it denied").endsWith("0 retries, 0 throttled, 1 failed"),
        String.valueOf(expectedLines));
    for (Map.Entry<String, String> e : expectedLines.entrySet()) {
      List<String> mine = lines.stream().filter(l -> l.contains("statement \"" + e.getKey() + "\""))
          .collect(Collectors.toList());
      assertEquals(1, mine.size(), e.getKey() + " in " + lines);
      String line = mine.get(0);
      assertTrue(line.startsWith("io.gluecat.cache.StatementCalls: gluecat catalog " + c + ": statement"), line);
      assertTrue(line.contains(e.getKey().endsWith("denied") ? "(not executed)" : "(SQL execution "), line);
      assertTrue(line.endsWith(e.getValue()), line + " should end with " + e.getValue());
    }
  }
}
