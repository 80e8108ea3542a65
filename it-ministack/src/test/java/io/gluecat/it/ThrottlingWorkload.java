package io.gluecat.it;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.SparkSession;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * The mixed workload of ThrottlingLoadIT and ThrottlingLoadBench: {@code threads} threads run statements through
 * ONE catalog of the shared session at once, each on tables of its own (so that no two writers race, which is
 * another suite's subject, ConcurrentWritersIT) and on two shared tables everyone reads. Per round, of every
 * four threads one creates a Delta table, inserts into it and adds a column (ALTER TABLE ADD COLUMNS), one
 * creates a parquet table and inserts into it, and two read a shared Delta or parquet table (a load and a scan)
 * and list the database (SHOW TABLES); of every eight, one drops its parquet table and one creates a Delta table
 * and drops it. A statement whose table's CREATE failed is not run (it could only fail for that reason).
 *
 * <p>{@link #problems} is what "held" means: every statement succeeded, or failed with gluecat's error naming
 * throttling and the options to raise; every successful INSERT's rows are there and a failed one's are not
 * (unless its error says the data was committed); every created table that was not dropped has its entry, every
 * dropped one has none; an ALTER that succeeded shows its column in Glue; and no entry of the database points at
 * nothing.
 */
final class ThrottlingWorkload {

  /** One statement as it ran. */
  record Statement(int thread, int round, String kind, String table, String sql, long nanos, String error) {
    boolean ok() {
      return error == null;
    }
  }

  private final SparkSession spark;
  private final GlueClient glue;
  private final String catalog;
  private final String db;
  private final int threads;
  private final int rounds;
  private final String prefix;

  ThrottlingWorkload(SparkSession spark, GlueClient glue, String catalog, String db, int threads, int rounds,
      String prefix) {
    this.spark = spark;
    this.glue = glue;
    this.catalog = catalog;
    this.db = db;
    this.threads = threads;
    this.rounds = rounds;
    this.prefix = prefix;
  }

  /** The two tables every thread reads; made before the faults are armed. */
  void setUpShared() {
    sql("CREATE TABLE IF NOT EXISTS " + name("shared_delta") + " USING delta AS SELECT id, CAST(id AS STRING) AS v FROM range(10)");
    sql("CREATE TABLE IF NOT EXISTS " + name("shared_parquet") + " USING parquet AS SELECT id, CAST(id AS STRING) AS v FROM range(10)");
  }

  private String name(String table) {
    return catalog + "." + db + "." + table;
  }

  private void sql(String statement) {
    spark.sql(statement).collectAsList();
  }

  /** Threads 4k write a Delta table, 4k+1 a parquet one, 4k+2 and 4k+3 mostly read; every eighth drops its table. */
  String table(int thread, int round) {
    return prefix + "_t" + thread + "_r" + round;
  }

  /** Runs the workload; the statements in the order they ended. */
  List<Statement> run() throws Exception {
    List<Statement> done = Collections.synchronizedList(new ArrayList<>());
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int i = 0; i < threads; i++) {
        int thread = i;
        futures.add(pool.submit(() -> {
          start.await();
          for (int round = 0; round < rounds; round++) {
            runThread(thread, round, done);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    return new ArrayList<>(done);
  }

  private void runThread(int thread, int round, List<Statement> done) {
    String t = table(thread, round);
    String full = name(t);
    String listing = "SHOW TABLES IN " + catalog + "." + db;
    switch (thread % 4) {
      case 0: { // a Delta table: create, insert, add a column
        Statement create = statement(thread, round, "CREATE", t, "CREATE TABLE " + full + " (id BIGINT, v STRING) USING delta", done);
        if (create.ok()) {
          statement(thread, round, "INSERT", t, "INSERT INTO " + full + " VALUES (" + thread + ", 'a'), (" + round + ", 'b')", done);
          statement(thread, round, "ALTER", t, "ALTER TABLE " + full + " ADD COLUMNS (x" + round + " INT)", done);
        }
        break;
      }
      case 1: { // a parquet table: create, insert, and on every eighth thread drop it
        Statement create = statement(thread, round, "CREATE", t, "CREATE TABLE " + full + " (id BIGINT, v STRING) USING parquet", done);
        if (create.ok()) {
          statement(thread, round, "INSERT", t, "INSERT INTO " + full + " VALUES (" + thread + ", 'a')", done);
          if (thread % 8 == 5) {
            statement(thread, round, "DROP", t, "DROP TABLE " + full, done);
          }
        }
        break;
      }
      case 2: // reads: a Delta table's load and scan, a listing
        statement(thread, round, "SELECT", "shared", "SELECT count(*), max(v) FROM " + name("shared_delta"), done);
        statement(thread, round, "SHOW TABLES", "-", listing, done);
        break;
      default: { // a parquet table's load and scan, a listing, and a Delta table made and dropped
        statement(thread, round, "SELECT", "shared", "SELECT count(*), max(v) FROM " + name("shared_parquet"), done);
        statement(thread, round, "SHOW TABLES", "-", listing, done);
        if (thread % 8 == 7) {
          Statement create = statement(thread, round, "CREATE", t, "CREATE TABLE " + full + " (id BIGINT) USING delta", done);
          if (create.ok()) {
            statement(thread, round, "DROP", t, "DROP TABLE " + full, done);
          }
        }
      }
    }
  }

  private Statement statement(int thread, int round, String kind, String table, String sql, List<Statement> done) {
    long started = System.nanoTime();
    String error = null;
    try {
      sql(sql);
    } catch (Throwable e) {
      error = TableLoadIT.messages(e);
    }
    Statement s = new Statement(thread, round, kind, table, sql, System.nanoTime() - started, error);
    done.add(s);
    return s;
  }

  /** Whether a failure is explained: gluecat's error that names throttling and the two options to raise. */
  static boolean explained(String error) {
    String lower = error.toLowerCase(Locale.ROOT);
    return lower.contains("throttl") && error.contains("glue.max-attempts") && error.contains("glue.retry-mode")
        && error.contains("io.gluecat.");
  }

  /** What did not hold, checked with the faults off; empty when everything did. */
  List<String> problems(List<Statement> statements) {
    List<String> problems = new ArrayList<>();
    for (Statement s : statements) {
      if (!s.ok() && !explained(s.error())) {
        problems.add("unexplained failure of " + s.sql() + ":\n" + s.error());
      }
    }
    Map<String, Table> entries = new TreeMap<>();
    String token = null;
    do {
      String next = token;
      var page = glue.getTables(r -> r.databaseName(db).nextToken(next));
      page.tableList().forEach(e -> entries.put(e.name(), e));
      token = page.nextToken();
    } while (token != null);
    Map<String, List<Statement>> byTable = statements.stream().filter(s -> !s.table().equals("-")
        && !s.table().equals("shared")).collect(Collectors.groupingBy(Statement::table, TreeMap::new, Collectors.toList()));
    byTable.forEach((table, list) -> {
      Statement create = list.stream().filter(s -> s.kind().equals("CREATE")).findFirst().orElseThrow();
      boolean dropped = list.stream().anyMatch(s -> s.kind().equals("DROP") && s.ok());
      Table entry = entries.get(table);
      if (create.ok() && !dropped && entry == null) {
        problems.add(table + ": created, never dropped, but has no Glue entry");
      }
      if (dropped && entry != null) {
        problems.add(table + ": dropped, but its Glue entry is still there");
      }
      if (entry == null || !create.ok()) {
        return;
      }
      long expected = 0;
      long maybe = 0;
      for (Statement s : list) {
        if (s.kind().equals("INSERT")) {
          long rows = s.sql().chars().filter(c -> c == '(').count();   // "VALUES (..), (..)": one per tuple
          if (s.ok()) {
            expected += rows;
          } else if (s.error().contains("committed")) {
            maybe += rows;
          }
        }
        if (s.kind().equals("ALTER") && s.ok()) {
          String column = s.sql().replaceAll(".*ADD COLUMNS \\((\\w+) INT\\)", "$1");
          if (entry.storageDescriptor().columns().stream().noneMatch(c -> c.name().equals(column))) {
            problems.add(table + ": ALTER TABLE ADD COLUMNS " + column + " succeeded, but Glue's entry lacks it");
          }
        }
      }
      long rows = spark.sql("SELECT count(*) FROM " + name(table)).first().getLong(0);
      if (rows < expected || rows > expected + maybe) {
        problems.add(table + ": " + rows + " rows, but its successful INSERTs wrote " + expected
            + (maybe > 0 ? " (and failed ones said they committed " + maybe + ")" : ""));
      }
    });
    entries.forEach((table, e) -> {
      String location = e.storageDescriptor().serdeInfo() == null ? null
          : e.storageDescriptor().serdeInfo().parameters().get("path");
      if (location == null) {
        location = e.storageDescriptor().location();
      }
      Path dir = Paths.get(URI.create(location));
      boolean isDelta = "delta".equalsIgnoreCase(e.parameters().get("spark.sql.sources.provider"));
      if (!Files.isDirectory(dir) || (isDelta && !Files.isDirectory(dir.resolve("_delta_log")))) {
        problems.add("entry " + table + " points at nothing: " + location);
      }
    });
    return problems;
  }

  /** The sum of one metric over every operation of a catalog's metrics source (e.g. "retries", "throttles"). */
  static long metric(String catalog, String suffix) {
    scala.collection.Seq<org.apache.spark.metrics.source.Source> sources =
        SparkEnv.get().metricsSystem().getSourcesByName("gluecat." + catalog);
    if (sources.isEmpty()) {
      return 0;
    }
    MetricRegistry registry = sources.head().metricRegistry();
    long sum = 0;
    for (Map.Entry<String, Counter> c : registry.getCounters().entrySet()) {
      if (c.getKey().endsWith("." + suffix) && !c.getKey().startsWith("cache.")) {
        sum += c.getValue().getCount();
      }
    }
    return sum;
  }
}
