package io.gluecat.delta;

import io.gluecat.entry.TableName;
import org.apache.spark.sql.internal.SQLConf;

/**
 * Session settings under which gluecat must not touch Delta tables, checked before anything is written.
 * They are runtime settings, so they are read again on every operation, not once.
 */
public final class SessionChecks {
  static final String UPDATE_CATALOG_HOOK = "spark.databricks.delta.catalog.update.enabled";
  static final String REQUIRED_CONFS_CHECK = "spark.databricks.delta.requiredSparkConfsCheck.enabled";
  static final String SESSION_CATALOG = "spark.sql.catalog.spark_catalog";
  static final String RUN_SQL_ON_FILES = "spark.sql.runSQLOnFiles";

  private SessionChecks() {}

  /**
   * Delta's UpdateCatalog hook writes through the session's built-in catalog, so with a same-named table
   * there it would update that table instead of the Glue one. gluecat refuses to work while it is on.
   */
  public static void requireUpdateCatalogHookOff(String catalog) {
    if (Boolean.parseBoolean(SQLConf.get().getConfString(UPDATE_CATALOG_HOOK, "false"))) {
      throw new IllegalStateException(String.format("gluecat catalog '%s' does not work while %s=true: Delta's "
          + "UpdateCatalog hook would write table metadata to Spark's built-in catalog instead of Glue. "
          + "Set %s=false.", catalog, UPDATE_CATALOG_HOOK, UPDATE_CATALOG_HOOK));
    }
  }

  /** Delta refuses every statement unless spark_catalog is set; say what to set, in gluecat's terms. */
  static void requireDeltaSessionConfig(String catalog) {
    SQLConf conf = SQLConf.get();
    if (Boolean.parseBoolean(conf.getConfString(REQUIRED_CONFS_CHECK, "true")) && !conf.contains(SESSION_CATALOG)) {
      throw new IllegalStateException(String.format("gluecat catalog '%s' serves Delta tables through Delta Lake, "
          + "which requires %s to be set. Set %s=org.apache.spark.sql.delta.catalog.DeltaCatalog (or use gluecat "
          + "itself as the session catalog, %s=io.gluecat.GlueCatalog), together with "
          + "spark.sql.extensions=io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension "
          + "(Delta's extension is needed; gluecat's is optional and, when listed, comes first).", catalog, SESSION_CATALOG,
          SESSION_CATALOG, SESSION_CATALOG));
    }
  }

  /** gluecat creates and replaces Delta tables through path identifiers, which need SQL on files. */
  static void requireSqlOnFiles(String catalog, TableName table) {
    if (!Boolean.parseBoolean(SQLConf.get().getConfString(RUN_SQL_ON_FILES, "true"))) {
      throw new IllegalStateException(String.format("gluecat catalog '%s' cannot create or replace Delta table %s "
          + "while %s=false: it creates Delta tables by path (delta.`<location>`) before registering them in "
          + "Glue. Set %s=true.", catalog, table, RUN_SQL_ON_FILES, RUN_SQL_ON_FILES));
    }
  }
}
