package io.gluecat.runtime;

import static io.gluecat.runtime.PySparkProcesses.lastLines;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.gluecat.testkit.MiniStack;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The real launcher: PySpark from PyPI at this row's Spark version ({@code bin/pyspark-venv}) runs
 * {@code lake_job.py} with {@code spark-submit}, gluecat coming in as the README says, resolved from the
 * repository this build's invoker step installed into ({@code target/local-repo}), the catalog configured with
 * {@code --conf} and MiniStack as Glue (and S3). {@code -Dgluecat.skipPySpark} skips it.
 */
@Execution(ExecutionMode.CONCURRENT)
class PySparkSubmitIT {
  private static final String CATALOG = "lake";
  private static final AtomicInteger RUNS = new AtomicInteger();

  private static Path work;
  private static Path venv;
  private static Path job;
  private static Path ivySettings;
  /** The Ivy homes of the runs, one per test ({@link #ivyHome}). */
  private static Path ivyHomes;
  private static MiniStack ministack;

  @BeforeAll
  static void setUp() throws Exception {
    assumeFalse(Boolean.parseBoolean(System.getProperty("gluecat.skipPySpark", "false")),
        "PySpark checks skipped (-Dgluecat.skipPySpark)");
    Path repo = Paths.get(Artifacts.property("gluecat.repo"));
    work = Paths.get(Artifacts.property("gluecat.pyspark.work"));
    Files.createDirectories(work);
    job = Paths.get(Artifacts.property("gluecat.pyspark.job")).normalize();
    venv = PySparkProcesses.venv(repo, work, Artifacts.property("gluecat.pyspark.version"), "");

    Path localRepo = Paths.get(Artifacts.property("gluecat.localRepo"));
    String version = Artifacts.property("gluecat.version");
    String plain = Artifacts.property("gluecat.plain.artifact");
    Path installed = localRepo.resolve("io/gluecat/" + plain + "/" + version + "/" + plain + "-" + version + ".jar");
    assertTrue(Files.isRegularFile(installed), "the invoker plugin's install step did not install " + installed);
    ivySettings = writeIvySettings(localRepo);
    // Ivy keeps what it resolved; a snapshot from an earlier build must not be reused
    ivyHomes = repo.resolve(".tools").resolve("ivy-submit");
    for (String test : List.of("packages", "jars", "local-cluster")) {
      PySparkProcesses.deleteTree(ivyHome(test).resolve("cache").resolve("io.gluecat"));
    }
    ministack = MiniStack.shared();
  }

  /** The README's --packages form: gluecat and Delta by coordinates, the catalog by --conf. */
  @Test
  void packagesInLocalMode() throws Exception {
    String database = "pyspark_packages";
    Path warehouse = Files.createTempDirectory(work, "warehouse");
    List<String> args = new ArrayList<>(List.of("--master", "local[2]",
        "--packages", gluecatPackage() + "," + Artifacts.property("gluecat.delta.package")));
    args.addAll(catalogConf(ivyHome("packages"), warehouse.toUri().toString(), Map.of()));
    String out = submit("packages", args, database, 0);
    String ok = out.lines().filter(l -> l.startsWith("LAKE-JOB-OK")).findFirst().orElse("");
    assertTrue(ok.startsWith("LAKE-JOB-OK executors=0 location=") && ok.contains(warehouse + "/" + database + ".db/orders"),
        lastLines(out));
    assertGlueEntries(database);
    helperReadsTheTableThroughItsPackages(database, warehouse);
  }

  /**
   * The Python helper (python/, {@code configure_spark_with_gluecat_pip}) as a notebook user runs it: installed
   * into the PySpark venv with pip, a job started with plain {@code python} builds its session through it (no
   * --packages; the catalog's settings in PYSPARK_SUBMIT_ARGS) and reads the Delta table the --packages run
   * above wrote. The helper must pick this row's artifacts from the installed PySpark, and this build's
   * repository is given as its {@code repository} option. Part of that test to reuse its table and its warm
   * Ivy cache.
   */
  private static void helperReadsTheTableThroughItsPackages(String database, Path warehouse) throws Exception {
    Path repo = Paths.get(Artifacts.property("gluecat.repo"));
    execute("pip-install-gluecat", List.of(venv.resolve("bin").resolve("python").toString(), "-m", "pip", "install",
        "--no-input", "--disable-pip-version-check", "--no-deps", repo.resolve("python").toString()), Map.of());
    List<String> submitArgs = new ArrayList<>(List.of("--driver-java-options", driverJavaOptions()));
    submitArgs.addAll(catalogConf(ivyHome("packages"), warehouse.toUri().toString(), Map.of()));
    submitArgs.add("pyspark-shell");
    String localRepo = Paths.get(Artifacts.property("gluecat.localRepo")).toUri().toString();
    Path helperJob = job.resolveSibling("helper_job.py");
    String out = execute("helper", List.of(venv.resolve("bin").resolve("python").toString(), helperJob.toString(),
        CATALOG, database, localRepo), Map.of("PYSPARK_SUBMIT_ARGS",
            submitArgs.stream().map(a -> "'" + a + "'").collect(Collectors.joining(" "))));
    assertTrue(out.contains("HELPER-JOB-OK packages=" + gluecatPackage() + "," + Artifacts.property("gluecat.delta.package")
        + "\n"), lastLines(out));
  }

  /**
   * The README's --jars form, with the runtime jar (Delta still by --packages); then {@code gluecat doctor} over
   * the tables the job wrote, started as docs/operations.md shows: spark-submit, {@code --class
   * io.gluecat.tools.Main}, the runtime jar as the application, the catalog's options after the command.
   */
  @Test
  void runtimeJarWithJarsThenDoctorBySparkSubmitClass() throws Exception {
    String database = "pyspark_jars";
    Path warehouse = Files.createTempDirectory(work, "warehouse");
    List<String> args = new ArrayList<>(List.of("--master", "local[2]",
        "--jars", Artifacts.runtimeJar().toString(),
        "--packages", Artifacts.property("gluecat.delta.package")));
    args.addAll(catalogConf(ivyHome("jars"), warehouse.toUri().toString(), Map.of()));
    String out = submit("jars", args, database, 0);
    assertTrue(out.contains("LAKE-JOB-OK executors=0 location="), lastLines(out));
    assertGlueEntries(database);

    List<String> tool = new ArrayList<>(List.of("--class", "io.gluecat.tools.Main",
        "--packages", Artifacts.property("gluecat.delta.package"),
        "--conf", "spark.jars.ivy=" + ivyHome("jars"), "--conf", "spark.jars.ivySettings=" + ivySettings,
        Artifacts.runtimeJar().toString(),
        "doctor", database, "--conf", "region=" + MiniStack.REGION.id(),
        "--conf", "glue.endpoint=" + ministack.endpoint()));
    String report = run("doctor", tool);
    // exit code 0 (run() fails otherwise): both entries are clean, and every reader loads them
    List<String> rows = report.lines().filter(l -> l.startsWith("orders ") || l.startsWith("events "))
        .map(l -> String.join("|", l.trim().split(" {2,}"))).sorted().collect(Collectors.toList());
    assertEquals(List.of("events|file source|yes|yes|yes|yes|-", "orders|gluecat Delta|yes|yes|yes|yes|-"), rows,
        lastLines(report));
  }

  /**
   * An executor JVM of its own ({@code local-cluster[1,2,1024]}: one executor with two cores, so the
   * parallelism stays 2) on MiniStack's S3, with the buckets' S3A settings given only as the catalog's options ({@code hadoop.fs.s3a.bucket.<bucket>.*}), none in the session's
   * Hadoop configuration. The executors write and read the tables' files, so this shows whether the catalog's
   * settings reach them (the session only switches S3A's retries off, so that a request to the wrong
   * endpoint fails at once); the job reports each step ({@code --report}) instead of stopping at the first
   * failure. The Delta table lives under the warehouse bucket, the parquet table in a bucket of its own, so
   * that a failure on one bucket cannot decide the other's outcome through Hadoop's FileSystem cache.
   *
   * <p>The outcome asserted is the one observed (docs/how-it-works.md, "Executors and a catalog's storage
   * settings"). When gluecat changes how its settings reach executors, this test fails and shows the new
   * outcome of every step: update the expectation and the docs together.
   */
  @Test
  void localClusterWithPerCatalogS3Settings() throws Exception {
    String database = "pyspark_cluster";
    String suffix = Long.toString(System.currentTimeMillis() % 1000000);
    String lake = ministack.createBucket("gluecat-lake-" + suffix);
    String events = ministack.createBucket("gluecat-events-" + suffix);
    // one executor JVM of its own: what matters is that the executors are not the driver's JVM (a second one
    // only competed with it for this machine's two cores)
    List<String> args = new ArrayList<>(List.of("--master", "local-cluster[1,2,1024]",
        "--packages", gluecatPackage() + "," + Artifacts.property("gluecat.delta.package") + ","
            + Artifacts.property("gluecat.s3a.packages"),
        "--exclude-packages", Artifacts.property("gluecat.s3a.exclude"),
        "--conf", "spark.executor.memory=768m",
        "--conf", "spark.executor.extraJavaOptions=" + SHORT_LIVED_JVM,
        // a failing task is not retried: its error is what the step reports
        "--conf", "spark.task.maxFailures=1",
        // S3A's and the SDK's retries, off: a request that goes to the wrong endpoint fails at once instead
        // of retrying for minutes (SDK v1 on Hadoop 3.3 pauses between many attempts). These make nothing
        // reachable; the buckets' endpoint, region and keys are still given only as catalog options.
        "--conf", "spark.hadoop.fs.s3a.attempts.maximum=0",
        "--conf", "spark.hadoop.fs.s3a.retry.limit=0"));
    Map<String, String> s3 = new LinkedHashMap<>();
    for (String bucket : List.of(lake, events)) {
      ministack.s3aSettings(bucket).forEach((k, v) -> s3.put("hadoop." + k, v));
    }
    args.addAll(catalogConf(ivyHome("local-cluster"), "s3a://" + lake + "/warehouse", s3));
    String out = submit("local-cluster", args, database, 1, "--report", "--events-location", "s3a://" + events + "/events");
    Map<String, String> steps = steps(out);
    Files.writeString(work.resolve("local-cluster-steps.txt"), steps.entrySet().stream()
        .map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining("\n", "", "\n")));

    Map<String, String> observed = new LinkedHashMap<>();
    steps.forEach((step, outcome) -> observed.put(step, outcome.startsWith("ok") ? "ok" : "failed"));
    assertEquals(EXPECTED_ON_EXECUTORS, observed, "what executors do with per-catalog S3 settings changed; every step:\n"
        + steps.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).collect(Collectors.joining("\n")));

    // where the files are: the parquet table's, written by the executors, in its bucket; the Delta table's
    // commits in the warehouse bucket, with a checksum (.crc) file Delta writes through Hadoop's FileContext
    // (which bypasses the FileSystem cache gluecat primes, so it reaches storage only through the catalog's
    // settings given to Delta as options)
    List<String> eventFiles = keys(events);
    assertTrue(eventFiles.stream().filter(k -> k.startsWith("events/") && k.endsWith(".parquet")).count() >= 2,
        eventFiles.toString());
    List<String> lakeFiles = keys(lake);
    String log = "warehouse/" + database + ".db/orders-";
    assertTrue(lakeFiles.stream().anyMatch(k -> k.startsWith(log) && k.endsWith("/_delta_log/00000000000000000000.json")),
        lakeFiles.toString());
    assertTrue(lakeFiles.stream().anyMatch(k -> k.startsWith(log) && k.contains("/_delta_log/") && k.endsWith(".crc")),
        lakeFiles.toString());
  }

  /**
   * What the steps of lake_job.py do on local-cluster with per-catalog S3 settings only: every step works, on
   * both rows. The Delta table's log is opened with the catalog's shareable settings as Delta options (create,
   * register, loads by name), so the snapshot Delta rebuilds on the executors reaches the bucket the catalog's
   * way, and the keys come through gluecat's credentials provider (docs/how-it-works.md).
   */
  private static final Map<String, String> EXPECTED_ON_EXECUTORS = orderedMap(
      "create namespace", "ok",
      "delta create", "ok",
      "delta insert", "ok",
      "delta select", "ok",
      "parquet create", "ok",
      "parquet insert", "ok",
      "parquet dataframe insert", "ok",
      "parquet select", "ok",
      "show tables", "ok",
      "convert to delta", "ok");

  private static Map<String, String> orderedMap(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static List<String> keys(String bucket) {
    try (S3Client s3client = ministack.s3()) {
      return s3client.listObjectsV2Paginator(b -> b.bucket(bucket)).contents().stream().map(S3Object::key)
          .collect(Collectors.toList());
    }
  }

  /**
   * The README shows the commands these runs use (its example is the Spark 4.1 line; for the other lines it
   * names the artifacts to swap in).
   */
  @Test
  void theReadmeShowsTheCommandsRunHere() throws IOException {
    String readme = Files.readString(Paths.get(Artifacts.property("gluecat.repo"), "README.md"));
    String plain = Artifacts.property("gluecat.plain.artifact");
    String delta = Artifacts.property("gluecat.delta.package");
    assertTrue(readme.contains(plain) && readme.contains(delta), "README.md does not name " + plain + " and " + delta);
    if ("spark-4.1".equals(Artifacts.property("gluecat.matrix.row"))) {
      assertTrue(readme.contains("--packages io.gluecat:" + plain + ":<version>," + delta + " \\\n"), "--packages line");
      assertTrue(readme.contains("--jars " + Artifacts.property("gluecat.runtime.artifact") + "-<version>.jar \\\n"
          + "  --packages " + delta + " \\\n"), "--jars lines");
      for (String conf : catalogConf(ivyHome("readme"), "s3a://my-lake/warehouse", Map.of())) {
        if (conf.startsWith("spark.sql.extensions") || conf.startsWith("spark.sql.catalog.spark_catalog")) {
          assertTrue(readme.contains("--conf " + conf + " \\\n"), conf);
        }
      }
    }
  }

  /** The job's "STEP <name>: <outcome>" lines, in order. */
  private static Map<String, String> steps(String out) {
    Map<String, String> steps = new LinkedHashMap<>();
    out.lines().filter(l -> l.startsWith("STEP ")).forEach(l -> {
      int colon = l.indexOf(": ");
      steps.put(l.substring(5, colon), l.substring(colon + 2));
    });
    assertTrue(out.contains("LAKE-JOB-DONE"), "the job did not finish:\n" + lastLines(out));
    return steps;
  }

  private static String gluecatPackage() {
    return "io.gluecat:" + Artifacts.property("gluecat.plain.artifact") + ":" + Artifacts.property("gluecat.version");
  }

  /**
   * The Ivy home of one test's runs. The tests run at once (this class is concurrent: its spark-submit runs
   * mostly wait, on JVM start, Ivy and Python, so one after another they left a core idle), and Ivy's cache takes
   * no lock against a second resolver, so each test resolves into a home of its own.
   */
  private static Path ivyHome(String test) {
    return ivyHomes.resolve(test);
  }

  /** The job's catalog, as --conf options: Delta's two settings, then the catalog and its options. */
  private static List<String> catalogConf(Path ivyHome, String warehouse, Map<String, String> extraCatalogOptions) {
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.sql.extensions", "io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension");
    conf.put("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    conf.put("spark.sql.catalog." + CATALOG, "io.gluecat.GlueCatalog");
    conf.put("spark.sql.catalog." + CATALOG + ".region", MiniStack.REGION.id());
    conf.put("spark.sql.catalog." + CATALOG + ".glue.endpoint", ministack.endpoint().toString());
    conf.put("spark.sql.catalog." + CATALOG + ".warehouse", warehouse);
    extraCatalogOptions.forEach((k, v) -> conf.put("spark.sql.catalog." + CATALOG + "." + k, v));
    conf.put("spark.ui.enabled", "false");
    conf.put("spark.sql.shuffle.partitions", "2");
    conf.put("spark.databricks.delta.snapshotPartitions", "2");
    conf.put("spark.jars.ivy", ivyHome.toString());
    conf.put("spark.jars.ivySettings", ivySettings.toString());
    List<String> args = new ArrayList<>();
    conf.forEach((k, v) -> {
      args.add("--conf");
      args.add(k + "=" + v);
    });
    return args;
  }

  /** Runs lake_job.py with spark-submit, {@code args} before it and the job's own arguments after it. */
  private static String submit(String name, List<String> args, String database, int executors, String... jobOptions)
      throws Exception {
    List<String> command = new ArrayList<>(args);
    command.add(job.toString());
    command.add(CATALOG);
    command.add(database);
    command.add(Integer.toString(executors));
    command.addAll(List.of(jobOptions));
    return run(name, command);
  }

  /** Runs spark-submit from the PySpark venv with {@code args}; returns its output, failing with its last lines unless it exits 0. */
  private static String run(String name, List<String> args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(venv.resolve("bin").resolve("spark-submit").toString());
    command.add("--driver-java-options");
    command.add(driverJavaOptions());
    command.addAll(args);
    return execute(name, command, Map.of());
  }

  /**
   * The driver's Glue credentials: the SDK's default chain (its system properties), as on a cluster where the
   * driver has a role. Not in the environment, which executors inherit: they have no AWS keys of their own, so
   * whatever they read or write in S3 shows which keys the catalog gave them.
   */
  private static String driverJavaOptions() {
    return "-Daws.accessKeyId=" + MiniStack.ACCESS_KEY_ID + " -Daws.secretAccessKey=" + MiniStack.SECRET_ACCESS_KEY
        + " " + SHORT_LIVED_JVM;
  }

  /**
   * The JIT's first tier only, for the drivers and executors these runs start: each lives a minute at most, and
   * on two cores the optimising compiler's work costs them more time than it wins back. It changes no behaviour.
   */
  static final String SHORT_LIVED_JVM = "-XX:TieredStopAtLevel=1";

  /** Runs {@code command} in the PySpark venv's environment plus {@code extraEnv}; its output, or a failure with its last lines. */
  private static String execute(String name, List<String> command, Map<String, String> extraEnv) throws Exception {
    Path log = work.resolve(RUNS.incrementAndGet() + "-" + name + ".log");
    Files.writeString(log, String.join(" ", command) + "\n\n");
    ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    Map<String, String> env = pb.environment();
    PySparkProcesses.cleanEnvironment(env, venv, work);
    env.put("PYSPARK_PYTHON", venv.resolve("bin").resolve("python").toString());
    env.putAll(extraEnv);
    Process process = pb.start();
    if (!process.waitFor(10, TimeUnit.MINUTES)) {
      process.descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      fail(command.get(0) + " (" + name + ") did not finish in 10 minutes; see " + log);
    }
    String out = Files.readString(log, StandardCharsets.UTF_8);
    if (process.exitValue() != 0) {
      fail(command.get(0) + " (" + name + ") exited with " + process.exitValue() + "; " + log + ":\n" + lastLines(out));
    }
    return out;
  }

  private static void assertGlueEntries(String database) {
    try (GlueClient glue = ministack.glue()) {
      Table orders = glue.getTable(b -> b.databaseName(database).name("orders")).table();
      assertEquals("DELTA", orders.parameters().get("table_type"));
      Table events = glue.getTable(b -> b.databaseName(database).name("events")).table();
      assertEquals("parquet", events.parameters().get("spark.sql.sources.provider"));
    }
  }

  /**
   * Ivy settings that only say where artifacts are: io.gluecat from this build's repository, everything
   * else from Maven Central. Not from ~/.m2, which may hold an older gluecat snapshot, and whose many
   * pom-only entries (poms Maven read for resolution, without their jars) make Ivy fail instead of going on
   * to Central. What Ivy downloads is kept in .tools/ivy, across `mvn clean`.
   */
  private static Path writeIvySettings(Path localRepo) throws IOException {
    String xml = "<ivysettings>\n"
        + "  <settings defaultResolver=\"central\"/>\n"
        + "  <resolvers>\n"
        + "    <ibiblio name=\"gluecat-build\" m2compatible=\"true\" root=\"" + localRepo.toUri() + "\"/>\n"
        + "    <ibiblio name=\"central\" m2compatible=\"true\"/>\n"
        + "  </resolvers>\n"
        + "  <modules>\n"
        + "    <module organisation=\"io.gluecat\" resolver=\"gluecat-build\"/>\n"
        + "  </modules>\n"
        + "</ivysettings>\n";
    Path file = work.resolve("ivysettings.xml");
    Files.writeString(file, xml);
    return file;
  }
}
