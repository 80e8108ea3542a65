package io.gluecat.config;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkContext;
import org.apache.spark.sql.internal.SQLConf;

/** What gluecat reads from the running Spark: its version, SQL settings and Hadoop configuration. */
public final class SparkEnvironment {
  private SparkEnvironment() {}

  private static final String SPARK_VERSION = readSparkVersion();

  /** The Spark version on the classpath, as spark-core records it. */
  public static String sparkVersion() {
    return SPARK_VERSION;
  }

  /** spark.sql.sources.schemaStringLengthThreshold of the active session. */
  public static int schemaStringLengthThreshold() {
    return Integer.parseInt(SQLConf.get().getConfString("spark.sql.sources.schemaStringLengthThreshold", "4000"));
  }

  /**
   * A location as readers outside this Spark session need it: a scheme-less absolute path is qualified
   * with the session's default file system (file:/ or hdfs://...), anything with a scheme is kept.
   */
  public static String qualify(String location) {
    URI uri = new Path(location).toUri();
    if (uri.getScheme() != null) {
      return location;
    }
    try {
      Configuration conf = SparkContext.getOrCreate().hadoopConfiguration();
      Path path = new Path(location);
      return path.getFileSystem(conf).makeQualified(path).toString();
    } catch (IOException e) {
      throw new IllegalArgumentException("cannot qualify location '" + location + "': " + e.getMessage(), e);
    }
  }

  /**
   * {@link #qualify(String)}, for a location given by a user or stored in Glue, which may not be a URI at
   * all: that is reported as the location of {@code owner} (e.g. "table glue.sales.orders" or "database
   * glue.sales") that is not a valid URI, instead of a bare URISyntaxException.
   */
  public static String qualify(String location, String owner) {
    try {
      new Path(location).toUri();
    } catch (IllegalArgumentException e) {
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new IllegalArgumentException(String.format("The location of %s is not a valid URI ('%s'): %s", owner,
          location, cause.getMessage()), e);
    }
    return qualify(location);
  }

  private static String readSparkVersion() {
    try (InputStream in = SparkContext.class.getResourceAsStream("/spark-version-info.properties")) {
      Properties p = new Properties();
      if (in != null) {
        p.load(in);
      }
      return p.getProperty("version", "unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }
}
