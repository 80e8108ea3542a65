package io.gluecat;

import io.gluecat.compat.SparkCompat;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Hadoop settings of one catalog's tables: its {@code hadoop.*} options plus the S3A settings derived
 * from its region and role. A session has one Hadoop configuration for all catalogs, so these travel with
 * each table instead: as storage properties of loaded tables, as write options of gluecat's writes, and by
 * opening a location's FileSystem with them before Delta opens it by path (Hadoop caches one FileSystem per
 * scheme, bucket and user, so the first open decides). None of them is ever written to Glue or a Delta log.
 */
public final class CatalogHadoopConf {
  /** S3A's credentials-provider setting, and gluecat's provider for a catalog's role (per Spark line). */
  public static final String S3A_CREDENTIALS_PROVIDER = "fs.s3a.aws.credentials.provider";
  public static final String ROLE_PROVIDER_CLASS = "io.gluecat.s3a.CatalogRoleCredentialsProvider";
  /** S3A's region setting. */
  public static final String S3A_REGION = "fs.s3a.endpoint.region";
  /**
   * What gluecat's provider reads. They start with {@code fs.} because Delta copies only {@code fs.*} and
   * {@code dfs.*} storage properties into the configuration of a table's log.
   */
  public static final String ROLE_ARN = "fs.s3a.gluecat.role.arn";
  public static final String ROLE_EXTERNAL_ID = "fs.s3a.gluecat.role.external-id";
  public static final String ROLE_SESSION_NAME = "fs.s3a.gluecat.role.session-name";
  public static final String ROLE_STS_ENDPOINT = "fs.s3a.gluecat.sts.endpoint";
  public static final String ROLE_REGION = "fs.s3a.gluecat.region";
  public static final String ROLE_CATALOG = "fs.s3a.gluecat.catalog";
  /** While Delta's legacy flag is on, Delta stores every write option in the table's log. */
  static final String DELTA_STORE_OPTIONS_AS_PROPERTIES = "spark.databricks.delta.legacy.storeOptionsAsProperties";

  private static final Logger LOG = LoggerFactory.getLogger(CatalogHadoopConf.class);

  private final String catalog;
  private final Map<String, String> properties;
  private final AtomicBoolean warnedAboutLegacyFlag = new AtomicBoolean();

  CatalogHadoopConf(CatalogOptions options) {
    this.catalog = options.catalogName();
    this.properties = Collections.unmodifiableMap(derive(options));
  }

  /** The settings in effect: the {@code hadoop.*} options, plus each derived default they do not override. */
  static Map<String, String> derive(CatalogOptions options) {
    Map<String, String> given = options.hadoopOptions();
    Map<String, String> result = new LinkedHashMap<>();
    if (!given.containsKey(S3A_REGION)) {
      options.region().ifPresent(region -> result.put(S3A_REGION, region));
    }
    boolean credentialsGiven = given.containsKey(S3A_CREDENTIALS_PROVIDER) || given.containsKey("fs.s3a.access.key");
    if (!credentialsGiven && options.roleArn().isPresent()) {
      result.put(S3A_CREDENTIALS_PROVIDER, ROLE_PROVIDER_CLASS);
      result.put(ROLE_ARN, options.roleArn().get());
      options.roleExternalId().ifPresent(id -> result.put(ROLE_EXTERNAL_ID, id));
      result.put(ROLE_SESSION_NAME, options.roleSessionName());
      options.stsEndpoint().ifPresent(endpoint -> result.put(ROLE_STS_ENDPOINT, endpoint.toString()));
      options.region().ifPresent(region -> result.put(ROLE_REGION, region));
      result.put(ROLE_CATALOG, options.catalogName());
    }
    result.putAll(given);
    return result;
  }

  /** Every setting, for storage properties and write options. */
  public Map<String, String> properties() {
    return properties;
  }

  /** A loaded table's storage properties: this catalog's settings, with the table's own on top. */
  Map<String, String> storageProperties(Map<String, String> tableProperties) {
    Map<String, String> result = new LinkedHashMap<>(properties);
    result.putAll(tableProperties);
    return result;
  }

  /**
   * The options of a write: this catalog's settings, the table's own options, then the caller's (which
   * win, SQL OPTIONS included).
   */
  Map<String, String> writeOptions(Map<String, String> tableOptions, Map<String, String> callerOptions) {
    Map<String, String> result = storageProperties(tableOptions);
    result.putAll(callerOptions);
    return result;
  }

  /**
   * Spark's description of a Delta write, with this catalog's settings added to its options (see
   * writeOptions). While Delta's legacy storeOptionsAsProperties flag is on, Delta would keep them in the
   * table's log, so the write is left as it is (and the flag is warned about once).
   */
  LogicalWriteInfo withDeltaWriteOptions(LogicalWriteInfo info) {
    if (properties.isEmpty() || deltaStoresWriteOptions()) {
      return info;
    }
    CaseInsensitiveStringMap options = new CaseInsensitiveStringMap(
        writeOptions(Map.of(), info.options().asCaseSensitiveMap()));
    // LogicalWriteInfo gains methods between Spark lines: forward all of them, replacing only options().
    return (LogicalWriteInfo) Proxy.newProxyInstance(LogicalWriteInfo.class.getClassLoader(),
        new Class<?>[] {LogicalWriteInfo.class}, (proxy, method, args) -> {
          if (method.getName().equals("options") && method.getParameterCount() == 0) {
            return options;
          }
          try {
            return method.invoke(info, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
        });
  }

  private boolean deltaStoresWriteOptions() {
    boolean on = SparkSession.getActiveSession().isDefined()
        && Boolean.parseBoolean(SparkSession.active().conf().get(DELTA_STORE_OPTIONS_AS_PROPERTIES, "false"));
    if (on && !properties.isEmpty() && warnedAboutLegacyFlag.compareAndSet(false, true)) {
      LOG.warn("gluecat catalog '{}': {} is true, so the catalog's Hadoop settings are not added to write "
          + "options (Delta would store them in the table's log); writes use the session's Hadoop "
          + "configuration and whatever FileSystem is already open for the bucket.", catalog,
          DELTA_STORE_OPTIONS_AS_PROPERTIES);
    }
    return on;
  }

  /** The session's Hadoop configuration with this catalog's settings on top. */
  public Configuration configuration() {
    Configuration conf = SparkCompat.newHadoopConf();
    properties.forEach(conf::set);
    return conf;
  }

  /**
   * Opens a location's FileSystem with this catalog's settings, so that Hadoop's cache holds that instance
   * when Delta or Spark later open the location with the session's configuration (driver JVM only).
   */
  public FileSystem open(String location) {
    try {
      return new Path(location).getFileSystem(configuration());
    } catch (IOException e) {
      throw new IllegalStateException(String.format("gluecat catalog '%s' could not open the file system of %s: %s",
          catalog, location, e.getMessage()), e);
    }
  }
}
