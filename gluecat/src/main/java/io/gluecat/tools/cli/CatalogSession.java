package io.gluecat.tools.cli;

import io.gluecat.catalog.AbstractGlueCatalog;
import io.gluecat.catalog.CatalogParts;
import io.gluecat.entry.StoredDatabase;
import io.gluecat.glue.GlueDatabases;
import io.gluecat.glue.GlueGateway;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The catalog a tool works through: a gluecat catalog initialized with the command line's options, exactly
 * as Spark would initialize it, inside a local SparkSession (no cluster). The session is there because
 * Delta Lake reads the Delta logs (columns, partitioning, description) as it does in every gluecat job, so
 * the tools see a table's schema exactly as the catalog's CREATE and REFRESH write it. When a session is
 * already active in this JVM (a test, a notebook), it is used as it is.
 */
public final class CatalogSession implements AutoCloseable {
  private final AbstractGlueCatalog catalog;
  private final CatalogParts parts;

  public CatalogSession(Arguments arguments) {
    SparkSession spark = session();
    try {
      catalog = (AbstractGlueCatalog) Class.forName("io.gluecat.GlueCatalog").getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("io.gluecat.GlueCatalog is not on the classpath: use gluecat's jar of "
          + "this Spark line", e);
    }
    try {
      catalog.initialize(arguments.catalog(), new CaseInsensitiveStringMap(arguments.options()));
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    parts = catalog.parts();
    spark.version(); // the session stays active for Delta's reads
  }

  public AbstractGlueCatalog catalog() { return catalog; }
  public CatalogParts parts() { return parts; }
  public GlueGateway glue() { return parts.glue(); }
  public String name() { return catalog.name(); }

  /**
   * The Glue database, or a UsageException naming it and the catalog's identity when it does not exist or
   * cannot be read (access denied, wrong region or endpoint).
   */
  public StoredDatabase database(String database) {
    try {
      return new GlueDatabases(glue()).get(database);
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException e) {
      throw new UsageException(String.format("database '%s' does not exist in Glue (%s, region %s)", database,
          parts.options().describeIdentity(), parts.options().region().orElse("<default chain>")), e);
    } catch (RuntimeException e) {
      throw new UsageException(String.format("cannot read database '%s' from Glue (%s): %s", database,
          parts.options().describeIdentity(), e.getMessage()), e);
    }
  }

  /** The active SparkSession, or a new local one with Delta Lake's extension and catalog and quiet logs. */
  static SparkSession session() {
    if (SparkSession.getActiveSession().isDefined()) {
      return SparkSession.getActiveSession().get();
    }
    if (SparkSession.getDefaultSession().isDefined()) {
      SparkSession.setActiveSession(SparkSession.getDefaultSession().get());
      return SparkSession.getDefaultSession().get();
    }
    quietLogs();
    SparkSession spark = SparkSession.builder()
        .master("local[1]")
        .appName("gluecat-tools")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        // the tool reads many small Delta logs on one core: Delta's default of 50 partitions per state rebuild
        // would be most of its time
        .config("spark.databricks.delta.snapshotPartitions", "1")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .getOrCreate();
    SparkSession.setActiveSession(spark);
    if (System.getProperty("log4j2.configurationFile") == null) {
      spark.sparkContext().setLogLevel("ERROR");
    }
    return spark;
  }

  /** Spark logs at INFO to stderr by default; a command-line tool's stderr is for its own progress and errors. */
  private static void quietLogs() {
    if (System.getProperty("log4j2.configurationFile") != null) {
      return;
    }
    try {
      Class<?> level = Class.forName("org.apache.logging.log4j.Level");
      Object error = level.getField("ERROR").get(null);
      Class.forName("org.apache.logging.log4j.core.config.Configurator").getMethod("setRootLevel", level)
          .invoke(null, error);
    } catch (ReflectiveOperationException | LinkageError e) {
      // another logging backend: its own configuration decides
    }
  }

  @Override
  public void close() {
    parts.glue().close();
  }
}
