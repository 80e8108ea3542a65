package io.gluecat.config;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import java.util.Properties;

/**
 * Each gluecat artifact is compiled against one Spark line (3.5, 4.0, 4.1, 4.2): on another, Spark's internal
 * signatures differ and the first statement would fail with a NoSuchMethodError or ClassCastException far from
 * the cause. The catalog therefore refuses to start on a Spark line other than its own; a different patch of
 * the same line (4.1.1 for a 4.1.3 build, 3.5.6-amzn-0 for 3.5.9) is accepted.
 */
public final class SparkLineCheck {
  private SparkLineCheck() {}

  private static final Properties BUILD = readBuildInfo();

  /** Refuses to start catalog {@code catalog} on a Spark line this jar was not built for. */
  public static void requireBuiltLine(String catalog) {
    mismatch(catalog, BUILD.getProperty("artifact"), BUILD.getProperty("spark.version"),
        SparkEnvironment.sparkVersion(), scala.util.Properties.versionNumberString()).ifPresent(message -> {
          throw new IllegalStateException(message);
        });
  }

  /** The Spark release this jar was built for, as its build recorded it (null outside a built artifact). */
  public static String builtSparkVersion() {
    return BUILD.getProperty("spark.version");
  }

  /**
   * The refusal for a jar {@code artifact} built on Spark {@code built} running on Spark {@code running} with
   * Scala {@code runningScala}, or empty when the lines agree or either version is not known.
   */
  static Optional<String> mismatch(String catalog, String artifact, String built, String running,
      String runningScala) {
    String builtLine = line(built);
    String runningLine = line(running);
    if (builtLine == null || runningLine == null || builtLine.equals(runningLine)) {
      return Optional.empty();
    }
    String scalaBinary = line(runningScala);
    return Optional.of(String.format("gluecat catalog '%s' cannot start: its jar, %s, is built for Spark %s (%s), "
        + "but this session runs Spark %s. Each Spark line needs the gluecat artifact built for it: for Spark %s "
        + "that is gluecat-spark-%s_%s (or gluecat-spark-runtime-%s_%s), where this release has one; "
        + "docs/platforms.md lists the artifact for each Spark line and AWS runtime.", catalog, artifact, builtLine,
        built, running, runningLine, runningLine, scalaBinary, runningLine, scalaBinary));
  }

  /** "4.1" of "4.1.3" or "3.5" of "3.5.6-amzn-0"; null when the version is not of that form. */
  public static String line(String version) {
    if (version == null) {
      return null;
    }
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^(\\d+)\\.(\\d+)").matcher(version.trim());
    return m.find() ? m.group(1) + "." + m.group(2) : null;
  }

  private static Properties readBuildInfo() {
    Properties p = new Properties();
    try (InputStream in = SparkLineCheck.class.getResourceAsStream("/io/gluecat/build-info.properties")) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      // no record: the check is skipped (line() of null)
    }
    return p;
  }
}
