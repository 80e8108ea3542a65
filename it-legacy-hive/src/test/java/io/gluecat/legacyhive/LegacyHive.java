package io.gluecat.legacyhive;

import io.gluecat.testkit.MiniStack;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;

/**
 * The JVM's one legacy setup: a MiniStack process (Glue), a Hive-enabled SparkSession whose spark_catalog
 * is Delta's DeltaCatalog over Spark's HiveExternalCatalog (the legacy Hive path), and the transport that
 * connects that Hive path to Glue (the real Glue client for Hive, or the bridge). Started once, on first use,
 * in the mode the first test class asks for; a JVM runs one mode only, because Spark fixes its Hive client
 * when the session starts.
 */
final class LegacyHive {
  /** System property naming the AWS Glue Data Catalog client jar (several: separated by the path separator). */
  static final String CLIENT_JAR_PROPERTY = "gluecat.glue.hive.client.jar";
  static final String CLIENT_JAR_ENV = "GLUECAT_GLUE_HIVE_CLIENT_JAR";
  /** More jars the client needs before the test classpath: a Hive 2.3 patched for it, the AWS SDK v1. */
  static final String CLIENT_CLASSPATH_PROPERTY = "gluecat.glue.hive.client.classpath";
  static final String CLIENT_CLASSPATH_ENV = "GLUECAT_GLUE_HIVE_CLIENT_CLASSPATH";
  /** The Hive version of those jars, for spark.sql.hive.metastore.version (default 2.3.10). */
  static final String CLIENT_HIVE_VERSION_PROPERTY = "gluecat.glue.hive.client.hive.version";
  static final String CLIENT_HIVE_VERSION_ENV = "GLUECAT_GLUE_HIVE_CLIENT_HIVE_VERSION";
  static final String CLIENT_FACTORY = "com.amazonaws.glue.catalog.metastore.AWSGlueDataCatalogHiveClientFactory";

  /**
   * The schema length above which Spark (both paths) stores a schema in parts. Lowered from Spark's 4000
   * so that one case's wide table is stored in parts while the other cases' small schemas stay whole.
   */
  static final int SCHEMA_THRESHOLD = 500;

  /** The gluecat catalog registered under this name in the Hive path's session (named mode). */
  static final String GLUE = "glue";

  enum Mode { BRIDGE, GLUE_HIVE_CLIENT }

  private static LegacyHive instance;

  final Mode mode;
  final MiniStack ministack;
  final SparkSession hive;
  final MetastoreTransport transport;
  final Path scratch;

  private LegacyHive(Mode mode, MiniStack ministack, SparkSession hive, MetastoreTransport transport, Path scratch) {
    this.mode = mode;
    this.ministack = ministack;
    this.hive = hive;
    this.transport = transport;
    this.scratch = scratch;
  }

  static synchronized LegacyHive get(Mode mode) {
    if (instance == null) {
      instance = start(mode);
    } else if (instance.mode != mode) {
      throw new IllegalStateException("this JVM already runs the legacy Hive path in mode " + instance.mode
          + "; the " + mode + " suites need a JVM of their own (the pom runs them in a separate execution)");
    }
    return instance;
  }

  /** The Glue Hive client jars named by the property or the environment, if any. */
  static Optional<String> clientJars() {
    return setting(CLIENT_JAR_PROPERTY, CLIENT_JAR_ENV);
  }

  private static Optional<String> setting(String property, String env) {
    String value = System.getProperty(property);
    if (value == null || value.isBlank()) {
      value = System.getenv(env);
    }
    return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
  }

  private static LegacyHive start(Mode mode) {
    Path scratch;
    try {
      scratch = Files.createTempDirectory("gluecat-legacy-hive-");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    MiniStack ministack = MiniStack.shared();
    Map<String, String> conf = new LinkedHashMap<>();
    conf.put("spark.ui.enabled", "false");
    conf.put("spark.sql.shuffle.partitions", "2");
    conf.put("spark.databricks.delta.snapshotPartitions", "2");
    conf.put("spark.sql.warehouse.dir", scratch.resolve("warehouse").toUri().toString());
    conf.put("spark.sql.catalogImplementation", "hive");
    // gluecat's extension (before Delta's) gives gluecat's catalog view DDL on this line; the Hive path's own
    // statements on spark_catalog are left to Spark and Delta.
    conf.put("spark.sql.extensions", "io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension");
    conf.put("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    conf.put("spark.sql.sources.schemaStringLengthThreshold", String.valueOf(SCHEMA_THRESHOLD));
    conf.put("spark.sql.catalog." + GLUE, "io.gluecat.GlueCatalog");
    gluecatOptions(ministack).forEach((k, v) -> conf.put("spark.sql.catalog." + GLUE + "." + k, v));

    MetastoreTransport transport;
    if (mode == Mode.BRIDGE) {
      EmbeddedMetastore metastore = EmbeddedMetastore.start(scratch.resolve("metastore"));
      conf.put("spark.hadoop.hive.metastore.uris", metastore.uri());
      transport = new GlueBridge(metastore, ministack.glue());
    } else {
      String jars = clientJars().orElseThrow(() -> new IllegalStateException("no Glue Hive client jar given"));
      List<String> path = new ArrayList<>(split(jars));
      for (String jar : path) {
        if (!new File(jar).isFile()) {
          throw new IllegalStateException("the Glue Hive client jar " + jar + " named by " + CLIENT_JAR_PROPERTY
              + " (or " + CLIENT_JAR_ENV + ") does not exist");
        }
      }
      setting(CLIENT_CLASSPATH_PROPERTY, CLIENT_CLASSPATH_ENV).ifPresent(cp -> path.addAll(split(cp)));
      path.addAll(split(System.getProperty("java.class.path")));
      conf.put("spark.sql.hive.metastore.version",
          setting(CLIENT_HIVE_VERSION_PROPERTY, CLIENT_HIVE_VERSION_ENV).orElse("2.3.10"));
      conf.put("spark.sql.hive.metastore.jars", "path");
      conf.put("spark.sql.hive.metastore.jars.path",
          path.stream().map(p -> Paths.get(p).toUri().toString()).collect(Collectors.joining(",")));
      conf.put("spark.hadoop.hive.metastore.client.factory.class", CLIENT_FACTORY);
      conf.put("spark.hadoop.aws.glue.endpoint", ministack.endpoint().toString());
      conf.put("spark.hadoop.aws.region", MiniStack.REGION.id());
      // The client's SDK v1 default chain reads aws.accessKeyId and aws.secretKey.
      System.setProperty("aws.accessKeyId", MiniStack.ACCESS_KEY_ID);
      System.setProperty("aws.secretKey", MiniStack.SECRET_ACCESS_KEY);
      transport = new GlueHiveClientTransport(jars);
    }
    SparkSession.Builder builder = SparkSession.builder().master("local[2]").appName("gluecat-legacy-hive");
    conf.forEach(builder::config);
    SparkSession hive = builder.getOrCreate();
    if (mode == Mode.GLUE_HIVE_CLIENT) {
      requireGlueHiveClientInUse(ministack, hive);
    }
    return new LegacyHive(mode, ministack, hive, transport, scratch);
  }

  /**
   * A Hive that ignores hive.metastore.client.factory.class (an unpatched one, such as Spark's built-in Hive
   * 2.3) silently uses a local Derby metastore instead of the Glue client; every case would then fail in a
   * confusing way. So check first that a database created in Glue is what the Hive path sees.
   */
  private static void requireGlueHiveClientInUse(MiniStack ministack, SparkSession hive) {
    String probe = "gluecat_client_probe_" + ProcessHandle.current().pid();
    Glue.client(ministack).createDatabase(r -> r.databaseInput(d -> d.name(probe)
        .locationUri(hive.conf().get("spark.sql.warehouse.dir") + "/" + probe)));
    if (!hive.sharedState().externalCatalog().databaseExists(probe)) {
      throw new IllegalStateException("Spark's Hive path does not read Glue through the client given in "
          + CLIENT_JAR_PROPERTY + ": a database created in MiniStack's Glue is not visible to it. The Hive in use "
          + "ignores hive.metastore.client.factory.class (Spark's built-in Hive 2.3 does); put a Hive patched "
          + "for the Glue client (EMR ships one) in " + CLIENT_CLASSPATH_PROPERTY + " and set "
          + CLIENT_HIVE_VERSION_PROPERTY + " to its version.");
    }
  }

  static Map<String, String> gluecatOptions(MiniStack ministack) {
    Map<String, String> options = new LinkedHashMap<>();
    options.put("region", MiniStack.REGION.id());
    options.put("glue.endpoint", ministack.endpoint().toString());
    options.put("sts.endpoint", ministack.endpoint().toString());
    return options;
  }

  private static List<String> split(String list) {
    List<String> out = new ArrayList<>();
    for (String p : list.split("[" + File.pathSeparator + ",]")) {
      if (p.isBlank()) {
        continue;
      }
      File f = new File(p.trim());
      if (f.isDirectory()) {
        File[] jars = f.listFiles((d, n) -> n.toLowerCase(Locale.ROOT).endsWith(".jar"));
        if (jars != null) {
          for (File j : jars) {
            out.add(j.getAbsolutePath());
          }
        }
      } else {
        out.add(f.getAbsolutePath());
      }
    }
    return out;
  }
}
