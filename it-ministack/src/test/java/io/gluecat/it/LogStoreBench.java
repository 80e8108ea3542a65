package io.gluecat.it;

import io.delta.storage.LogStore;
import io.gluecat.it.spark.MiniStackSparkTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The log store benchmark (bin/bench --only logstore; not part of mvn verify, whose suites end in IT): one writer
 * commits {@value #COMMITS} versions of a table's {@code _delta_log} in a row on MiniStack's S3 through S3A,
 * with Delta's default store for s3a ({@code S3SingleDriverLogStore}) and with gluecat's
 * {@code ConditionalLogStore}; per store the commit latency (p50, p90, p99, mean) and commits per second. Each
 * store first commits {@value #WARMUP} versions of another table of the same bucket (class loading, S3A's
 * client, the conditional store's one probe per bucket). For the conditional store also the losing side of a
 * conflict: a second store instance writes the same {@value #COMMITS} versions again and is refused each time.
 * Results: printed, and
 * {@code target/bench-logstore-<row>.md}.
 */
class LogStoreBench extends MiniStackSparkTest {
  static final int COMMITS = Integer.getInteger("gluecat.bench.commits", 200);
  static final int WARMUP = 20;
  /** A commit of a small append: about the size of one add action with stats. */
  static final List<String> ACTIONS = List.of(
      "{\"commitInfo\":{\"timestamp\":1764720000000,\"operation\":\"WRITE\",\"operationParameters\":"
          + "{\"mode\":\"Append\"},\"isBlindAppend\":true}}",
      "{\"add\":{\"path\":\"part-00000-6d1f0c52-0e4f-4d3b-9c53-2f0d2c1a0b7e-c000.snappy.parquet\","
          + "\"partitionValues\":{},\"size\":1024,\"modificationTime\":1764720000000,\"dataChange\":true,"
          + "\"stats\":\"{\\\"numRecords\\\":10,\\\"minValues\\\":{\\\"id\\\":0},\\\"maxValues\\\":{\\\"id\\\":9},"
          + "\\\"nullCount\\\":{\\\"id\\\":0}}\"}}");

  @Test
  void commitLatency() throws Exception {
    Configuration conf = spark().sparkContext().hadoopConfiguration();
    StringBuilder report = new StringBuilder();
    String row = System.getProperty("gluecat.matrix.row", "-");
    report.append("| row | log store | commits | p50 ms | p90 ms | p99 ms | mean ms | commits/s |\n")
        .append("|---|---|---|---|---|---|---|---|\n");
    for (String store : List.of("io.delta.storage.S3SingleDriverLogStore", ConditionalLogStoreIT.STORE)) {
      String bucket = newS3ABucket(MINISTACK);
      LogStore logStore = (LogStore) Class.forName(store).getConstructor(Configuration.class).newInstance(conf);
      commit(logStore, conf, "s3a://" + bucket + "/warmup", WARMUP);
      long[] nanos = commit(logStore, conf, "s3a://" + bucket + "/table", COMMITS);
      String name = store.substring(store.lastIndexOf('.') + 1);
      report.append(line(row, "`" + name + "`", nanos));
      if (store.equals(ConditionalLogStoreIT.STORE)) {
        // the losing side of a conflict: another writer's commit is at every version already
        LogStore loser = (LogStore) Class.forName(store).getConstructor(Configuration.class).newInstance(conf);
        report.append(line(row, "`" + name + "`, refused (412, read back)",
            refused(loser, conf, "s3a://" + bucket + "/table", COMMITS)));
      }
    }
    System.out.println("\n" + report);
    Path out = Paths.get("target", "bench-logstore-" + row + ".md");
    Files.createDirectories(out.getParent());
    Files.writeString(out, report.toString());
  }

  private static String line(String row, String what, long[] nanos) {
    long total = Arrays.stream(nanos).sum();
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return String.format("| %s | %s | %d | %.1f | %.1f | %.1f | %.1f | %.0f |%n", row, what, nanos.length,
        ms(percentile(sorted, 50)), ms(percentile(sorted, 90)), ms(percentile(sorted, 99)),
        ms(total / (double) nanos.length), nanos.length / (total / 1e9));
  }

  /**
   * Writes versions 0..n-1 of the table at {@code table}, each already committed by another writer: each write
   * must end in FileAlreadyExistsException (S3's 412, then the read-back that tells it from a retry of one's
   * own commit). Each refusal's time.
   */
  private static long[] refused(LogStore store, Configuration conf, String table, int n) throws Exception {
    long[] nanos = new long[n];
    for (int v = 0; v < n; v++) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(table + "/_delta_log/"
          + String.format("%020d.json", v));
      List<String> actions = List.of("{\"commitInfo\":{\"timestamp\":" + v + ",\"operation\":\"WRITE\"}}");
      long start = System.nanoTime();
      try {
        store.write(file, actions.iterator(), false, conf);
        throw new AssertionError("a second commit of " + file + " was accepted");
      } catch (java.nio.file.FileAlreadyExistsException expected) {
        nanos[v] = System.nanoTime() - start;
      }
    }
    return nanos;
  }

  /** Commits versions 0..n-1 of the table at {@code table} one after another; each commit's time. */
  private static long[] commit(LogStore store, Configuration conf, String table, int n) throws Exception {
    long[] nanos = new long[n];
    for (int v = 0; v < n; v++) {
      org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path(table + "/_delta_log/"
          + String.format("%020d.json", v));
      List<String> actions = new ArrayList<>(ACTIONS);
      long start = System.nanoTime();
      store.write(file, actions.iterator(), false, conf);
      nanos[v] = System.nanoTime() - start;
    }
    return nanos;
  }

  private static long percentile(long[] sorted, int p) {
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
  }

  private static double ms(double nanos) {
    return nanos / 1e6;
  }
}
