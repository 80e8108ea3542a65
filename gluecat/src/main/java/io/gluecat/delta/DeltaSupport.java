package io.gluecat.delta;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether Delta Lake is on the classpath, and the DeltaCatalog that serves Delta tables by name. Delta is
 * a provided dependency: a session without it still reads other providers through gluecat.
 */
public final class DeltaSupport {
  private DeltaSupport() {}

  private static final Logger LOG = LoggerFactory.getLogger(DeltaSupport.class);
  private static final Pattern RELEASE = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

  public static final boolean AVAILABLE = isAvailable();

  private static boolean isAvailable() {
    try {
      Class.forName("org.apache.spark.sql.delta.catalog.DeltaCatalog", false, DeltaSupport.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** The Delta release on the classpath, as its jar records it (null when Delta is absent or does not say). */
  public static String version() {
    if (!AVAILABLE) {
      return null;
    }
    try {
      return Class.forName("org.apache.spark.sql.delta.catalog.DeltaCatalog", false, DeltaSupport.class.getClassLoader())
          .getPackage().getImplementationVersion();
    } catch (ClassNotFoundException | LinkageError e) {
      return null;
    }
  }

  /**
   * Warns, when catalog {@code catalog} starts, of a known break of the Spark and Delta pair it runs on: a
   * break inside Delta that gluecat cannot mend, whose own error names neither version nor the fix.
   */
  public static void warnOfKnownBreaks(String catalog, String sparkVersion) {
    knownBreak(catalog, sparkVersion, version()).ifPresent(LOG::warn);
  }

  /**
   * Delta before 3.3.3 on Spark 3.5.6 and later (AWS Glue 5.1 and Amazon EMR 7.11+ ship Delta 3.3.2 there):
   * Spark 3.5.6 checks that a replaced table's write can truncate, which those Delta releases' staged tables
   * do not declare, so every replace with a query fails (delta-io/delta#4671).
   */
  static Optional<String> knownBreak(String catalog, String sparkVersion, String deltaVersion) {
    int[] spark = release(sparkVersion);
    int[] delta = release(deltaVersion);
    if (spark == null || delta == null || spark[0] != 3 || spark[1] != 5 || spark[2] < 6 || delta[0] != 3
        || (delta[1] > 3 || (delta[1] == 3 && delta[2] >= 3))) {
      return Optional.empty();
    }
    return Optional.of(String.format("gluecat catalog '%s': Delta Lake %s on Spark %s cannot run CREATE OR REPLACE "
        + "TABLE ... USING delta AS SELECT, REPLACE TABLE ... AS SELECT or saveAsTable in overwrite mode: Delta "
        + "fails them with 'Table ... does not support truncate in batch mode' (delta-io/delta#4671, fixed in "
        + "Delta 3.3.3), through gluecat and through Delta's own catalog alike. Use Delta 3.3.3, or INSERT "
        + "OVERWRITE or CREATE TABLE ... AS SELECT into a new name (docs/platforms.md).", catalog, deltaVersion,
        sparkVersion));
  }

  /** {major, minor, patch} of "3.3.2" or "3.3.2-amzn-1"; null when not of that form. */
  private static int[] release(String version) {
    if (version == null) {
      return null;
    }
    Matcher m = RELEASE.matcher(version.trim());
    return m.find() ? new int[] {Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
        Integer.parseInt(m.group(3))} : null;
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
