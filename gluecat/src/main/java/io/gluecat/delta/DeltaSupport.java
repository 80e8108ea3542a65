package io.gluecat.delta;

import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.TableCatalog;

/**
 * Whether Delta Lake is on the classpath, and the DeltaCatalog that serves Delta tables by name. Delta is
 * a provided dependency: a session without it still reads other providers through gluecat.
 */
public final class DeltaSupport {
  private DeltaSupport() {}

  public static final boolean AVAILABLE = isAvailable();

  private static boolean isAvailable() {
    try {
      Class.forName("org.apache.spark.sql.delta.catalog.DeltaCatalog", false, DeltaSupport.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /**
   * A DeltaCatalog whose delegate is {@code entries}. Delta's catalog needs an active SparkSession when it
   * is built, so callers build it on first use, never at class loading.
   */
  public static TableCatalog newDeltaCatalog(CatalogPlugin entries) {
    return DeltaCatalogFactory.create(entries);
  }

  /** Kept apart so that DeltaCatalog is only resolved when Delta is present. */
  private static final class DeltaCatalogFactory {
    static TableCatalog create(CatalogPlugin entries) {
      org.apache.spark.sql.delta.catalog.DeltaCatalog delta = new org.apache.spark.sql.delta.catalog.DeltaCatalog();
      delta.setDelegateCatalog(entries);
      return delta;
    }
  }
}
