package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.ChildProcesses;
import io.gluecat.testkit.MiniStack;
import io.gluecat.testkit.PythonReaders;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Python readers of gluecat's tables through Glue (docs/python.md): Daft's Glue catalog, awswrangler and
 * MiniStack's Athena emulator (DuckDB over the Glue entries, not Athena) read Delta, parquet, csv and json tables
 * gluecat wrote on S3 with {@code s3://} locations, and gluecat reads the dataset tables awswrangler writes. The
 * tables are written once per JVM, then ONE Python process (the venv of {@link PythonReaders}) does every read and
 * write and prints what each reader saw; each test is one cell of the compatibility report.
 */
@ExtendWith(CompatResults.class)
class PythonReadersIT extends MiniStackSparkTest implements CompatResults.CatalogModeAware {

  private static final ObjectMapper JSON = new ObjectMapper();
  /** What every table holds, as the Python side prints rows: id,name,region, sorted. */
  private static final List<String> ROWS = List.of("0,event-0,eu", "1,event-1,us", "2,event-2,eu",
      "3,event-3,us", "4,event-4,eu", "5,event-5,us");
  private static final List<String> EU_ROWS = List.of("0,event-0,eu", "2,event-2,eu", "4,event-4,eu");
  /** The same rows without the partition column, as a reader that drops it prints them. */
  private static final List<String> ROWS_WITHOUT_REGION = ROWS.stream()
      .map(r -> r.substring(0, r.lastIndexOf(',')) + ",<missing>").sorted().collect(Collectors.toList());
  private static final String DAFT_CSV_LIMIT = "Daft's Glue catalog refuses gluecat's csv entries: they are in "
      + "Spark's own form (placeholder Location, one Glue column col array<string>: entry-format.md), and Daft "
      + "takes the location and columns from the StorageDescriptor";
  private static final String PLACEHOLDER_LIMIT = "gluecat's csv and json entries are in Spark's own form: the "
      + "Location is a placeholder and the only Glue column is col array<string> (entry-format.md), so a reader "
      + "that takes the location and columns from the StorageDescriptor finds neither";

  private static Fixture fixture;

  @Override
  public String catalogMode() {
    return "named";
  }

  /** The tables gluecat wrote, the reader process's output, and the catalog to read awswrangler's tables with. */
  private static final class Fixture {
    final String catalog;
    final String db;
    final Map<String, String> tables = new LinkedHashMap<>();
    JsonNode cells;
    double seconds;

    Fixture(String catalog, String db) {
      this.catalog = catalog;
      this.db = db;
    }
  }

  /** Why the fixture could not be made: every later test fails with it instead of making it again. */
  private static Throwable fixtureFailure;

  private static synchronized Fixture fixture() {
    if (fixtureFailure != null) {
      throw new AssertionError("the tables or the reader process failed in an earlier test", fixtureFailure);
    }
    if (fixture == null) {
      try {
        fixture = makeFixture();
      } catch (RuntimeException | Error e) {
        fixtureFailure = e;
        throw e;
      }
    }
    return fixture;
  }

  private static Fixture makeFixture() {
    spark().sql("SELECT 1").collectAsList();   // started apart: in a suite run the session is up already
    long start = System.nanoTime();
    Fixture made = write();
    System.err.printf("[PythonReadersIT] tables written in %.1f s%n", (System.nanoTime() - start) / 1e9);
    made.cells = readWithPython(made);
    return made;
  }

  /**
   * A catalog whose tables live on a MiniStack bucket under {@code s3://} (S3A serves the scheme, a catalog option),
   * and the eight tables: Delta, parquet, csv and json, each unpartitioned and partitioned by region; and one more
   * parquet table at an {@code s3a://} location.
   */
  private static Fixture write() {
    String bucket = newS3ABucket(MINISTACK);
    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    MINISTACK.s3aSettings(bucket).forEach((k, v) -> options.put("hadoop." + k, v));
    options.put("hadoop.fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    String catalog = newCatalog(options);
    String db = unique("py");
    GLUE.createDatabase(r -> r.databaseInput(d -> d.name(db).locationUri("s3://" + bucket + "/warehouse/" + db)));
    Fixture f = new Fixture(catalog, db);
    f.tables.put("bucket", bucket);
    String select = " AS SELECT id, concat('event-', id) AS name, CASE WHEN id % 2 = 0 THEN 'eu' ELSE 'us' END"
        + " AS region FROM range(0, 6)";
    Map<String, String> statements = new LinkedHashMap<>();
    for (String format : List.of("delta", "parquet", "csv", "json")) {
      for (boolean partitioned : List.of(false, true)) {
        String kind = format + (partitioned ? "-partitioned" : "");
        String table = kind.replace('-', '_');
        f.tables.put(kind, table);
        statements.put(kind, "CREATE TABLE " + catalog + "." + db + "." + table + " USING " + format
            + (partitioned ? " PARTITIONED BY (region)" : "") + select);
      }
    }
    // the same parquet table at an s3a:// location, as a catalog without the s3 scheme writes them
    f.tables.put("parquet-s3a", "parquet_s3a");
    statements.put("parquet-s3a", "CREATE TABLE " + catalog + "." + db + ".parquet_s3a USING parquet LOCATION 's3a://"
        + bucket + "/s3a/parquet_s3a'" + select);
    // a few at a time: each is mostly waiting on Glue and S3, and the suite's time is tight
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> writes = new ArrayList<>();
      statements.values().forEach(statement -> writes.add(pool.submit(() -> sql(statement))));
      for (Future<?> write : writes) {
        write.get(5, TimeUnit.MINUTES);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException | TimeoutException e) {
      throw new AssertionError("writing the tables failed: " + e.getCause(), e);
    } finally {
      pool.shutdownNow();
    }
    return f;
  }

  private static JsonNode readWithPython(Fixture f) {
    Path python = PythonReaders.python();
    try {
      Path dir = Files.createDirectories(scratch().resolve(unique("pyreaders")));
      Path script = dir.resolve("read_tables.py");
      try (InputStream in = PythonReadersIT.class.getResourceAsStream("/pyreaders/read_tables.py")) {
        Files.copy(in, script);
      }
      Map<String, Object> spec = new LinkedHashMap<>();
      spec.put("endpoint", MINISTACK.endpoint().toString());
      spec.put("region", MiniStack.REGION.id());
      spec.put("accessKey", MiniStack.ACCESS_KEY_ID);
      spec.put("secretKey", MiniStack.SECRET_ACCESS_KEY);
      spec.put("database", f.db);
      spec.put("bucket", f.tables.get("bucket"));
      Map<String, String> tables = new LinkedHashMap<>(f.tables);
      tables.remove("bucket");
      spec.put("tables", tables);
      spec.put("written", "by_awswrangler");
      spec.put("writtenPartitioned", "by_awswrangler_partitioned");
      Path specFile = dir.resolve("spec.json");
      JSON.writeValue(specFile.toFile(), spec);
      Path out = dir.resolve("stdout.json");
      Path err = dir.resolve("stderr.log");
      long start = System.nanoTime();
      ProcessBuilder builder = new ProcessBuilder(python.toString(), script.toString(), specFile.toString())
          .redirectOutput(out.toFile()).redirectError(err.toFile());
      builder.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
      Process process = builder.start();
      if (!process.waitFor(5, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        fail("the reader process did not end in 5 minutes; " + ChildProcesses.logTail(err, 20));
      }
      f.seconds = (System.nanoTime() - start) / 1e9;
      assertEquals(0, process.exitValue(), () -> "the reader process failed: " + ChildProcesses.logTail(err, 30));
      JsonNode result = JSON.readTree(out.toFile());
      System.err.println("[PythonReadersIT] reader process " + String.format("%.1f", f.seconds) + " s, by reader "
          + result.get("seconds") + "\n" + result.get("cells").toPrettyString());
      return result.get("cells");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The rows (or names) a reader gave for a cell, failing with what it said when it gave none. */
  private static List<String> rowsOf(String cell) {
    JsonNode node = fixture().cells.get(cell);
    assertNotNull(node, "no result for " + cell);
    assertFalse(node.has("error"), () -> cell + ": " + node.get("error").asText() + "\n" + node.path("trace").asText());
    return StreamSupport.stream(node.get("rows").spliterator(), false).map(JsonNode::asText)
        .collect(Collectors.toList());
  }

  /** What a reader said when it failed, failing when it did not. */
  private static String errorOf(String cell) {
    JsonNode node = fixture().cells.get(cell);
    assertNotNull(node, "no result for " + cell);
    assertTrue(node.has("error"), () -> cell + " read " + node.get("rows") + " where a failure was expected");
    return node.get("error").asText();
  }

  private static String table(String kind) {
    return fixture().tables.get(kind);
  }

  // ---------------------------------------------------------------- Daft's Glue catalog

  @Test
  @CompatCase(id = "python-delta", writer = "gluecat", reader = "daft", title = "Delta on S3, read by name")
  void daftReadsDelta() {
    assertEquals(ROWS, rowsOf("daft/delta"));
  }

  @Test
  @CompatCase(id = "python-delta-partitioned", writer = "gluecat", reader = "daft",
      title = "Delta on S3, partitioned, read by name")
  void daftReadsPartitionedDelta() {
    assertEquals(ROWS, rowsOf("daft/delta-partitioned"));
  }

  @Test
  @CompatCase(id = "python-parquet", writer = "gluecat", reader = "daft", title = "parquet on S3, read by name")
  void daftReadsParquet() {
    assertEquals(ROWS, rowsOf("daft/parquet"));
  }

  @Test
  @CompatCase(id = "python-parquet-partitioned", writer = "gluecat", reader = "daft",
      title = "parquet on S3, partitioned, read by name",
      limit = "Daft's Glue catalog lists only the files directly under a parquet table's location, not its "
          + "partition directories, so it finds no file")
  void daftCannotReadPartitionedParquet() {
    assertTrue(errorOf("daft/parquet-partitioned").contains("not found"), errorOf("daft/parquet-partitioned"));
  }

  @Test
  @CompatCase(id = "python-parquet-s3a", writer = "gluecat", reader = "daft",
      title = "parquet at an s3a:// location, read by name")
  void daftReadsParquetAtAnS3aLocation() {
    assertEquals(ROWS, rowsOf("daft/parquet-s3a"));
  }

  @Test
  @CompatCase(id = "python-csv", writer = "gluecat", reader = "daft", title = "csv on S3, read by name",
      limit = DAFT_CSV_LIMIT)
  void daftCannotReadCsv() {
    assertTrue(errorOf("daft/csv").contains("classification='csv'"), errorOf("daft/csv"));
  }

  @Test
  @CompatCase(id = "python-csv-partitioned", writer = "gluecat", reader = "daft",
      title = "csv on S3, partitioned, read by name", limit = DAFT_CSV_LIMIT)
  void daftCannotReadPartitionedCsv() {
    assertTrue(errorOf("daft/csv-partitioned").contains("classification='csv'"), errorOf("daft/csv-partitioned"));
  }

  @Test
  @CompatCase(id = "python-json", writer = "gluecat", reader = "daft", title = "json on S3, read by name",
      limit = "Daft's Glue catalog has no json table: it refuses classification json")
  void daftCannotReadJson() {
    assertTrue(errorOf("daft/json").contains("classification='json'"), errorOf("daft/json"));
  }

  @Test
  @CompatCase(id = "python-json-partitioned", writer = "gluecat", reader = "daft",
      title = "json on S3, partitioned, read by name",
      limit = "Daft's Glue catalog has no json table: it refuses classification json")
  void daftCannotReadPartitionedJson() {
    assertTrue(errorOf("daft/json-partitioned").contains("classification='json'"), errorOf("daft/json-partitioned"));
  }

  // ---------------------------------------------------------------- awswrangler

  @Test
  @CompatCase(id = "python-parquet", writer = "gluecat", reader = "awswrangler", title = "parquet on S3, read by name")
  void awswranglerReadsParquet() {
    assertEquals(ROWS, rowsOf("awswrangler/parquet"));
  }

  @Test
  @CompatCase(id = "python-parquet-s3a", writer = "gluecat", reader = "awswrangler",
      title = "parquet at an s3a:// location, read by name",
      limit = "awswrangler takes only s3:// paths and refuses a table whose location is s3a://; gluecat writes "
          + "s3:// locations where the catalog has S3A serve the s3 scheme (hadoop.fs.s3.impl, docs/python.md)")
  void awswranglerRefusesAnS3aLocation() {
    assertTrue(errorOf("awswrangler/parquet-s3a").contains("MUST start with 's3://'"),
        errorOf("awswrangler/parquet-s3a"));
  }

  @Test
  @CompatCase(id = "python-parquet-partitioned", writer = "gluecat", reader = "awswrangler",
      title = "parquet on S3, partitioned, read by name")
  void awswranglerReadsPartitionedParquet() {
    assertEquals(ROWS, rowsOf("awswrangler/parquet-partitioned"));
  }

  @Test
  @CompatCase(id = "python-parquet-partition-filter", writer = "gluecat", reader = "awswrangler",
      title = "parquet on S3, partitioned, read with a partition filter (region = 'eu')")
  void awswranglerReadsOnePartition() {
    assertEquals(EU_ROWS, rowsOf("awswrangler/parquet-partition-filter"));
  }

  @Test
  @CompatCase(id = "python-table-listing", writer = "gluecat", reader = "awswrangler",
      title = "the database's tables listed (wr.catalog.tables)")
  void awswranglerListsTheTables() {
    List<String> expected = new ArrayList<>(fixture().tables.values());
    expected.remove(fixture().tables.get("bucket"));
    expected.sort(null);
    assertEquals(expected, rowsOf("awswrangler/table-listing").stream()
        .filter(t -> !t.startsWith("by_awswrangler")).collect(Collectors.toList()));
  }

  @Test
  @CompatCase(id = "python-partition-listing", writer = "gluecat", reader = "awswrangler",
      title = "a partitioned parquet table's partitions listed (wr.catalog.get_parquet_partitions)")
  void awswranglerListsThePartitions() {
    assertEquals(List.of("eu", "us"), rowsOf("awswrangler/partition-listing"));
  }

  // ---------------------------------------------------------------- MiniStack's Athena emulator

  @Test
  @CompatCase(id = "python-parquet", writer = "gluecat", reader = "athena-emulator",
      title = "parquet on S3, read by name")
  void athenaEmulatorReadsParquet() {
    assertEquals(ROWS, rowsOf("athena-emulator/parquet"));
  }

  @Test
  @CompatCase(id = "python-parquet-s3a", writer = "gluecat", reader = "athena-emulator",
      title = "parquet at an s3a:// location, read by name")
  void athenaEmulatorReadsParquetAtAnS3aLocation() {
    assertEquals(ROWS, rowsOf("athena-emulator/parquet-s3a"));
  }

  @Test
  @CompatCase(id = "python-parquet-partitioned", writer = "gluecat", reader = "athena-emulator",
      title = "parquet on S3, partitioned, read by name")
  void athenaEmulatorReadsPartitionedParquet() {
    assertEquals(ROWS, rowsOf("athena-emulator/parquet-partitioned"));
  }

  @Test
  @CompatCase(id = "python-parquet-partition-filter", writer = "gluecat", reader = "athena-emulator",
      title = "parquet on S3, partitioned, read with a partition filter (region = 'eu')")
  void athenaEmulatorReadsOnePartition() {
    assertEquals(EU_ROWS, rowsOf("athena-emulator/parquet-partition-filter"));
  }

  @Test
  @CompatCase(id = "python-csv", writer = "gluecat", reader = "athena-emulator", title = "csv on S3, read by name",
      limit = PLACEHOLDER_LIMIT)
  void athenaEmulatorCannotReadCsv() {
    assertTrue(errorOf("athena-emulator/csv").contains("column \"id\" not found"), errorOf("athena-emulator/csv"));
  }

  @Test
  @CompatCase(id = "python-csv-partitioned", writer = "gluecat", reader = "athena-emulator",
      title = "csv on S3, partitioned, read by name", limit = PLACEHOLDER_LIMIT)
  void athenaEmulatorCannotReadPartitionedCsv() {
    assertTrue(errorOf("athena-emulator/csv-partitioned").contains("column \"id\" not found"),
        errorOf("athena-emulator/csv-partitioned"));
  }

  @Test
  @CompatCase(id = "python-json", writer = "gluecat", reader = "athena-emulator", title = "json on S3, read by name",
      limit = PLACEHOLDER_LIMIT)
  void athenaEmulatorCannotReadJson() {
    assertTrue(errorOf("athena-emulator/json").contains("column \"id\" not found"), errorOf("athena-emulator/json"));
  }

  @Test
  @CompatCase(id = "python-json-partitioned", writer = "gluecat", reader = "athena-emulator",
      title = "json on S3, partitioned, read by name", limit = PLACEHOLDER_LIMIT)
  void athenaEmulatorCannotReadPartitionedJson() {
    assertTrue(errorOf("athena-emulator/json-partitioned").contains("column \"id\" not found"),
        errorOf("athena-emulator/json-partitioned"));
  }

  // ---------------------------------------------------------------- awswrangler writes, gluecat reads

  @Test
  @CompatCase(id = "python-awswrangler-dataset", writer = "awswrangler", reader = "gluecat",
      title = "parquet dataset with its Glue table (wr.s3.to_parquet, dataset=True)")
  void gluecatReadsAnAwswranglerDataset() {
    rowsOf("awswrangler-write/dataset");
    Fixture f = fixture();
    assertEquals(List.of("[0,event-0,eu]", "[1,event-1,us]", "[2,event-2,eu]", "[3,event-3,us]", "[4,event-4,eu]",
        "[5,event-5,us]"),
        rows("SELECT id, name, region FROM " + f.catalog + "." + f.db + ".by_awswrangler ORDER BY id"));
  }

  @Test
  @CompatCase(id = "python-awswrangler-dataset-partitioned", writer = "awswrangler", reader = "gluecat",
      title = "partitioned parquet dataset, appended to (wr.s3.to_parquet, partition_cols)")
  void gluecatReadsAPartitionedAwswranglerDataset() {
    rowsOf("awswrangler-write/dataset-partitioned");
    Fixture f = fixture();
    String table = f.catalog + "." + f.db + ".by_awswrangler_partitioned";
    assertEquals(List.of("[0,event-0,eu]", "[1,event-1,us]", "[2,event-2,eu]", "[3,event-3,us]", "[4,event-4,eu]",
        "[5,event-5,ap]"), rows("SELECT id, name, region FROM " + table + " ORDER BY id"));
    assertEquals(List.of("[0,event-0,eu]", "[2,event-2,eu]", "[4,event-4,eu]"),
        rows("SELECT id, name, region FROM " + table + " WHERE region = 'eu' ORDER BY id"));
  }
}
