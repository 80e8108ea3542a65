package io.gluecat.it.trino;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.S3AConditionalPut;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * gluecat and Trino append to one Delta table on MiniStack's S3 at the same time, each with conditional commits:
 * the shared Spark application with {@code io.gluecat.logstore.ConditionalLogStore} for {@code s3a://}
 * (docs/operations.md, "Several writers on one table"), Trino's Delta Lake connector with
 * {@code s3.exclusive-create=true} ({@link io.gluecat.testkit.trino.TrinoCatalogs#s3FileSystem}).
 *
 * <p>The race is forced: both engines reach this suite's buckets through {@link #S3_PROXY} (gluecat's catalog by
 * its S3A endpoint, Trino by catalog {@value #TRINO_S3_PROXIED}), which holds each round's first commit PUTs until
 * one of each engine is in flight. Both read the same version and commit the next, so in every round one of them
 * meets 412 and commits again at the version after. The log must then hold every commit of both, at contiguous
 * versions, and both engines read every row.
 */
class TrinoCompatConcurrentWritersIT extends TrinoS3CompatTest implements CompatResults.RowLimits {
  static final String LOG_STORE_KEY = "spark.delta.logStore.s3a.impl";
  static final String LOG_STORE = "io.gluecat.logstore.ConditionalLogStore";
  /** Rounds, and so commits per writer. */
  static final int COMMITS = 2;

  /** Delta reads the setting from the application's SparkConf when a table's DeltaLog is made. */
  @BeforeAll
  static void conditionalCommitsInSpark() {
    spark();
    SparkEnv.get().conf().set(LOG_STORE_KEY, LOG_STORE);
  }

  @AfterAll
  static void restoreDeltasStore() {
    SparkEnv.get().conf().remove(LOG_STORE_KEY);
  }

  /** gluecat's S3A requests go through the proxy, as Trino's of {@value #TRINO_S3_PROXIED} do. */
  @Override
  protected Map<String, String> extraCatalogOptions() {
    Map<String, String> options = new LinkedHashMap<>(super.extraCatalogOptions());
    assertTrue(options.containsKey("hadoop.fs.s3a.endpoint"), options.keySet().toString());
    options.put("hadoop.fs.s3a.endpoint", S3_PROXY.endpoint().toString());
    return options;
  }

  /** The case's title in the report; both reader cells are one case. */
  private static final String TITLE = "On S3: gluecat (ConditionalLogStore) and Trino (s3.exclusive-create) append "
      + "to one Delta table at the same time, racing for the same versions (a 412 and a retry each round); every "
      + "commit is kept";

  @Override
  protected String trinoName(String table) {
    return TRINO_S3_PROXIED + "." + db + "." + table;
  }

  @Test
  @CompatCase(id = "s3-concurrent-writers", writer = "gluecat+trino-delta", reader = "gluecat",
      title = TITLE)
  void gluecatReadsEveryCommitOfBothWriters() throws Exception {
    if (!S3AConditionalPut.available()) {
      assertTheStoreRefusesGluecatsCommit("refused_g");
      return;
    }
    String table = raced();
    assertEquals(expectedRows(), rows("SELECT who, n FROM " + catalog + "." + table + " ORDER BY who, n"));
  }

  @Test
  @CompatCase(id = "s3-concurrent-writers", writer = "gluecat+trino-delta", reader = "trino-delta",
      title = TITLE)
  void trinoReadsEveryCommitOfBothWriters() throws Exception {
    if (!S3AConditionalPut.available()) {
      assertTheStoreRefusesGluecatsCommit("refused_t");
      return;
    }
    String table = raced();
    assertEquals(expectedRows().stream().map(r -> r.replace(",", ", ")).toList(),
        trinoRows("SELECT who, n FROM " + TRINO_S3_PROXIED + "." + table + " ORDER BY who, n"));
  }

  @Override
  public String limitOf(String caseId) {
    return S3AConditionalPut.limit();
  }

  /**
   * Where this row's S3A cannot run the store (Spark 4.0's Hadoop 3.4.1): gluecat's first commit of a new table is
   * refused, naming the bucket and both Hadoop versions, and no Glue entry is made, so no race can begin.
   */
  private void assertTheStoreRefusesGluecatsCommit(String table) {
    Throwable e = assertThrows(Throwable.class, () -> run("CREATE TABLE " + t(table) + " (who STRING, n INT) "
        + "USING delta"));
    StringBuilder messages = new StringBuilder();
    for (Throwable c = e; c != null; c = c.getCause()) {
      messages.append(c).append('\n');
    }
    assertTrue(messages.toString().contains(" has no conditional create (fs.option.create.conditional.overwrite, "
        + "Hadoop 3.4.2 and later's S3A; this is Hadoop " + org.apache.hadoop.util.VersionInfo.getVersion() + ")")
        && messages.toString().contains(LOG_STORE + " needs it"), messages.toString());
    assertFalse(GLUE.getTables(r -> r.databaseName(db)).tableList().stream().anyMatch(x -> x.name().equals(table)),
        "no Glue entry for a table whose first commit was refused");
  }

  /** {@code <db>.<table>} of the table both engines wrote: {@link #race} runs once for the two readers' tests. */
  private static String raced;

  private String raced() throws Exception {
    synchronized (TrinoCompatConcurrentWritersIT.class) {
      if (raced == null) {
        raced = db + "." + race();
      }
      return raced;
    }
  }

  /** Rows as gluecat shows them: each writer's n = 0..COMMITS-1. */
  private static List<String> expectedRows() {
    List<String> rows = new ArrayList<>();
    for (String who : List.of("spark", "trino")) {
      for (int n = 0; n < COMMITS; n++) {
        rows.add("[" + who + "," + n + "]");
      }
    }
    return rows;
  }

  /**
   * Creates a table with gluecat, lets both engines append {@link #COMMITS} rows each, one row per commit, at the
   * same time, and checks the log (every commit, contiguous versions, each engine's count) and the Glue entry.
   */
  private String race() throws Exception {
    String table = "both_writers";
    run("CREATE TABLE " + t(table) + " (who STRING, n INT) USING delta");
    String location = glueTable(db, table).storageDescriptor().location();
    // the bucket's S3A settings (through the proxy) for the shared application too, for storeOf's DeltaLog
    String bucket = URI.create(location).getHost();
    Map<String, String> settings = MINISTACK.s3aSettings(bucket);
    settings.put("fs.s3a.bucket." + bucket + ".endpoint", S3_PROXY.endpoint().toString());
    settings.forEach((k, v) -> spark().sparkContext().hadoopConfiguration().set(k, v));
    assertEquals(LOG_STORE, storeOf(location), "the Spark side commits with " + LOG_STORE);
    Table before = glueTable(db, table);

    int refusedBefore = S3_PROXY.refusedCommitPuts.get();
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      SparkSession spark = session();
      for (int round = 0; round < COMMITS; round++) {
        int n = round;
        S3_PROXY.holdCommitPuts(2);
        Future<?> sparkWriter = pool.submit(() -> {
          SparkSession.setActiveSession(spark);
          run("INSERT INTO " + t(table) + " VALUES ('spark', " + n + ")");
          return null;
        });
        Future<?> trinoWriter = pool.submit(() -> {
          trinoRun("INSERT INTO " + trinoName(table) + " VALUES ('trino', " + n + ")");
          return null;
        });
        sparkWriter.get(300, TimeUnit.SECONDS);
        trinoWriter.get(300, TimeUnit.SECONDS);
      }
    } finally {
      S3_PROXY.holdCommitPuts(0);
      pool.shutdownNow();
    }
    int refused = S3_PROXY.refusedCommitPuts.get() - refusedBefore;

    Map<Long, String> engines = commitEngines(location);
    List<Long> versions = new ArrayList<>(engines.keySet());
    List<Long> contiguous = new ArrayList<>();
    for (long v = 0; v <= 2 * COMMITS; v++) {
      contiguous.add(v);
    }
    assertEquals(contiguous, versions, "commit versions in the log: " + engines);
    assertEquals(COMMITS, engines.values().stream().filter("trino"::equals).count(), "Trino's commits: " + engines);
    assertEquals(COMMITS + 1, engines.values().stream().filter("spark"::equals).count(),
        "Spark's commits (the CREATE and the INSERTs): " + engines);
    assertTrue(refused >= COMMITS, "a commit PUT refused with 412 in every round: " + refused);

    System.err.println("[concurrent-writers] writers of the log's versions " + engines + ", commit PUTs refused "
        + refused);

    // Trino's INSERTs (and gluecat's) leave the Glue entry as gluecat wrote it: no parameter, column or location
    // changes, no statistics
    Table after = glueTable(db, table);
    assertEquals(before.parameters(), after.parameters());
    assertEquals(before.storageDescriptor(), after.storageDescriptor());
    return table;
  }

  /**
   * Each commit file of the table's log ({@code <version>.json}) and its writer, told by its commitInfo: Spark's
   * Delta names itself in {@code engineInfo}, Trino 476 in {@code clusterId} ({@code trino-476-...}).
   */
  private static Map<Long, String> commitEngines(String location) {
    URI uri = URI.create(location);
    String bucket = uri.getHost();
    String prefix = uri.getPath().substring(1) + "/_delta_log/";
    Map<Long, String> engines = new TreeMap<>();
    try (S3Client s3 = MINISTACK.s3()) {
      for (S3Object object : s3.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix)).contents()) {
        String name = object.key().substring(prefix.length());
        if (name.matches("\\d{20}\\.json")) {
          String commit = s3.getObjectAsBytes(r -> r.bucket(bucket).key(object.key())).asUtf8String();
          engines.put(Long.parseLong(name.substring(0, 20)), writer(commit));
        }
      }
    }
    return engines;
  }

  private static String writer(String commit) {
    String info = commit.lines().filter(l -> l.startsWith("{\"commitInfo\"")).findFirst().orElse("");
    if (info.contains("\"engineInfo\":\"Apache-Spark/")) {
      return "spark";
    }
    if (info.contains("\"clusterId\":\"trino-")) {
      return "trino";
    }
    return "unknown: " + info;
  }

  /** The log store Delta resolved for the table's path: the class inside its DelegatingLogStore's adaptor. */
  private String storeOf(String location) throws ReflectiveOperationException {
    Object log = Class.forName("org.apache.spark.sql.delta.DeltaLog")
        .getMethod("forTable", SparkSession.class, String.class).invoke(null, session(), location);
    Object store = log.getClass().getMethod("store").invoke(log);
    Object delegate = store.getClass().getMethod("getDelegate", Path.class).invoke(store, new Path(location));
    Object impl = delegate.getClass().getMethod("logStoreImpl").invoke(delegate);
    return impl.getClass().getName();
  }
}
