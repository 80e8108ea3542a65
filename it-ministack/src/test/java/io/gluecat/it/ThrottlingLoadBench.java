package io.gluecat.it;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.GlueSemantics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The throttling benchmark (bin/bench --only throttling; not part of mvn verify, whose suites end in IT): the
 * mixed workload of ThrottlingLoadIT ({@link ThrottlingWorkload}, 16 threads, one catalog) for
 * {@value #ROUNDS} rounds, with 25 ms added to every Glue call, while the test kit throttles 0%, 10% or 30% of
 * the Glue calls, under each retry mode (the SDK's default, legacy; standard; adaptive; unthrottled once, as
 * no mode retries or limits anything then). Then the same against
 * a request quota (the kit's token bucket at half the rate the unthrottled run sent), which is what the adaptive
 * mode's client-side rate limiting is for. Per run: statements per second, p50/p99 statement time, retries and
 * throttled attempts per statement, failed statements (each one's error checked to name throttling and the
 * options), the most attempts a call needed, and whether everything held (ThrottlingWorkload.problems).
 * Results: printed, and {@code target/bench-throttling-<row>.md}.
 */
class ThrottlingLoadBench extends MiniStackSparkTest {
  static final int ROUNDS = Integer.getInteger("gluecat.bench.rounds", 3);
  static final int THREADS = 16;
  static final long DELAY_MS = 25;

  @Test
  void throughputUnderThrottling() throws Exception {
    String row = System.getProperty("gluecat.matrix.row", "-");
    StringBuilder report = new StringBuilder();
    report.append("| row | throttling | retry mode | statements | stmt/s | p50 ms | p99 ms | retries/stmt | "
        + "throttled/stmt | failed | most attempts | held |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    warmUp();
    double callsPerSecond = 0;
    for (int percent : new int[] {0, 10, 30}) {
      // without throttling the modes do the same (no retry, no rate limit engaged): one run
      for (String mode : percent == 0 ? new String[] {"default"} : new String[] {"default", "standard", "adaptive"}) {
        Run run = run(percent + "%", mode, b -> percent == 0 ? null : b.share(percent / 100.0, 36));
        if (percent == 0 && mode.equals("default")) {
          callsPerSecond = run.calls / run.seconds;
        }
        report.append(run.line(row)).append('\n');
        System.out.println(run.line(row));
      }
    }
    // a quota: what Glue does (a rate per account), at half of what the workload sends unthrottled
    double quota = Math.max(2, Math.floor(callsPerSecond / 2));
    for (String mode : new String[] {"default", "standard", "adaptive"}) {
      Run run = run(String.format("quota %.0f/s", quota), mode, b -> b.aboveRate(quota, 10));
      report.append(run.line(row)).append('\n');
      System.out.println(run.line(row));
    }
    report.append(String.format("%n%d threads x %d rounds, %d ms per Glue call%n", THREADS, ROUNDS, DELAY_MS));
    System.out.println("\n" + report);
    Path out = Paths.get("target", "bench-throttling-" + row + ".md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report.toString());
  }

  /**
   * The planning prefetch under throttling: 4 threads each plan (analyse, not run) a join of {@value #JOINED}
   * tables {@value #PLANS} times, with 25 ms per call and 30% of the calls throttled, at
   * {@code planning.prefetch-threads} 16 (the default), 4 and 0 (off: Spark reads the tables one by one).
   */
  @Test
  void prefetchUnderThrottling() throws Exception {
    String row = System.getProperty("gluecat.matrix.row", "-");
    String setup = newCatalog(ministackOptions());
    String db = newDatabase(newDirectory("prefetch"));
    StringBuilder join = new StringBuilder("SELECT count(*) FROM " + setup + "." + db + ".j0 t0");
    for (int i = 0; i < JOINED; i++) {
      sql("CREATE TABLE " + setup + "." + db + ".j" + i + " USING parquet AS SELECT id FROM range(3)");
      if (i > 0) {
        join.append(" JOIN ").append(setup).append('.').append(db).append(".j").append(i).append(" t").append(i)
            .append(" ON t0.id = t").append(i).append(".id");
      }
    }
    StringBuilder report = new StringBuilder("| row | prefetch-threads | plans | p50 ms | p99 ms | retries/plan | failed |\n"
        + "|---|---|---|---|---|---|---|\n");
    int[] settings = {16, 16, 4, 0};                    // the first is a warm-up, not reported
    for (int run = 0; run < settings.length; run++) {
      int threads = settings[run];
      Map<String, String> options = ministackOptions();
      options.put("planning.prefetch-threads", Integer.toString(threads));
      String c = newCatalog(options);
      String query = join.toString().replace(setup + ".", c + ".");
      long retriesBefore = ThrottlingWorkload.metric(c, "retries");
      List<Long> nanos = java.util.Collections.synchronizedList(new ArrayList<>());
      java.util.concurrent.atomic.AtomicInteger failed = new java.util.concurrent.atomic.AtomicInteger();
      try (AutoCloseable slow = GlueSemantics.delayEachCall(DELAY_MS);
          Fault.Handle h = GlueFaults.inject(Fault.glue(null).rateExceeded().always().share(0.3, 36).build())) {
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          futures.add(pool.submit(() -> {
            for (int i = 0; i < PLANS; i++) {
              long started = System.nanoTime();
              try {
                spark().sql(query).queryExecution().analyzed();
              } catch (RuntimeException e) {
                failed.incrementAndGet();
              }
              nanos.add(System.nanoTime() - started);
            }
            return null;
          }));
        }
        for (java.util.concurrent.Future<?> f : futures) {
          f.get();
        }
        pool.shutdown();
      }
      if (run == 0) {
        continue;
      }
      long[] sorted = nanos.stream().mapToLong(Long::longValue).sorted().toArray();
      String line = String.format("| %s | %d | %d | %.0f | %.0f | %.2f | %d |", row, threads, sorted.length,
          percentile(sorted, 50) / 1e6, percentile(sorted, 99) / 1e6,
          (ThrottlingWorkload.metric(c, "retries") - retriesBefore) / (double) sorted.length, failed.get());
      System.out.println(line);
      report.append(line).append('\n');
    }
    report.append(String.format("%n4 threads x %d plans of a %d-table join, 30%% of Glue calls throttled, %d ms per call%n",
        PLANS, JOINED, DELAY_MS));
    System.out.println("\n" + report);
    Path out = Paths.get("target", "bench-throttling-prefetch-" + row + ".md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report.toString());
  }

  static final int JOINED = 12;
  static final int PLANS = 5;

  /** One unmeasured run: class loading, Delta's first table, the SDK's first clients. */
  private void warmUp() throws Exception {
    String c = newCatalog(ministackOptions());
    String db = newDatabase(newDirectory("warmup"));
    ThrottlingWorkload w = new ThrottlingWorkload(spark(), GLUE, c, db, THREADS, 1, "w");
    w.setUpShared();
    w.run();
  }

  interface Throttle {
    Fault.Builder apply(Fault.Builder b);
  }

  private Run run(String throttling, String mode, Throttle throttle) throws Exception {
    Map<String, String> options = ministackOptions();
    if (!mode.equals("default")) {
      options.put("glue.retry-mode", mode);
    }
    String c = newCatalog(options);
    String db = newDatabase(newDirectory("bench"));
    ThrottlingWorkload workload = new ThrottlingWorkload(spark(), GLUE, c, db, THREADS, ROUNDS, "b");
    workload.setUpShared();
    long retriesBefore = ThrottlingWorkload.metric(c, "retries");
    long throttlesBefore = ThrottlingWorkload.metric(c, "throttles");
    GlueCallRecorder.clear();
    List<ThrottlingWorkload.Statement> statements;
    long nanos;
    try (AutoCloseable slow = GlueSemantics.delayEachCall(DELAY_MS)) {
      Fault.Builder b = throttle.apply(Fault.glue(null).rateExceeded().always());
      Fault.Handle handle = b == null ? null : GlueFaults.inject(b.build());
      try {
        long started = System.nanoTime();
        statements = workload.run();
        nanos = System.nanoTime() - started;
      } finally {
        if (handle != null) {
          handle.close();
        }
      }
    }
    List<GlueCall> calls = GlueCallRecorder.calls();
    Run run = new Run();
    run.throttling = throttling;
    run.mode = mode.equals("default") ? "SDK default (legacy)" : mode;
    run.seconds = nanos / 1e9;
    run.calls = calls.stream().filter(call -> call.attempt() == 1).count();
    run.statements = statements.size();
    run.failed = statements.stream().filter(s -> !s.ok()).count();
    run.retries = ThrottlingWorkload.metric(c, "retries") - retriesBefore;
    run.throttles = ThrottlingWorkload.metric(c, "throttles") - throttlesBefore;
    run.mostAttempts = calls.stream().filter(GlueCall::succeeded).mapToInt(GlueCall::attempt).max().orElse(0);
    long[] sorted = statements.stream().mapToLong(ThrottlingWorkload.Statement::nanos).sorted().toArray();
    run.p50 = percentile(sorted, 50) / 1e6;
    run.p99 = percentile(sorted, 99) / 1e6;
    List<String> problems = new ArrayList<>(workload.problems(statements));
    run.held = problems.isEmpty() ? "yes" : "NO: " + problems.size() + " problems";
    problems.forEach(p -> System.out.println("  problem: " + p));
    return run;
  }

  static final class Run {
    String throttling;
    String mode;
    double seconds;
    long calls;
    long statements;
    long failed;
    long retries;
    long throttles;
    int mostAttempts;
    double p50;
    double p99;
    String held;

    String line(String row) {
      return String.format("| %s | %s | %s | %d | %.1f | %.0f | %.0f | %.2f | %.2f | %d | %d | %s |", row, throttling,
          mode, statements, statements / seconds, p50, p99, retries / (double) statements,
          throttles / (double) statements, failed, mostAttempts, held);
    }
  }

  private static long percentile(long[] sorted, int p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }
}
