package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.GlueSemantics;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Throttling at load, held (docs/reliability.md, "Throttling at load"): 16 threads run a mixed workload
 * ({@link ThrottlingWorkload}: CREATE, INSERT, SELECT, ALTER, SHOW TABLES, DROP on Delta and parquet tables)
 * through one catalog while the test kit answers a steady share of all Glue calls with Glue's
 * {@code ThrottlingException} ("Rate exceeded", HTTP 400) and every call takes 25 ms more. Every statement
 * succeeds or fails with gluecat's error naming throttling and the options to raise, and nothing is lost or
 * half-written. The catalog's metrics count every throttled attempt the kit injected. The longer run, with
 * figures, is ThrottlingLoadBench (bin/bench --only throttling).
 */
class ThrottlingLoadIT extends MiniStackSparkTest {
  static final int THREADS = 16;

  /** At 30% two attempts per call, so that some calls do stay throttled and their errors are checked too. */
  @ParameterizedTest(name = "{0}% throttled, glue.max-attempts {1}")
  @CsvSource({"10, default", "30, 2"})
  void everyStatementSucceedsOrFailsNamingThrottlingAndNothingIsLost(int percent, String attempts) throws Exception {
    // what this holds is gluecat's Glue client's under load (its retries, its throttling error, its metrics), which
    // no Spark line changes; each line's own Glue calls meet throttling one by one in FaultInjectionIT, on every row
    org.junit.jupiter.api.Assumptions.assumeTrue(io.gluecat.testkit.Repository.isNewestRowOrNone(),
        "runs on the newest row of matrix.yaml only (docs/architecture.md, \"What runs once per CI run\")");
    Map<String, String> options = ministackOptions();
    if (!attempts.equals("default")) {
      options.put("glue.max-attempts", attempts);
    }
    String c = newCatalog(options);
    String db = newDatabase(newDirectory("throttling"));
    ThrottlingWorkload workload = new ThrottlingWorkload(spark(), GLUE, c, db, THREADS, 1, "p" + percent);
    workload.setUpShared();
    long throttlesBefore = ThrottlingWorkload.metric(c, "throttles");
    long retriesBefore = ThrottlingWorkload.metric(c, "retries");
    GlueCallRecorder.clear();
    List<ThrottlingWorkload.Statement> statements;
    int fired;
    try (AutoCloseable slow = GlueSemantics.delayEachCall(25);
        Fault.Handle throttling = GlueFaults.inject(Fault.glue(null).rateExceeded().always().share(percent / 100.0, 36)
            .build())) {
      long started = System.nanoTime();
      statements = workload.run();
      System.out.printf("throttling %d%%: the workload ran in %d ms%n", percent, (System.nanoTime() - started) / 1_000_000);
      fired = throttling.fired();
    }
    List<GlueCall> calls = GlueCallRecorder.calls();
    long failed = statements.stream().filter(s -> !s.ok()).count();
    long throttles = ThrottlingWorkload.metric(c, "throttles") - throttlesBefore;
    long retries = ThrottlingWorkload.metric(c, "retries") - retriesBefore;
    System.out.printf("throttling %d%%: %d statements, %d failed, %d Glue attempts, %d throttled, %d retries%n",
        percent, statements.size(), failed, calls.size(), fired, retries);
    statements.stream().filter(s -> !s.ok()).forEach(s -> System.out.println("  failed: " + s.sql() + "\n    "
        + s.error().lines().findFirst().orElse("")));

    List<String> problems = workload.problems(statements);
    assertEquals(List.of(), problems, String.join("\n", problems));
    assertTrue(fired > 0, "the kit throttled some attempts");
    // every attempt the kit throttled reached the catalog's metrics as a throttle; each was retried or ended its call
    assertEquals(fired, throttles, "throttled attempts counted by the catalog's metrics");
    long retried = calls.stream().filter(call -> call.outcome() == GlueCall.Outcome.RETRIED).count();
    assertEquals(retried, retries, "retries counted by the catalog's metrics, as the recorder saw them");
  }
}
