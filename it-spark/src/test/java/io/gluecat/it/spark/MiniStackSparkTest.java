package io.gluecat.it.spark;

import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.MiniStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeEach;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * Base of the Spark suites on MiniStack (it-ministack's and it-trino's: shared test source,
 * it-spark/src/test/java, that each line's pom of both adds; see testkit/README.md):
 * one real SparkSession per JVM (Delta's extension and its DeltaCatalog as spark_catalog, as users configure
 * named mode), one MiniStack process per JVM, the test kit reset before each test, and helpers that give each
 * test its own catalog and database names so tests never see each other's state.
 */
public abstract class MiniStackSparkTest {
  private static final AtomicInteger COUNTER = new AtomicInteger();
  private static SparkSession spark;
  /**
   * {@code -Dgluecat.it.extensions=off}: the shared session without gluecat's session extension, for suites
   * whose results must not depend on it (CallCountsIT: the same calls with and without the extension).
   */
  private static final boolean EXTENSIONS = !"off".equals(System.getProperty("gluecat.it.extensions"));
  /**
   * {@code -Dgluecat.it.codegen=on}: Spark generates code for each query's stages and expressions, as it does for
   * users. Off by default: the suites run thousands of small, distinct queries over tiny tables, and generating
   * the code of each operator's projections, in every task, for schemas as wide as Delta's log actions, was 41 %
   * of their CPU samples (JFR, DeltaParityIT, SessionModeDeltaIT and FileTableParityIT on Spark 4.2, one fork);
   * interpreted, the same three suites took 186 s of CPU instead of 236 s. Spark's interpreted form has one gap
   * these suites meet: it cannot build the rows of {@code spark.catalog().listTables()} on any line
   * ({@code EXPRESSION_DECODING_FAILED}), so {@link #listTables} turns generation on for that call. The runtime
   * journeys keep it on, as users run. With it off, adaptive query execution is off too: re-planning each
   * tiny query after every stage took another 6 % of the same suites' time (125 s instead of 133 s), and no
   * suite checks a plan AQE would change; the runtime journeys keep Spark's default.
   */
  private static final boolean CODEGEN = "on".equals(System.getProperty("gluecat.it.codegen"));
  private static final String ICEBERG_EXTENSION = "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions";
  private static Path scratch;

  /** {@code extensions} with Iceberg's extension where this line's users list it, when its runtime is here. */
  private static String withIcebergs(String extensions) {
    if (!io.gluecat.iceberg.IcebergTables.AVAILABLE) { // Iceberg's runtime, which holds its extension too
      return extensions;
    }
    return org.apache.spark.package$.MODULE$.SPARK_VERSION().startsWith("3.") ? extensions + "," + ICEBERG_EXTENSION
        : ICEBERG_EXTENSION + "," + extensions;
  }

  protected static final MiniStack MINISTACK = MiniStack.shared();
  protected static final GlueClient GLUE = MINISTACK.glue();

  protected static synchronized SparkSession spark() {
    if (spark == null) {
      spark = SparkSession.builder()
          .master("local[2]")
          .appName("gluecat-it")
          .config("spark.ui.enabled", "false")
          // one partition per shuffle, state rebuild and file listing: the suites' tables are tiny, and each
          // task costs its set-up (a Hadoop configuration serialised into it, among others); two cores still
          // run a scan's or a write's tasks side by side. Measured on the 4.2 row's MiniStack suites: 11:50 ->
          // 10:33 and 1438 -> 1266 s of CPU against 2 everywhere (docs/architecture.md)
          .config("spark.sql.shuffle.partitions", "1")
          .config("spark.sql.codegen.wholeStage", String.valueOf(CODEGEN))
          .config("spark.sql.codegen.factoryMode", CODEGEN ? "FALLBACK" : "NO_CODEGEN")
          .config("spark.sql.adaptive.enabled", String.valueOf(CODEGEN))
          // Delta rebuilds a table's state in 50 partitions by default; for small tables on 2 cores that is most
          // of a read's time (Delta's own test suites use a handful too)
          .config("spark.databricks.delta.snapshotPartitions", "1")
          // Delta's VACUUM lists a table's files in this many tasks (10,000 by default): 45 s of a small table's
          // VACUUM on 2 cores
          .config("spark.sql.sources.parallelPartitionDiscovery.parallelism", "1")
          .config("spark.sql.warehouse.dir", scratch().resolve("spark-warehouse").toString())
          // no event log: SecretSurfacesIT attaches Spark's event log writer for its own statements; one for every
          // statement of a fork was about 290 MB of JSON per row and 6 % of the parity suites' CPU
          // gluecat's extension first, as docs/extensions.md says: its rules run before Delta's
          // and, where Iceberg's runtime is on the line's classpath, Iceberg's, where docs/configuration.md
          // ("Iceberg tables") says users who write Iceberg's DDL list it: last on Spark 3.5, first on Spark 4
          .config("spark.sql.extensions", withIcebergs(EXTENSIONS
              ? "io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension"
              : "io.delta.sql.DeltaSparkSessionExtension"))
          .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
          .getOrCreate();
    }
    return spark;
  }

  /**
   * This JVM's scratch directory, made on first use; its real path, as a Trino server of the test sees the
   * directories below it by that path.
   */
  protected static synchronized Path scratch() {
    if (scratch == null) {
      try {
        scratch = Files.createTempDirectory("gluecat-it-").toRealPath();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return scratch;
  }

  /**
   * {@code spark.catalog().listTables(namespace)}, collected with expression code generation on: Spark's
   * interpreted form cannot build the Catalog API's rows (see {@link #CODEGEN}).
   */
  protected static List<org.apache.spark.sql.catalog.Table> listTables(String namespace) throws Exception {
    org.apache.spark.sql.RuntimeConfig conf = spark().conf();
    String mode = conf.get("spark.sql.codegen.factoryMode");
    conf.set("spark.sql.codegen.factoryMode", "FALLBACK");
    try {
      return spark().catalog().listTables(namespace).collectAsList();
    } finally {
      conf.set("spark.sql.codegen.factoryMode", mode);
    }
  }

  /** Every test starts with no recorded calls, no armed fault and the kit's switches off. */
  @BeforeEach
  protected void resetRecorder() {
    GlueCallRecorder.reset();
  }

  /** A unique lower-case name with a readable prefix. */
  protected static String unique(String prefix) {
    return prefix + "_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
  }

  /** A fresh directory for table data, as a qualified Hadoop path ({@code file:/...}). */
  protected static String newDirectory(String name) {
    spark();
    try {
      return "file:" + Files.createDirectories(scratch().resolve("data").resolve(unique(name))).toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The options of a catalog pointed at this JVM's MiniStack. */
  protected static Map<String, String> ministackOptions() {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("region", MiniStack.REGION.id());
    options.put("glue.endpoint", MINISTACK.endpoint().toString());
    options.put("sts.endpoint", MINISTACK.endpoint().toString());
    return options;
  }

  /** Registers a gluecat catalog under a new name in the shared session and returns that name. */
  protected static String newCatalog(Map<String, String> options) {
    return newCatalog(spark(), options);
  }

  /** Registers a gluecat catalog under a new name in {@code session} and returns that name. */
  protected static String newCatalog(SparkSession session, Map<String, String> options) {
    String name = unique("glue");
    session.conf().set("spark.sql.catalog." + name, "io.gluecat.GlueCatalog");
    options.forEach((k, v) -> session.conf().set("spark.sql.catalog." + name + "." + k, v));
    return name;
  }

  protected static String newCatalog() {
    return newCatalog(ministackOptions());
  }

  /** {@link #newSessionModeSession(Map)} with a catalog of {@link #ministackOptions()}. */
  protected static SparkSession newSessionModeSession() {
    return newSessionModeSession(ministackOptions());
  }

  /**
   * A new session whose spark_catalog is a gluecat catalog of these options (session mode), made the active
   * session: Spark resolves catalogs with the active session's settings, and a user in session mode has
   * one session. Restore the shared session with {@code SparkSession.setActiveSession(spark())}.
   */
  protected static SparkSession newSessionModeSession(Map<String, String> options) {
    SparkSession session = spark().newSession();
    SparkSession.setActiveSession(session);
    session.conf().set("spark.sql.catalog.spark_catalog", "io.gluecat.GlueCatalog");
    options.forEach((k, v) -> session.conf().set("spark.sql.catalog.spark_catalog." + k, v));
    return session;
  }

  /**
   * A new bucket on {@code ministack} that the shared session reaches through S3A by per-bucket settings
   * only ({@code fs.s3a.bucket.<name>.*} in the SparkContext's Hadoop configuration, which every session's
   * Hadoop configuration starts from), so buckets on several MiniStack processes can be used side by side.
   * A new name each time: Hadoop caches the first FileSystem per bucket for the JVM's life.
   */
  protected static String newS3ABucket(MiniStack ministack) {
    String bucket = ministack.createBucket(unique("s3a").replace('_', '-'));
    ministack.s3aSettings(bucket).forEach((k, v) -> spark().sparkContext().hadoopConfiguration().set(k, v));
    return bucket;
  }

  /** Runs a statement in the shared session. */
  protected static List<Row> sql(String statement) {
    return spark().sql(statement).collectAsList();
  }

  /** The session {@link #run} and {@link #rows} use: the shared one, unless a subclass gives a test its own. */
  protected SparkSession session() {
    return spark();
  }

  /** Runs a statement in {@link #session()}. */
  protected List<Row> run(String statement) {
    return session().sql(statement).collectAsList();
  }

  /** A query's rows in {@link #session()}, each as its {@code toString} ({@code [1,a]}), in the query's order. */
  protected List<String> rows(String query) {
    return run(query).stream().map(Row::toString).collect(Collectors.toList());
  }

  /** A Glue database created with the SDK, as another tool would. */
  protected static String newDatabase(String location) {
    String name = unique("db");
    GLUE.createDatabase(r -> r.databaseInput(d -> d.name(name).locationUri(location)));
    return name;
  }

  protected static Table glueTable(String database, String table) {
    return GLUE.getTable(r -> r.databaseName(database).name(table)).table();
  }

  /** Writes a Glue entry with the SDK in gluecat's format, the way an earlier gluecat session would have. */
  protected static void putEntry(String database, String table, String provider, StructType schema,
      List<String> partitions, String location, Map<String, String> storage) {
    TableDefinition definition = new TableDefinition(new TableName(database, table), provider, schema, partitions,
        location, Optional.empty(), Map.of(), storage);
    TableInput input = new EntryWriter(spark().version(), EntryFormat.DEFAULT_SCHEMA_THRESHOLD)
        .newEntry(definition, Optional.empty(), Optional.empty());
    GLUE.createTable(r -> r.databaseName(database).tableInput(input));
  }

  /**
   * Uploads a local table directory (data files and _delta_log, no .crc files) under {@code prefix}/ of a
   * bucket with the S3 SDK: no Hadoop involved, so no FileSystem is cached for the bucket.
   */
  protected static void upload(MiniStack ministack, Path directory, String bucket, String prefix) {
    try (software.amazon.awssdk.services.s3.S3Client s3 = ministack.s3();
        java.util.stream.Stream<Path> files = Files.walk(directory)) {
      files.filter(Files::isRegularFile).filter(f -> !f.getFileName().toString().endsWith(".crc"))
          .forEach(f -> s3.putObject(r -> r.bucket(bucket).key(prefix + "/" + directory.relativize(f)),
              software.amazon.awssdk.core.sync.RequestBody.fromFile(f)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
