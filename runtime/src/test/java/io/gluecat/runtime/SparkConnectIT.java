package io.gluecat.runtime;

import static io.gluecat.runtime.PySparkProcesses.lastLines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.gluecat.testkit.MiniStack;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * gluecat behind Spark Connect: a Connect server (spark-submit of Spark's {@code SparkConnectServer} from this
 * row's PySpark install, {@code bin/pyspark-venv}) carries the runtime jar ({@code --jars}) and Delta
 * ({@code --packages}), with gluecat configured twice in the same server, as the named catalog {@code lake} and
 * as {@code spark_catalog}, both on MiniStack's Glue. A Python Connect client with no JVM of its own
 * ({@code pyspark-client} on Spark 4, PySpark's Connect client on 3.5; {@code bin/pyspark-venv <version> client})
 * runs {@code connect_journey.py} once for both catalogs; the tests check its rows and the Glue entries it left.
 * One server and one client process per row. {@code -Dgluecat.skipPySpark} skips it.
 */
@ExtendWith(CompatResults.class)
class SparkConnectIT {
  private static final String NAMED = "lake";
  private static final String SESSION = "spark_catalog";
  private static final String HIVE_DB = "connect_hive";
  private static final String HIVE_TABLE = "clicks";
  private static final Map<String, String> DATABASES = Map.of(NAMED, "connect_named", SESSION, "connect_session");

  private static Path work;
  private static MiniStack ministack;
  private static Process server;
  private static Path serverLog;
  private static Journey journey;

  @BeforeAll
  static void startServerAndRunTheJourney() throws Exception {
    assumeFalse(Boolean.parseBoolean(System.getProperty("gluecat.skipPySpark", "false")),
        "PySpark checks skipped (-Dgluecat.skipPySpark)");
    Path repo = Paths.get(Artifacts.property("gluecat.repo"));
    work = Paths.get(Artifacts.property("gluecat.pyspark.work")).resolve("connect");
    // a run without `mvn clean` starts afresh: the warehouses' old table folders would be in the way
    PySparkProcesses.deleteTree(work);
    Files.createDirectories(work);
    String version = Artifacts.property("gluecat.pyspark.version");
    Path serverVenv = PySparkProcesses.venv(repo, work, version, "");
    Path clientVenv = PySparkProcesses.venv(repo, work, version, "client");
    ministack = MiniStack.shared();
    createHiveFormatTable();

    long start = System.nanoTime();
    int port = freePort();
    server = startServer(serverVenv, port);
    long started = System.nanoTime();
    Path script = Paths.get(Artifacts.property("gluecat.pyspark.job")).resolveSibling("connect_journey.py");
    List<String> command = new ArrayList<>(List.of(clientVenv.resolve("bin").resolve("python").toString(),
        script.toString(), "sc://127.0.0.1:" + port));
    for (String catalog : List.of(NAMED, SESSION)) {
      command.add(catalog + ":" + DATABASES.get(catalog) + ":" + HIVE_DB + "." + HIVE_TABLE);
    }
    String out = runClient(command);
    long done = System.nanoTime();
    Files.writeString(work.resolve("timing.txt"), String.format("server start %d s, journey %d s%n",
        TimeUnit.NANOSECONDS.toSeconds(started - start), TimeUnit.NANOSECONDS.toSeconds(done - started)));
    journey = new Journey(out);
  }

  @AfterAll
  static void stopServer() throws InterruptedException {
    if (server != null) {
      server.descendants().forEach(ProcessHandle::destroy);
      server.destroy();
      if (!server.waitFor(30, TimeUnit.SECONDS)) {
        server.descendants().forEach(ProcessHandle::destroyForcibly);
        server.destroyForcibly();
      }
    }
  }

  static final String JOURNEY_TITLE = "README journey from a Python Spark Connect client: Delta create, INSERT, "
      + "writeTo, saveAsTable (partitioned parquet), view, CONVERT TO DELTA, SHOW TABLES";

  @Test
  @CompatCase(id = "connect-readme-journey", writer = "gluecat", reader = "spark-connect", title = JOURNEY_TITLE)
  void theJourneyRunsThroughConnectInNamedMode() {
    assertJourney(NAMED);
  }

  @Test
  @CompatCase(id = "connect-readme-journey", writer = "gluecat", reader = "spark-connect", title = JOURNEY_TITLE)
  void theJourneyRunsThroughConnectInSessionMode() {
    assertJourney(SESSION);
  }

  static final String HIVE_TITLE = "Hive-format CSV (LazySimpleSerDe) with Glue partition objects, read from a "
      + "Spark Connect client, with a partition filter";

  @Test
  @CompatCase(id = "connect-hive-csv-partitioned", writer = "athena", reader = "spark-connect", title = HIVE_TITLE)
  void aHiveFormatTableReadsThroughConnectInNamedMode() {
    assertHiveFormatRead(NAMED);
  }

  @Test
  @CompatCase(id = "connect-hive-csv-partitioned", writer = "athena", reader = "spark-connect", title = HIVE_TITLE)
  void aHiveFormatTableReadsThroughConnectInSessionMode() {
    assertHiveFormatRead(SESSION);
  }

  static final String SHOW_PARTITIONS_TITLE = "SHOW PARTITIONS from a Spark Connect client, answered from Glue's "
      + "partition objects (a Hive-format CSV table and the journey's partitioned parquet table; gluecat's session "
      + "extension)";

  @Test
  @CompatCase(id = "connect-show-partitions-hive", writer = "athena", reader = "spark-connect",
      title = SHOW_PARTITIONS_TITLE)
  void showPartitionsListsGluePartitionsInNamedMode() {
    assertShowPartitions(NAMED);
  }

  @Test
  @CompatCase(id = "connect-show-partitions-hive", writer = "athena", reader = "spark-connect",
      title = SHOW_PARTITIONS_TITLE)
  void showPartitionsListsGluePartitionsInSessionMode() {
    assertShowPartitions(SESSION);
  }

  /**
   * Delta answers SHOW PARTITIONS itself: Delta 4.4 (the 4.1 and 4.2 rows) lists them, Delta before 4.4.0 (3.3 on
   * the 3.5 row, 4.0 on the 4.0 row; delta-io/delta#6102 added it) refuses.
   */
  @Test
  void showPartitionsOfADeltaTableIsDeltasAnswer() {
    for (String catalog : List.of(NAMED, SESSION)) {
      String delta = journey.step(catalog, "delta show partitions");
      if (List.of("spark-3.5", "spark-4.0").contains(Artifacts.property("gluecat.matrix.row"))) {
        assertTrue(delta.startsWith("failed: AnalysisException: [INVALID_PARTITION_OPERATION.PARTITION_MANAGEMENT_IS_UNSUPPORTED]")
            && delta.contains(DATABASES.get(catalog) + "`.`orders`"), delta);
      } else {
        assertEquals("ok", delta, catalog + "\n" + journey.tail());
        assertEquals("[[\"eu\"], [\"us\"]]", journey.result(catalog + " orders_partitions"));
      }
    }
  }

  private static void assertJourney(String catalog) {
    assertEquals("[[\"pyspark.sql.connect.session\"]]", journey.result("client"), "the client is not a Connect session");
    for (String step : List.of("create namespace", "delta create", "delta insert", "delta writeTo append", "delta select",
        "parquet saveAsTable", "parquet select", "view create", "view select",
        "convert to delta", "converted select", "converted format", "show tables")) {
      assertEquals("ok", journey.step(catalog, step), catalog + " " + step + "\n" + journey.tail());
    }
    String db = DATABASES.get(catalog);
    assertEquals("[[\"eu\", 2, 17.25], [\"us\", 1, 20.5]]", journey.result(catalog + " orders"));
    assertEquals("[[1, \"click\", \"d1\"], [2, \"view\", \"d1\"], [3, \"click\", \"d2\"]]", journey.result(catalog + " events"));
    assertEquals("[[1, 10.0], [3, 7.25]]", journey.result(catalog + " eu_orders"));
    assertEquals("[[1, \"a\"], [2, \"b\"]]", journey.result(catalog + " legacy"));
    assertEquals("[[\"delta\"]]", journey.result(catalog + " legacy_format"));
    // in session mode SHOW TABLES lists the view too, as Spark's own catalog does; a named catalog lists tables only
    assertEquals(catalog.equals(SESSION)
        ? List.of(db + "|eu_orders|false", db + "|events|false", db + "|legacy|false", db + "|orders|false")
        : List.of(db + "|events|false", db + "|legacy|false", db + "|orders|false"),
        journey.rows(catalog + " tables"));

    try (GlueClient glue = ministack.glue()) {
      Table orders = glue.getTable(b -> b.databaseName(db).name("orders")).table();
      assertEquals("DELTA", orders.parameters().get("table_type"));
      Table events = glue.getTable(b -> b.databaseName(db).name("events")).table();
      assertEquals("parquet", events.parameters().get("spark.sql.sources.provider"));
      assertEquals(List.of("day"), events.partitionKeys().stream().map(Column::name).collect(Collectors.toList()));
      List<String> partitions = glue.getPartitionsPaginator(b -> b.databaseName(db).tableName("events")).stream()
          .flatMap(page -> page.partitions().stream()).map(p -> String.join("/", p.values())).sorted().collect(Collectors.toList());
      assertEquals(List.of("d1", "d2"), partitions, "Glue partition objects of " + db + ".events");
      Table view = glue.getTable(b -> b.databaseName(db).name("eu_orders")).table();
      assertEquals("VIRTUAL_VIEW", view.tableType());
      Table legacy = glue.getTable(b -> b.databaseName(db).name("legacy")).table();
      assertEquals("DELTA", legacy.parameters().get("table_type"));
      assertEquals("delta", legacy.parameters().get("spark.sql.sources.provider"));
    }
  }

  private static void assertHiveFormatRead(String catalog) {
    assertEquals("ok", journey.step(catalog, "hive-format select"), journey.tail());
    assertEquals("[[1, \"click\", \"d1\"], [2, \"view\", \"d1\"], [3, \"click\", \"d2\"]]", journey.result(catalog + " hive"));
    assertEquals("ok", journey.step(catalog, "hive-format partition filter"), journey.tail());
    assertEquals("[[3]]", journey.result(catalog + " hive_d2"));
  }

  private static void assertShowPartitions(String catalog) {
    assertEquals("ok", journey.step(catalog, "hive-format show partitions"), catalog + "\n" + journey.tail());
    assertEquals("[[\"day=d1\"], [\"day=d2\"]]", journey.result(catalog + " hive_partitions"));
    assertEquals("ok", journey.step(catalog, "parquet show partitions"), catalog + "\n" + journey.tail());
    assertEquals("[[\"day=d1\"], [\"day=d2\"]]", journey.result(catalog + " events_partitions"));
  }

  /**
   * The Hive-format entry a crawler or Athena's DDL writes (entry-format.md, "Hive-format entries"): CSV text through
   * LazySimpleSerDe, partition key {@code day}, one Glue partition object per directory, each with its storage.
   */
  private static void createHiveFormatTable() throws IOException {
    Path root = work.resolve("hive").resolve(HIVE_TABLE);
    Map<String, String> files = new LinkedHashMap<>();
    files.put("d1", "1,click\n2,view\n");
    files.put("d2", "3,click\n");
    StorageDescriptor.Builder storage = StorageDescriptor.builder()
        .inputFormat("org.apache.hadoop.mapred.TextInputFormat")
        .outputFormat("org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat")
        .columns(Column.builder().name("id").type("bigint").build(), Column.builder().name("kind").type("string").build())
        .serdeInfo(s -> s.serializationLibrary("org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe")
            .parameters(Map.of("field.delim", ",", "serialization.format", ",")));
    try (GlueClient glue = ministack.glue()) {
      glue.createDatabase(b -> b.databaseInput(d -> d.name(HIVE_DB)));
      glue.createTable(b -> b.databaseName(HIVE_DB).tableInput(t -> t.name(HIVE_TABLE).tableType("EXTERNAL_TABLE")
          .parameters(Map.of("classification", "csv", "EXTERNAL", "TRUE"))
          .partitionKeys(Column.builder().name("day").type("string").build())
          .storageDescriptor(storage.copy().location(root.toUri().toString()).build())));
      for (Map.Entry<String, String> partition : files.entrySet()) {
        Path dir = root.resolve("day=" + partition.getKey());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("part-0.csv"), partition.getValue());
        glue.createPartition(b -> b.databaseName(HIVE_DB).tableName(HIVE_TABLE).partitionInput(p -> p
            .values(partition.getKey()).storageDescriptor(storage.copy().location(dir.toUri().toString()).build())));
      }
    }
  }

  /**
   * The server as a user starts one: spark-submit of SparkConnectServer, gluecat's runtime jar by --jars, Delta
   * by --packages (plus, on Spark 3.5, whose PySpark carries no Connect server, Spark's spark-connect module), the
   * catalogs by --conf. Returns once the server says it listens; fails with its log if it exits first.
   */
  private static Process startServer(Path venv, int port) throws Exception {
    String packages = Artifacts.property("gluecat.delta.package");
    String connect = System.getProperty("gluecat.connect.packages", "");
    if (!connect.isBlank()) {
      packages = packages + "," + connect;
    }
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.connect.grpc.binding.address", "127.0.0.1");
    conf.put("spark.connect.grpc.binding.port", Integer.toString(port));
    conf.put("spark.sql.extensions", "io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension");
    for (String catalog : List.of(SESSION, NAMED)) {
      String prefix = "spark.sql.catalog." + catalog;
      conf.put(prefix, "io.gluecat.GlueCatalog");
      conf.put(prefix + ".region", MiniStack.REGION.id());
      conf.put(prefix + ".glue.endpoint", ministack.endpoint().toString());
      conf.put(prefix + ".warehouse", Files.createDirectories(work.resolve("warehouse-" + catalog)).toUri().toString());
    }
    conf.put("spark.ui.enabled", "false");
    conf.put("spark.sql.shuffle.partitions", "2");
    conf.put("spark.databricks.delta.snapshotPartitions", "2");
    // an Ivy home of its own: this class runs beside PySparkSubmitIT (runtime/pom.xml's two forks), which clears
    // gluecat from its Ivy cache, and Ivy's cache takes no lock against a second resolver
    conf.put("spark.jars.ivy", Paths.get(Artifacts.property("gluecat.repo")).resolve(".tools").resolve("ivy-connect")
        .toString());
    conf.put("spark.jars.ivySettings", writeIvySettings().toString());
    List<String> command = new ArrayList<>(List.of(venv.resolve("bin").resolve("spark-submit").toString(),
        "--class", "org.apache.spark.sql.connect.service.SparkConnectServer", "--name", "gluecat-connect",
        "--master", "local[2]",
        "--driver-java-options", "-Daws.accessKeyId=" + MiniStack.ACCESS_KEY_ID + " -Daws.secretAccessKey="
            + MiniStack.SECRET_ACCESS_KEY + " " + PySparkSubmitIT.SHORT_LIVED_JVM,
        "--jars", Artifacts.runtimeJar().toString(),
        "--packages", packages));
    conf.forEach((k, v) -> command.addAll(List.of("--conf", k + "=" + v)));
    serverLog = work.resolve("server.log");
    Files.writeString(serverLog, String.join(" ", command) + "\n\n");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(serverLog.toFile()));
    PySparkProcesses.cleanEnvironment(pb.environment(), venv, work);
    Process process = pb.start();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    while (System.nanoTime() < deadline) {
      String log = Files.readString(serverLog, StandardCharsets.UTF_8);
      if (log.contains("Spark Connect server started")) {
        return process;
      }
      if (!process.isAlive()) {
        fail("the Spark Connect server exited with " + process.exitValue() + " before it listened; " + serverLog
            + ":\n" + lastLines(log));
      }
      Thread.sleep(250);
    }
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    fail("the Spark Connect server did not start in 5 minutes; see " + serverLog);
    return process;
  }

  private static String runClient(List<String> command) throws Exception {
    Path log = work.resolve("client.log");
    Files.writeString(log, String.join(" ", command) + "\n\n");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    PySparkProcesses.cleanEnvironment(pb.environment(), Paths.get(command.get(0)).getParent().getParent(), work);
    pb.environment().put("PYTHONWARNINGS", "ignore");
    Process process = pb.start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.destroyForcibly();
      fail("the Connect client did not finish in 10 minutes; see " + log);
    }
    String out = Files.readString(log, StandardCharsets.UTF_8);
    if (process.exitValue() != 0 || !out.contains("CONNECT-JOURNEY-DONE")) {
      fail("the Connect client exited with " + process.exitValue() + "; " + log + ":\n" + lastLines(out)
          + "\nserver log " + serverLog + ":\n" + lastLines(Files.readString(serverLog, StandardCharsets.UTF_8)));
    }
    return out;
  }

  /** Delta (and spark-connect on 3.5) from Maven Central only, as PySparkSubmitIT explains. */
  private static Path writeIvySettings() throws IOException {
    Path file = work.resolve("ivysettings.xml");
    Files.writeString(file, "<ivysettings>\n  <settings defaultResolver=\"central\"/>\n  <resolvers>\n"
        + "    <ibiblio name=\"central\" m2compatible=\"true\"/>\n  </resolvers>\n</ivysettings>\n");
    return file;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      return socket.getLocalPort();
    }
  }

  /** The client's output: its "STEP" outcomes and "RESULT" rows. */
  private static final class Journey {
    private final String out;
    private final Map<String, String> steps = new LinkedHashMap<>();
    private final Map<String, String> results = new LinkedHashMap<>();

    Journey(String out) {
      this.out = out;
      out.lines().forEach(line -> {
        if (line.startsWith("STEP ")) {
          int colon = line.indexOf(": ");
          steps.put(line.substring(5, colon), line.substring(colon + 2));
        } else if (line.startsWith("RESULT ")) {
          int json = line.indexOf(" [");
          results.put(line.substring(7, json), line.substring(json + 1));
        }
      });
    }

    String step(String catalog, String name) {
      String outcome = steps.get(catalog + " " + name);
      assertTrue(outcome != null, "no step " + catalog + " " + name + " in the client's output:\n" + tail());
      return outcome;
    }

    String result(String name) {
      String rows = results.get(name);
      assertTrue(rows != null, "no result " + name + " in the client's output:\n" + tail());
      return rows;
    }

    /** SHOW TABLES rows as "db|table|temporary", sorted (the listing's order is Glue's). */
    List<String> rows(String name) {
      String json = result(name);
      return java.util.Arrays.stream(json.substring(2, json.length() - 2).split("\\], \\["))
          .map(r -> r.replace("\"", "").replace(", ", "|")).sorted().collect(Collectors.toList());
    }

    String tail() {
      return lastLines(out);
    }
  }
}
