package io.gluecat.delta;

import java.util.ArrayList;
import java.util.List;
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
   * Warns, when catalog {@code catalog} starts, of the known breaks of the Spark and Delta pair it runs on:
   * breaks inside Delta that gluecat cannot mend, whose own errors name neither version nor the fix.
   */
  public static void warnOfKnownBreaks(String catalog, String sparkVersion) {
    knownBreaks(catalog, sparkVersion, version()).forEach(LOG::warn);
  }

  /**
   * The known breaks of a Spark and Delta pair, each as the warning the catalog logs when it starts; empty for a
   * pair with none:
   * <ul>
   *   <li>Delta before 3.3.3 on Spark 3.5.6 and later (AWS Glue 5.1 and Amazon EMR 7.11+ ship Delta 3.3.2
   *   there): Spark 3.5.6 checks that a replaced table's write can truncate, which those Delta releases' staged
   *   tables do not declare, so every replace with a query fails (delta-io/delta#4671).
   *   <li>Delta 4.x before 4.3.0 on Spark 4.1.2 and later of the 4.1 line (AWS Glue 6.1 with Delta 4.2.0):
   *   Spark 4.1.2 removed the marker trait {@code IgnoreCachedData} (SPARK-54812), which those Delta releases'
   *   ALTER and REORG commands extend, so loading them fails with a {@code NoClassDefFoundError}
   *   (fixed by delta-io/delta#6981, in Delta 4.3.0).
   *   <li>Delta 4.x before 4.4.0 on Spark 4 (Amazon EMR 8.0 with Delta 4.0.0, AWS Glue 6.0 and 6.1 with Delta
   *   4.2.0, and the Spark 4.0 row's own Delta 4.0.1): Delta's catalog does not
   *   declare the capabilities for generated and identity columns (added by delta-io/delta#7290, in Delta 4.4.0),
   *   so Spark refuses such a create before it reaches a catalog, gluecat's or Delta's own.
   * </ul>
   */
  static List<String> knownBreaks(String catalog, String sparkVersion, String deltaVersion) {
    List<String> breaks = new ArrayList<>();
    replaceBreak(catalog, sparkVersion, deltaVersion).ifPresent(breaks::add);
    ignoreCachedDataBreak(catalog, sparkVersion, deltaVersion).ifPresent(breaks::add);
    purgeBreak(catalog, sparkVersion, deltaVersion).ifPresent(breaks::add);
    columnCapabilitiesBreak(catalog, sparkVersion, deltaVersion).ifPresent(breaks::add);
    return breaks;
  }

  static Optional<String> replaceBreak(String catalog, String sparkVersion, String deltaVersion) {
    return onPair(sparkVersion, deltaVersion, (spark, delta) -> spark[0] == 3 && spark[1] == 5
        && spark[2] >= 6 && delta[0] == 3 && delta[1] <= 3 && (delta[1] < 3 || delta[2] < 3),
        () -> String.format("gluecat catalog '%s': Delta Lake %s on Spark %s cannot run CREATE OR "
        + "REPLACE TABLE ... USING delta AS SELECT, REPLACE TABLE ... AS SELECT or saveAsTable in overwrite mode: "
        + "Delta fails them with 'Table ... does not support truncate in batch mode' (delta-io/delta#4671, fixed "
        + "in Delta 3.3.3), through gluecat and through Delta's own catalog alike. Use Delta 3.3.3, or INSERT "
        + "OVERWRITE or CREATE TABLE ... AS SELECT into a new name (docs/platforms.md).", catalog, deltaVersion,
        sparkVersion));
  }

  static Optional<String> ignoreCachedDataBreak(String catalog, String sparkVersion, String deltaVersion) {
    return onPair(sparkVersion, deltaVersion, (spark, delta) -> spark[0] == 4 && spark[1] == 1
        && spark[2] >= 2 && delta[0] == 4 && delta[1] < 3,
        () -> String.format("gluecat catalog '%s': Delta Lake %s on Spark %s cannot run ALTER TABLE or "
        + "REORG TABLE on Delta tables: Delta fails them with NoClassDefFoundError "
        + "org/apache/spark/sql/catalyst/plans/logical/IgnoreCachedData, a Spark class removed in Spark 4.1.2 "
        + "(SPARK-54812; fixed in Delta 4.3.0 by delta-io/delta#6981), through gluecat and through Delta's own "
        + "catalog alike. Use Delta 4.4.0 (the delta-spark_4.1_2.13 release gluecat-spark-4.1 is built with), "
        + "or Spark 4.1.1 with Delta %s as AWS Glue 6.0 ships them (docs/platforms.md).", catalog, deltaVersion,
        sparkVersion, deltaVersion));
  }

  static Optional<String> purgeBreak(String catalog, String sparkVersion, String deltaVersion) {
    return onPair(sparkVersion, deltaVersion, (spark, delta) -> spark[0] == 4 && spark[1] == 0 && spark[2] >= 1
        && delta[0] == 4 && delta[1] == 0 && delta[2] == 0,
        () -> String.format("gluecat catalog '%s': Delta Lake %s on Spark %s cannot run REORG TABLE ... APPLY "
        + "(PURGE): Delta's purge calls a constructor of Spark 4.0.0's Parquet schema converter that Spark 4.0.1 "
        + "changed, so its tasks fail with NoSuchMethodError, through gluecat and through Delta's own catalog "
        + "alike. Use Delta 4.0.1 (the delta-spark_2.13 release gluecat-spark-4.0 is built with), or Spark 4.0.0 "
        + "with Delta 4.0.0 (docs/platforms.md).", catalog, deltaVersion, sparkVersion));
  }

  static Optional<String> columnCapabilitiesBreak(String catalog, String sparkVersion, String deltaVersion) {
    // Delta 4.4.0 has no build for Spark 4.0 (Delta 4.0.x is that line's newest): there the builder is the way
    return onPair(sparkVersion, deltaVersion, (spark, delta) -> spark[0] == 4 && delta[0] == 4 && delta[1] < 4,
        () -> String.format("gluecat catalog '%s': Delta Lake %s on Spark %s cannot create Delta tables "
        + "with generated or identity columns (GENERATED ALWAYS AS ...) by name: Delta's catalog before 4.4.0 does "
        + "not declare them to Spark (delta-io/delta#7290), so Spark refuses the create ('does not support "
        + "generated columns') with gluecat and with Delta's own catalog alike. %s, or create such tables with "
        + "Delta's DeltaTable builder (docs/platforms.md).", catalog, deltaVersion, sparkVersion,
        sparkVersion.startsWith("4.0") ? "No Delta release for Spark 4.0 declares them (Delta 4.4.0 needs Spark "
            + "4.1 or later): use the 4.1 or 4.2 line for them" : "Use Delta 4.4.0"));
  }

  /**
   * The error a Delta statement of catalog {@code catalog} gets instead of {@code error}, a linkage error thrown
   * inside Delta, on a pair whose Delta fails so (Spark's IgnoreCachedData gone): the words of the start-up
   * warning, with Delta's error as the cause. Any other error is returned as it is.
   */
  public static Throwable explain(String catalog, Throwable error) {
    if (!(error instanceof LinkageError)) {
      return error;
    }
    return unloadableCommands(catalog).<Throwable>map(message -> new UnsupportedOperationException(message, error))
        .orElse(error);
  }

  /**
   * On a pair whose Delta cannot load its ALTER and REORG commands (Spark's IgnoreCachedData gone), the
   * start-up warning's words, with which gluecat refuses such a statement of catalog {@code catalog} before Delta
   * fails it with a linkage error; empty on every other pair.
   */
  public static Optional<String> unloadableCommands(String catalog) {
    return ignoreCachedDataBreak(catalog, io.gluecat.config.SparkEnvironment.sparkVersion(), version());
  }

  /**
   * Why REORG TABLE of catalog {@code catalog} cannot run on this pair, in the start-up warning's words: Delta
   * cannot load its command (above), or its purge fails in every task (Delta 4.0.0 on Spark 4.0.1 and later).
   */
  public static Optional<String> reorgRefusal(String catalog) {
    return unloadableCommands(catalog).or(() -> purgeBreak(catalog,
        io.gluecat.config.SparkEnvironment.sparkVersion(), version()));
  }

  /**
   * {@code message} when both versions are releases and {@code applies} holds for their {major, minor, patch};
   * empty otherwise (an unknown version is no known break).
   */
  private static Optional<String> onPair(String sparkVersion, String deltaVersion,
      java.util.function.BiPredicate<int[], int[]> applies, java.util.function.Supplier<String> message) {
    int[] spark = release(sparkVersion);
    int[] delta = release(deltaVersion);
    return spark != null && delta != null && applies.test(spark, delta) ? Optional.of(message.get())
        : Optional.empty();
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
