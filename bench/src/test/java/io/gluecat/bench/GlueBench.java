package io.gluecat.bench;

import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueSemantics;
import io.gluecat.testkit.MiniStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * gluecat's benchmark (docs/performance.md): per operation, the Glue and STS calls it sends (from the test
 * kit's recorder) and its time, against a local MiniStack, first as is and then with a fixed delay before each
 * Glue and STS call standing in for the round trip to AWS, both after one unrecorded round of the statements
 * that warms the JVM up. It measures and prints; it asserts nothing about
 * time. Run it with {@code bin/bench}; settings: {@code gluecat.bench.delayMs} (25), {@code gluecat.bench.quick}
 * (fewer tables and repetitions), {@code gluecat.bench.only} ({@code planning}: only the planning comparison),
 * {@code gluecat.bench.out} (where the Markdown table goes).
 *
 * <p>Delta rebuilds a snapshot's state in {@code spark.databricks.delta.snapshotPartitions} partitions (50 by
 * default), which on a small table and 2 cores is most of a first read; the session uses 2, as the test suites
 * do. Every comparison (by name through gluecat, by path, through spark_catalog) runs in this one session, so
 * under the same settings.
 */
class GlueBench {
  private static final long DELAY_MS = Long.getLong("gluecat.bench.delayMs", 25);
  private static final boolean QUICK = Boolean.getBoolean("gluecat.bench.quick");
  /** Empty: every operation; {@code planning}: only the planning comparison (about a minute). */
  private static final String ONLY = System.getProperty("gluecat.bench.only", "").trim();
  private static final String ROLE = "arn:aws:iam::000000000000:role/gluecat-bench";
  private static final AtomicInteger COUNTER = new AtomicInteger();

  private final MiniStack ms = MiniStack.shared();
  private final GlueClient glue = ms.glue();
  private final List<String> rows = new ArrayList<>();
  private SparkSession spark;
  private Path scratch;
  private long delay; // the delay of the current pass

  @Test
  void run() throws Exception {
    scratch = Files.createTempDirectory("gluecat-bench-");
    spark = SparkSession.builder()
        .master("local[2]")
        .appName("gluecat-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.warehouse.dir", scratch.resolve("spark-warehouse").toString())
        .config("spark.sql.extensions",
            "io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.databricks.delta.snapshotPartitions", "2")
        .getOrCreate();
    String line = spark.version();
    rows.add("| Spark | delay per call | operation | Glue calls | STS calls | time (ms) | notes |");
    rows.add("|---|---|---|---|---|---|---|");
    if (ONLY.equals("partitions")) {
      String events = seedPartitions();
      delay = 0; // an unrecorded pass first, as below; of 3 runs a query, which steadies the first pass's times
      int header = rows.size();
      partitions(line, catalog(), events, 3);
      rows.subList(header, rows.size()).clear();
      for (long d : new long[] {0, DELAY_MS}) {
        delay = d;
        partitions(line, catalog(), events, QUICK ? 3 : 7);
      }
      write();
      return;
    }
    if (ONLY.equals("planning") || ONLY.equals("tables")) {
      String many = ONLY.equals("tables") ? seedWithData("many", 30) : null;
      if (many != null) { // one unrecorded pass first: the JIT's warming up would otherwise fall on the first pass
        delay = 0;
        int header = rows.size();
        planningTables(line, many, 1);
        rows.subList(header, rows.size()).clear();
      }
      for (long d : new long[] {0, DELAY_MS}) {
        delay = d;
        if (many == null) {
          planning(line, catalog());
        } else {
          planningTables(line, many, 20);
        }
      }
      write();
      return;
    } else if (!ONLY.isEmpty()) {
      throw new IllegalArgumentException("gluecat.bench.only must be empty, 'planning', 'tables' or 'partitions', not '"
          + ONLY + "'");
    }

    int[] listed = QUICK ? new int[] {10, 1_000} : new int[] {10, 1_000, 10_000};
    Map<Integer, String> listedDatabases = new java.util.LinkedHashMap<>();
    for (int n : listed) {
      listedDatabases.put(n, seed("list" + n, n));
    }
    String joined = seed("join", 20);
    String many = seedWithData("many", 30);
    String loaded = listedDatabases.get(1_000);
    String events = seedPartitions();

    // One unrecorded round of the statements first, so that the first pass does not carry the JVM's and
    // Delta's first use (class loading, JIT) that the second would not.
    int header = rows.size();
    delay = 0;
    statements(line, catalog());
    reference(line);
    rows.subList(header, rows.size()).clear();

    for (long d : new long[] {0, DELAY_MS}) {
      delay = d;
      String c = catalog();
      statements(line, c);
      reference(line);
      for (Map.Entry<Integer, String> e : listedDatabases.entrySet()) {
        measure(line, "SHOW TABLES (" + e.getKey() + " tables)", "pages of 100",
            () -> spark.sql("SHOW TABLES IN " + c + "." + e.getValue()).collectAsList());
      }
      for (Map.Entry<Integer, String> e : listedDatabases.entrySet()) {
        measure(line, String.format(Locale.ROOT, "spark.catalog.listTables (%,d tables)", e.getKey()),
            "each listed table resolved by Spark",
            () -> spark.catalog().listTables(c + "." + e.getValue()).collectAsList());
      }
      StringBuilder join = new StringBuilder("SELECT count(*) FROM " + c + "." + joined + ".t0000 t0");
      for (int i = 1; i < 20; i++) {
        join.append(String.format(" JOIN %s.%s.t%04d t%d ON t0.id = t%d.id", c, joined, i, i, i));
      }
      measure(line, "query joining 20 tables", "", () -> spark.sql(join.toString()).collectAsList());
      threads(line, c, loaded);
      planning(line, c);
      planningTables(line, many, 20);
      partitions(line, c, events, QUICK ? 3 : 7);
    }
    write();
  }

  private void write() throws IOException {
    String table = String.join("\n", rows) + "\n";
    System.out.println("\n" + table);
    String out = System.getProperty("gluecat.bench.out");
    if (out != null) {
      Files.createDirectories(Paths.get(out).getParent());
      Files.writeString(Paths.get(out), table);
      System.out.println("written to " + out);
    }
  }

  /** A new catalog on MiniStack with a role, with one statement run (so its role is assumed). */
  private String catalog() {
    return catalog(Map.of());
  }

  /** {@link #catalog()} with further catalog options. */
  private String catalog(Map<String, String> options) {
    String name = "bench" + COUNTER.incrementAndGet();
    options.forEach((k, v) -> spark.conf().set("spark.sql.catalog." + name + "." + k, v));
    spark.conf().set("spark.sql.catalog." + name, "io.gluecat.GlueCatalog");
    spark.conf().set("spark.sql.catalog." + name + ".region", MiniStack.REGION.id());
    spark.conf().set("spark.sql.catalog." + name + ".glue.endpoint", ms.endpoint().toString());
    spark.conf().set("spark.sql.catalog." + name + ".sts.endpoint", ms.endpoint().toString());
    spark.conf().set("spark.sql.catalog." + name + ".role.arn", ROLE);
    spark.sql("SHOW NAMESPACES IN " + name).collectAsList();
    return name;
  }

  private String database() {
    String name = "benchdb_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
    Path dir = directory(name);
    glue.createDatabase(r -> r.databaseInput(d -> d.name(name).locationUri("file:" + dir)));
    return name;
  }

  private Path directory(String name) {
    try {
      return Files.createDirectories(scratch.resolve("data").resolve(name + "_" + COUNTER.incrementAndGet()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A database of {@code n} empty parquet tables t0000.. (one id column), written with the SDK. */
  private String seed(String prefix, int n) {
    String db = database();
    EntryWriter writer = new EntryWriter(spark.version(), EntryFormat.DEFAULT_SCHEMA_THRESHOLD);
    StructType schema = new StructType().add("id", DataTypes.LongType);
    for (int i = 0; i < n; i++) {
      String table = String.format("t%04d", i);
      String location = "file:" + directory(prefix + table);
      TableInput input = writer.newEntry(new TableDefinition(new TableName(db, table), "parquet", schema, List.of(),
          location, Optional.empty(), Map.of(), Map.of()), Optional.empty(), Optional.empty());
      glue.createTable(r -> r.databaseName(db).tableInput(input));
    }
    return db;
  }

  /** {@link #seed} with one parquet file of one row in each table's directory, so it can be read by path too. */
  private String seedWithData(String prefix, int n) throws IOException {
    String db = seed(prefix, n);
    Path file = scratch.resolve("one-row");
    spark.range(1).toDF("id").coalesce(1).write().parquet(file.toUri().toString());
    Path part;
    try (java.util.stream.Stream<Path> files = Files.list(file)) {
      part = files.filter(f -> f.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
    }
    for (int i = 0; i < n; i++) {
      String table = String.format("t%04d", i);
      Path dir = Paths.get(java.net.URI.create(glue.getTable(r -> r.databaseName(db).name(table)).table()
          .storageDescriptor().location()));
      Files.copy(part, dir.resolve("part-0.parquet"));
    }
    return db;
  }

  interface Body {
    void run() throws Exception;
  }

  interface Round {
    void run(int round) throws Exception;
  }

  /** Runs {@code body} once with the delay of this pass, paged listings, and adds its row. */
  private void measure(String line, String operation, String notes, Body body) throws Exception {
    long nanos;
    List<GlueCall> calls;
    try (AutoCloseable paging = GlueSemantics.pageListings(100);
        AutoCloseable delayed = GlueSemantics.delayEachCall(delay)) {
      GlueCallRecorder.clear();
      long start = System.nanoTime();
      body.run();
      nanos = System.nanoTime() - start;
      calls = GlueCallRecorder.calls();
    }
    row(line, operation, calls, nanos, notes);
  }

  private void row(String line, String operation, List<GlueCall> calls, long nanos, String notes) {
    long glueCalls = calls.stream().filter(GlueCall::isGlue).count();
    long stsCalls = calls.stream().filter(GlueCall::isSts).count();
    Map<String, Long> byOperation = new java.util.TreeMap<>();
    calls.stream().filter(GlueCall::isGlue).forEach(c -> byOperation.merge(c.operation(), 1L, Long::sum));
    String detail = glueCalls == 0 ? "" : byOperation.toString().replace("=", " x").replaceAll("[{}]", "");
    rows.add(String.format(Locale.ROOT, "| %s | %d ms | %s | %d | %d | %.1f | %s |", line, delay, operation,
        glueCalls, stsCalls, nanos / 1e6, (detail + (notes.isEmpty() || detail.isEmpty() ? "" : "; ") + notes)));
    System.out.println(rows.get(rows.size() - 1));
  }

  /** The statements, each on tables of its own made beforehand. */
  private void statements(String line, String c) throws Exception {
    String db = database();
    String t = c + "." + db + ".";
    measure(line, "CREATE TABLE (Delta, partitioned)", "",
        () -> spark.sql("CREATE TABLE " + t + "cd (id BIGINT, p STRING) USING delta PARTITIONED BY (p)"));
    measure(line, "CREATE TABLE (parquet, partitioned)", "",
        () -> spark.sql("CREATE TABLE " + t + "cp (id BIGINT, p STRING) USING parquet PARTITIONED BY (p)"));
    measure(line, "CTAS (Delta)", "", () -> spark.sql("CREATE TABLE " + t + "ctas USING delta AS SELECT 1L AS id"));
    measure(line, "CREATE OR REPLACE ... AS SELECT (Delta)", "",
        () -> spark.sql("CREATE OR REPLACE TABLE " + t + "ctas USING delta AS SELECT 2L AS id"));
    measure(line, "ALTER TABLE ADD COLUMNS (Delta)", "", () -> spark.sql("ALTER TABLE " + t + "cd ADD COLUMNS (x INT)"));
    measure(line, "ALTER TABLE ADD COLUMNS (parquet)", "",
        () -> spark.sql("ALTER TABLE " + t + "cp ADD COLUMNS (x INT)"));
    measure(line, "SET TBLPROPERTIES (parquet)", "",
        () -> spark.sql("ALTER TABLE " + t + "cp SET TBLPROPERTIES ('k' = 'v')"));
    measure(line, "INSERT (Delta)", "", () -> spark.sql("INSERT INTO " + t + "cd VALUES (1, 'a', 1)"));
    measure(line, "SELECT by name (Delta)", "", () -> spark.sql("SELECT * FROM " + t + "cd").collectAsList());
    measure(line, "DESCRIBE (Delta)", "", () -> spark.sql("DESCRIBE TABLE " + t + "cd").collectAsList());
    measure(line, "RENAME", "", () -> spark.sql("ALTER TABLE " + t + "ctas RENAME TO " + t + "ctas2"));
    measure(line, "DROP", "", () -> spark.sql("DROP TABLE " + t + "ctas2"));
  }

  /** The same statements through Spark's own session catalog (Delta's DeltaCatalog, no Glue): a reference. */
  private void reference(String line) throws Exception {
    String db = "benchref_" + COUNTER.incrementAndGet();
    spark.sql("CREATE DATABASE " + db + " LOCATION '" + directory(db).toUri() + "'");
    String t = "spark_catalog." + db + ".";
    String ref = " [reference: spark_catalog]";
    measure(line, "CREATE TABLE (Delta, partitioned)" + ref, "",
        () -> spark.sql("CREATE TABLE " + t + "cd (id BIGINT, p STRING) USING delta PARTITIONED BY (p)"));
    measure(line, "CTAS (Delta)" + ref, "", () -> spark.sql("CREATE TABLE " + t + "ctas USING delta AS SELECT 1L AS id"));
    measure(line, "ALTER TABLE ADD COLUMNS (Delta)" + ref, "",
        () -> spark.sql("ALTER TABLE " + t + "cd ADD COLUMNS (x INT)"));
    measure(line, "INSERT (Delta)" + ref, "", () -> spark.sql("INSERT INTO " + t + "cd VALUES (1, 'a', 1)"));
    measure(line, "SELECT by name (Delta)" + ref, "", () -> spark.sql("SELECT * FROM " + t + "cd").collectAsList());
    measure(line, "DROP" + ref, "", () -> spark.sql("DROP TABLE " + t + "ctas"));
  }

  /** 8 threads loading the 1,000 tables of {@code db} through one catalog instance (one Glue client). */
  private void threads(String line, String c, String db) throws Exception {
    TableCatalog catalog = tableCatalog(c);
    AtomicInteger errors = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try (AutoCloseable delayed = GlueSemantics.delayEachCall(delay)) {
      GlueCallRecorder.clear();
      long start = System.nanoTime();
      List<Future<?>> done = new ArrayList<>();
      for (int thread = 0; thread < 8; thread++) {
        int first = thread;
        done.add(pool.submit(() -> {
          SparkSession.setActiveSession(spark);
          for (int i = first; i < 1_000; i += 8) {
            try {
              catalog.loadTable(Identifier.of(new String[] {db}, String.format("t%04d", i)));
            } catch (Exception | Error e) {
              errors.incrementAndGet();
            }
          }
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
      long nanos = System.nanoTime() - start;
      row(line, "8 threads loading 1,000 tables, one catalog", GlueCallRecorder.calls(), nanos,
          String.format(Locale.ROOT, "%.0f loads/s, %d errors", 1_000 / (nanos / 1e9), errors.get()));
    } finally {
      pool.shutdownNow();
    }
  }

  private TableCatalog tableCatalog(String name) throws ReflectiveOperationException {
    Object state = spark.getClass().getMethod("sessionState").invoke(spark);
    Object manager = state.getClass().getMethod("catalogManager").invoke(state);
    return (TableCatalog) manager.getClass().getMethod("catalog", String.class).invoke(manager, name);
  }

  /**
   * Planning time (analysis, optimization and physical planning) of a query on a Delta table by name through
   * gluecat, against the same query by path, as a ratio of medians; and the same through spark_catalog, and
   * through a second gluecat catalog with the cache across statements on (no Glue call: what is left is
   * gluecat's and Delta's work per load). The variants run in turn, round after round, so that the JIT's
   * warming up and the machine's load fall on all of them alike. Also the median GetTable round trip to
   * MiniStack, with the bench's own Glue client and through the catalog's gateway, 40 in a row, and through
   * the gateway once after each round of plans (a call spaced as the one a statement by name makes).
   */
  private void planning(String line, String c) throws Exception {
    String db = database();
    String location = directory("planned").resolve("t").toUri().toString();
    spark.sql("CREATE TABLE " + c + "." + db + ".planned (id BIGINT, p STRING) USING delta LOCATION '" + location + "'");
    spark.sql("INSERT INTO " + c + "." + db + ".planned VALUES (1, 'a'), (2, 'b')");
    String ref = "benchplan_" + COUNTER.incrementAndGet();
    spark.sql("CREATE TABLE spark_catalog.default." + ref + " USING delta LOCATION '" + location + "'");
    String cached = catalog(Map.of("cache.ttl", "10m"));
    String where = " WHERE id > 1 AND p = 'b'";
    int n = QUICK ? 10 : 40;
    List<GlueCall>[] calls = new List[1];
    double[][] m;
    double getTable;
    double gatewayGetTable;
    double betweenPlans;
    try (AutoCloseable delayed = GlueSemantics.delayEachCall(delay)) {
      io.gluecat.glue.GlueGateway gateway = ((io.gluecat.catalog.AbstractGlueCatalog) tableCatalog(c)).parts().glue();
      double[] spaced = new double[n];
      m = medians(n, calls, i -> {
        long start = System.nanoTime();
        gateway.getTable(new TableName(db, "planned"));
        spaced[i] = (System.nanoTime() - start) / 1e6;
      }, "SELECT * FROM " + c + "." + db + ".planned" + where,
          "SELECT * FROM delta.`" + location + "`" + where,
          "SELECT * FROM spark_catalog.default." + ref + where,
          "SELECT * FROM " + cached + "." + db + ".planned" + where);
      double[] trips = new double[n];
      for (int i = 0; i < n; i++) {
        long start = System.nanoTime();
        glue.getTable(r -> r.databaseName(db).name("planned"));
        trips[i] = (System.nanoTime() - start) / 1e6;
      }
      Arrays.sort(trips);
      getTable = trips[n / 2];
      Arrays.sort(spaced);
      betweenPlans = spaced[n / 2];
      // the same through the catalog's own gateway, outside any statement (so every call reaches Glue)
      for (int i = 0; i < n; i++) {
        long start = System.nanoTime();
        gateway.getTable(new TableName(db, "planned"));
        trips[i] = (System.nanoTime() - start) / 1e6;
      }
      Arrays.sort(trips);
      gatewayGetTable = trips[n / 2];
    }
    double byName = m[0][0];
    double byPath = m[1][0];
    rows.add(String.format(Locale.ROOT, "| %s | %d ms | planning, Delta by name (gluecat) / by path | %d | 0 | %.2f / %.2f "
        + "| ratio %.3f (target <= 1.05 without delay); spark_catalog by name %.2f ms (ratio %.3f); gluecat with "
        + "cache.ttl (no Glue call) %.2f ms (ratio %.3f); GetTable round trip %.2f ms (through gluecat's gateway %.2f ms, between plans %.2f ms); analysis / optimization / "
        + "physical planning: by name %s, by path %s, spark_catalog %s, cache.ttl %s |", line, delay,
        calls[0].stream().filter(GlueCall::isGlue).count(), byName, byPath, byName / byPath, m[2][0],
        m[2][0] / byPath, m[3][0], m[3][0] / byPath, getTable, gatewayGetTable, betweenPlans, phases(m[0]), phases(m[1]), phases(m[2]),
        phases(m[3])));
    System.out.println(rows.get(rows.size() - 1));
  }

  /**
   * Planning time of queries over 1, 4, 12 and 30 parquet tables of {@code db} (issue #27), in two shapes: a
   * join of them all (Spark's own planning of a wide join grows fast with its width) and a UNION ALL of one
   * aggregate per table (a dashboard's shape, no join to plan). Each by name through a gluecat catalog
   * with the planning prefetch at 8 reads at once, at 16 (the default), at 32, and off
   * ({@code planning.prefetch-threads=1}: the calls and timing of a session without gluecat's extension); with
   * the cache across statements on ({@code cache.ttl}: no Glue call at all, so gluecat and Spark's own planning
   * time); and by path (``parquet.`<location>` ``: spark_catalog's path tables, no Glue, but each table's
   * schema read from its file). Medians as in {@link #planning}, of {@code rounds} rounds. Per shape, a last row
   * gives the 30-table / 1-table ratios and the planning time Glue's calls account for (each variant's time less
   * the cache.ttl one's).
   */
  private void planningTables(String line, String db, int rounds) throws Exception {
    String[] catalogs = {catalog(Map.of("planning.prefetch-threads", "8")),
        catalog(Map.of("planning.prefetch-threads", "16")),
        catalog(Map.of("planning.prefetch-threads", "32")), catalog(Map.of("planning.prefetch-threads", "1")),
        catalog(Map.of("cache.ttl", "10m"))};
    for (String shape : new String[] {"join", "union"}) {
      Map<Integer, double[]> totals = new java.util.LinkedHashMap<>();
      for (int k : new int[] {1, 4, 12, 30}) {
        String[] locations = new String[k];
        for (int i = 0; i < k; i++) {
          String table = String.format("t%04d", i);
          locations[i] = glue.getTable(r -> r.databaseName(db).name(table)).table().storageDescriptor().location();
        }
        String[] sqls = new String[catalogs.length + 1];
        for (int v = 0; v < sqls.length; v++) {
          String[] names = new String[k];
          for (int i = 0; i < k; i++) {
            names[i] = v < catalogs.length ? String.format("%s.%s.t%04d", catalogs[v], db, i)
                : "parquet.`" + locations[i] + "`";
          }
          sqls[v] = shape.equals("join") ? join(names) : union(names);
        }
        List<GlueCall>[] calls = new List[1];
        double[][] m;
        try (AutoCloseable delayed = GlueSemantics.delayEachCall(delay)) {
          m = medians(rounds, calls, i -> { }, sqls);
        }
        double[] total = new double[sqls.length];
        double[] analysis = new double[sqls.length];
        for (int v = 0; v < sqls.length; v++) {
          total[v] = m[v][0];
          analysis[v] = m[v][1];
        }
        totals.put(k, total);
        rows.add(String.format(Locale.ROOT, "| %s | %d ms | planning, %s of %d tables: prefetch 8 / 16 / 32 / off / "
            + "cache.ttl / by path | %d | 0 | %s | GetTable x%d at 8 (median plans: analysis, optimization, physical "
            + "planning); analysis: %s |", line, delay, shape, k, calls[0].stream().filter(GlueCall::isGlue).count(),
            slashed(total, "%.1f"), calls[0].stream().filter(c -> c.operation().equals("GetTable")).count(),
            slashed(analysis, "%.1f")));
        System.out.println(rows.get(rows.size() - 1));
      }
      double[] one = totals.get(1);
      double[] thirty = totals.get(30);
      double[] ratio = new double[one.length];
      double[] glue30 = new double[one.length - 2];
      double[] glue1 = new double[one.length - 2];
      for (int v = 0; v < one.length; v++) {
        ratio[v] = thirty[v] / one[v];
      }
      for (int v = 0; v < glue30.length; v++) {
        glue30[v] = thirty[v] - thirty[one.length - 2];
        glue1[v] = one[v] - one[one.length - 2];
      }
      rows.add(String.format(Locale.ROOT, "| %s | %d ms | planning, %s, 30 tables / 1 table: prefetch 8 / 16 / 32 / "
          + "off / cache.ttl / by path | | | %s | target with 25 ms per call: <= 1.5; less cache.ttl (Glue's share), "
          + "8 / 16 / 32 / off: 30 tables %s ms, 1 table %s ms |", line, delay, shape, slashed(ratio, "%.2f"),
          slashed(glue30, "%.1f"), slashed(glue1, "%.1f")));
      System.out.println(rows.get(rows.size() - 1));
    }
  }

  private static String join(String[] names) {
    StringBuilder q = new StringBuilder("SELECT count(*) FROM ");
    for (int i = 0; i < names.length; i++) {
      q.append(i == 0 ? "" : " JOIN ").append(names[i]).append(" t").append(i)
          .append(i == 0 ? "" : " ON t0.id = t" + i + ".id");
    }
    return q.toString();
  }

  /** One row per table: a dashboard's tiles read in one statement. */
  private static String union(String[] names) {
    StringBuilder q = new StringBuilder();
    for (int i = 0; i < names.length; i++) {
      q.append(i == 0 ? "" : " UNION ALL ").append("SELECT ").append(i).append(" AS tile, count(*) AS n, max(id) ")
          .append("AS top FROM ").append(names[i]);
    }
    return q.toString();
  }

  private static String slashed(double[] values, String format) {
    return String.join(" / ", Arrays.stream(values).mapToObj(v -> String.format(Locale.ROOT, format, v)).toList());
  }

  private static String phases(double[] m) {
    return String.format(Locale.ROOT, "%.1f / %.1f / %.1f", m[1], m[2], m[3]);
  }

  /**
   * Analyses, optimizes and plans {@code sql} without running it (Dataset.queryExecution is per line, hence
   * reflection); the nanoTime after each of the three phases (spark.sql analyses eagerly) into {@code at}.
   */
  private void plan(String sql, long[] at) {
    Object dataset = spark.sql(sql);
    at[0] = System.nanoTime();
    try {
      Object qe = dataset.getClass().getMethod("queryExecution").invoke(dataset);
      qe.getClass().getMethod("optimizedPlan").invoke(qe);
      at[1] = System.nanoTime();
      qe.getClass().getMethod("executedPlan").invoke(qe);
      at[2] = System.nanoTime();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Median planning time in ms of each of {@code sqls} over n rounds after warm-up, each round planning every
   * statement once, starting with another one each round; the first statement's calls of the last round
   * into calls[0]. Per statement: {total, analysis, optimization, physical planning}, each a median.
   * {@code afterRound} runs after each round (given its number), outside any statement.
   */
  private double[][] medians(int n, List<GlueCall>[] calls, Round afterRound, String... sqls) throws Exception {
    long[] at = new long[3];
    for (int i = 0; i < 10; i++) {
      for (String sql : sqls) {
        plan(sql, at);
      }
    }
    double[][][] times = new double[sqls.length][4][n];
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < sqls.length; j++) {
        int k = (i + j) % sqls.length;
        GlueCallRecorder.clear();
        long start = System.nanoTime();
        plan(sqls[k], at);
        times[k][0][i] = (at[2] - start) / 1e6;
        times[k][1][i] = (at[0] - start) / 1e6;
        times[k][2][i] = (at[1] - at[0]) / 1e6;
        times[k][3][i] = (at[2] - at[1]) / 1e6;
        if (k == 0) {
          calls[0] = GlueCallRecorder.calls();
        }
      }
      afterRound.run(i);
    }
    double[][] result = new double[sqls.length][4];
    for (int k = 0; k < sqls.length; k++) {
      for (int p = 0; p < 4; p++) {
        Arrays.sort(times[k][p]);
        result[k][p] = times[k][p][n / 2];
      }
    }
    return result;
  }

  /** Partitions of the Hive-format table of {@link #seedPartitions}: days x shards. */
  private static final int DAYS = 100;
  private static final int SHARDS = 100;

  /**
   * A Hive-format parquet table (as a crawler or Athena catalogs one) of 10,000 Glue partitions, (day date,
   * shard int), created 100 per BatchCreatePartition; only partition (2024-02-15, 42) has a file, of one row.
   * Returns database.table.
   */
  private String seedPartitions() throws IOException {
    String db = database();
    String location = "file:" + directory("events");
    glue.createTable(r -> r.databaseName(db).tableInput(t -> t.name("events").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("classification", "parquet"))
        .partitionKeys(k -> k.name("day").type("date"), k -> k.name("shard").type("int"))
        .storageDescriptor(sd -> sd.location(location)
            .inputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat")
            .outputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat")
            .columns(c -> c.name("id").type("bigint"))
            .serdeInfo(i -> i.serializationLibrary("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe")))));
    List<software.amazon.awssdk.services.glue.model.PartitionInput> page = new ArrayList<>();
    java.time.LocalDate first = java.time.LocalDate.of(2024, 1, 1);
    for (int d = 0; d < DAYS; d++) {
      for (int s = 0; s < SHARDS; s++) {
        String day = first.plusDays(d).toString();
        String shard = String.valueOf(s);
        page.add(software.amazon.awssdk.services.glue.model.PartitionInput.builder().values(day, shard)
            .storageDescriptor(sd -> sd.location(location + "/day=" + day + "/shard=" + shard)).build());
        if (page.size() == 100) {
          List<software.amazon.awssdk.services.glue.model.PartitionInput> batch = List.copyOf(page);
          glue.batchCreatePartition(r -> r.databaseName(db).tableName("events").partitionInputList(batch));
          page.clear();
        }
      }
    }
    spark.range(1).toDF("id").coalesce(1).write().parquet(location + "/day=2024-02-15/shard=42");
    return db + ".events";
  }

  /**
   * Queries of the 10,000-partition table through catalog {@code c}, each statement loading the table anew: one
   * partition (its filters become a GetPartitions expression), no partition filter (every partition, listed in
   * the catalog's segments), and a filter on partition keys Glue's grammar cannot express (every partition, then
   * pruned by Spark). GetPartitions is answered as Glue answers it (the kit filters, segments and pages by 1000),
   * with the pass's delay before each call. Median time of {@code rounds} runs; calls of the last run. Spark
   * lists the selected partitions' directories in the driver (the bench's files are local; on S3 listing
   * 10,000 prefixes costs far more than here).
   */
  private void partitions(String line, String c, String events, int rounds) throws Exception {
    String table = c + "." + events;
    String[][] queries = {
        {"one partition of 10,000 (day = ... AND shard = ...)",
            "SELECT count(*) FROM " + table + " WHERE day = DATE'2024-02-15' AND shard = 42"},
        {"no partition filter (10,000 partitions)", "SELECT count(*) FROM " + table},
        {"partition filter Glue cannot express (concat(day, shard) = ...)",
            "SELECT count(*) FROM " + table + " WHERE concat(CAST(day AS STRING), '/', CAST(shard AS STRING)) "
                + "= '2024-02-15/42'"}};
    String threshold = spark.conf().get("spark.sql.sources.parallelPartitionDiscovery.threshold");
    spark.conf().set("spark.sql.sources.parallelPartitionDiscovery.threshold", "100000");
    try (AutoCloseable asGlue = GlueSemantics.filterAndPagePartitions();
        AutoCloseable segments = GlueSemantics.segmentPartitions();
        AutoCloseable delayed = GlueSemantics.delayEachCall(delay)) {
      for (String[] query : queries) {
        double[] times = new double[rounds];
        List<GlueCall> calls = List.of();
        long count = -1;
        for (int i = 0; i < rounds; i++) {
          GlueCallRecorder.clear();
          long start = System.nanoTime();
          count = spark.sql(query[1]).collectAsList().get(0).getLong(0);
          times[i] = (System.nanoTime() - start) / 1e6;
          calls = GlueCallRecorder.calls();
        }
        Arrays.sort(times);
        int returned = calls.stream().filter(k -> k.operation().equals("GetPartitions") && k.returned() != null)
            .mapToInt(GlueCall::returned).sum();
        long filtered = calls.stream().filter(k -> k.operation().equals("GetPartitions") && k.expression() != null)
            .count();
        row(line, query[0], calls, (long) (times[rounds / 2] * 1e6), String.format(Locale.ROOT,
            "%d partitions returned by Glue, %d GetPartitions with an expression; median of %d; count %d", returned,
            filtered, rounds, count));
      }
      // references: Spark's own read of the one partition's directory (no catalog), and the GetPartitions round
      // trip of the one-partition query alone, most of which is MiniStack reading all 10,000 partitions to answer
      String db = events.substring(0, events.indexOf('.'));
      String partition = glue.getPartitions(r -> r.databaseName(db).tableName("events")
          .expression("(day = '2024-02-15') AND (shard = 42)")).partitions().get(0).storageDescriptor().location();
      double[] byPath = new double[rounds];
      double[] trip = new double[rounds];
      for (int i = 0; i < rounds; i++) {
        long start = System.nanoTime();
        spark.sql("SELECT count(*) FROM parquet.`" + partition + "`").collectAsList();
        byPath[i] = (System.nanoTime() - start) / 1e6;
        start = System.nanoTime();
        glue.getPartitions(r -> r.databaseName(db).tableName("events").expression("(day = '2024-02-15') AND (shard = 42)"));
        trip[i] = (System.nanoTime() - start) / 1e6;
      }
      Arrays.sort(byPath);
      Arrays.sort(trip);
      rows.add(String.format(Locale.ROOT, "| %s | %d ms | one partition by path [reference: no catalog] | 0 | 0 | %.1f "
          + "| median of %d; the one-partition query's GetPartitions alone: %.1f ms (MiniStack reads all 10,000 "
          + "partitions to answer it) |", line, delay, byPath[rounds / 2], rounds, trip[rounds / 2]));
      System.out.println(rows.get(rows.size() - 1));
    } finally {
      spark.conf().set("spark.sql.sources.parallelPartitionDiscovery.threshold", threshold);
    }
  }
}
