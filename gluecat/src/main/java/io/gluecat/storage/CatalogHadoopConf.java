package io.gluecat.storage;

import io.gluecat.compat.SparkCompat;
import io.gluecat.config.CatalogOptions;
import io.gluecat.storage.CatalogSecrets;
import io.gluecat.storage.StorageTrust;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.net.URI;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.TableCatalog;
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
  /** S3A's credentials-provider setting, and gluecat's provider of a catalog's keys or role (per Spark line). */
  public static final String S3A_CREDENTIALS_PROVIDER = "fs.s3a.aws.credentials.provider";
  public static final String PROVIDER_CLASS = "io.gluecat.s3a.CatalogCredentialsProvider";
  /** S3A's own providers of static keys, which gluecat's provider stands in for (it finds the keys by reference). */
  private static final Set<String> S3A_STATIC_PROVIDERS = Set.of(
      "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider", "org.apache.hadoop.fs.s3a.TemporaryAWSCredentialsProvider");
  /** The reference to this catalog's secret settings that its tables carry instead of the secrets. */
  public static final String CATALOG_REF = "fs.s3a.gluecat.ref";
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
  /** Every setting, secrets included: only for opening a location in this JVM. */
  private final Map<String, String> properties;
  /** The settings that travel with tables: no secret, and S3A's keys found through gluecat's provider. */
  private final Map<String, String> shared;
  private final AtomicBoolean warnedAboutLegacyFlag = new AtomicBoolean();
  /**
   * The configuration open() uses, built once per statement: copying the session's Hadoop configuration
   * (hundreds of keys) on every table load was the cost of a load that Glue did not cause, and Spark loads a
   * table several times per statement. The session's settings are read again for each statement.
   */
  private final io.gluecat.cache.StatementLocal<Configuration> statementConf =
      new io.gluecat.cache.StatementLocal<>(this::configuration);

  public CatalogHadoopConf(CatalogOptions options) {
    this.catalog = options.catalogName();
    this.properties = Collections.unmodifiableMap(derive(options));
    String ref = catalog + "#" + UUID.randomUUID();
    this.shared = Collections.unmodifiableMap(shareable(properties, ref));
    Map<String, String> secrets = new LinkedHashMap<>(properties);
    secrets.keySet().removeIf(k -> !StorageTrust.isSecret(k));
    CatalogSecrets.register(ref, secrets);
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
      result.put(S3A_CREDENTIALS_PROVIDER, PROVIDER_CLASS);
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

  /**
   * The settings without secrets, which travel with tables. Where the catalog has S3A keys, S3A gets them
   * from gluecat's provider, which finds them through the reference instead of the table's options.
   */
  static Map<String, String> shareable(Map<String, String> settings, String ref) {
    Map<String, String> result = new LinkedHashMap<>();
    settings.forEach((k, v) -> {
      if (!StorageTrust.isSecret(k)) {
        result.put(k, v);
      }
    });
    boolean s3aKeys = settings.keySet().stream().anyMatch(k -> k.startsWith("fs.s3a.") && k.endsWith(".access.key"));
    if (s3aKeys) {
      result.putIfAbsent(S3A_CREDENTIALS_PROVIDER, PROVIDER_CLASS);
      result.replaceAll((k, v) -> k.endsWith(".aws.credentials.provider") ? withOurProvider(v) : v);
    }
    if (result.values().stream().anyMatch(v -> v.contains(PROVIDER_CLASS))) {
      result.put(CATALOG_REF, ref);
      result.putIfAbsent(ROLE_CATALOG, settings.getOrDefault(ROLE_CATALOG, ref.substring(0, ref.indexOf('#'))));
    }
    return result;
  }

  /** A provider list with S3A's static-key providers replaced by gluecat's (once). */
  private static String withOurProvider(String providers) {
    Set<String> result = new java.util.LinkedHashSet<>();
    for (String p : providers.split(",")) {
      String provider = p.trim();
      if (!provider.isEmpty()) {
        result.add(S3A_STATIC_PROVIDERS.contains(provider) ? PROVIDER_CLASS : provider);
      }
    }
    return String.join(",", result);
  }

  /** The settings that travel with this catalog's tables (no secrets). */
  public Map<String, String> properties() {
    return shared;
  }

  /**
   * A loaded table's storage properties: this catalog's shareable settings, with the table's own options
   * on top, except any that would decide how storage is reached (see StorageTrust), which are ignored
   * with a warning naming the table.
   */
  public Map<String, String> storageProperties(String table, Map<String, String> tableProperties) {
    Map<String, String> result = new LinkedHashMap<>(shared);
    Set<String> ignored = new TreeSet<>();
    result.putAll(StorageTrust.entryOptions(tableProperties, ignored));
    if (!ignored.isEmpty()) {
      LOG.warn("gluecat catalog '{}': table {} has options that would decide how its storage is reached ({}); "
          + "they are ignored, because Hadoop settings come from the catalog's configuration only", catalog,
          table, String.join(", ", ignored));
    }
    return result;
  }

  /** The keys {@link #storageProperties} adds to a table's own options: the catalog's settings, not the table's. */
  public Set<String> addedSettings(Map<String, String> tableProperties) {
    Set<String> added = new TreeSet<>(shared.keySet());
    added.removeAll(StorageTrust.entryOptions(tableProperties, new TreeSet<>()).keySet());
    return added;
  }

  /**
   * The options of a write: this catalog's shareable settings, the table's own options (as for loads), then
   * the caller's (which win, SQL OPTIONS included).
   */
  public Map<String, String> writeOptions(String table, Map<String, String> tableOptions, Map<String, String> callerOptions) {
    Map<String, String> result = storageProperties(table, tableOptions);
    result.putAll(callerOptions);
    return result;
  }

  /**
   * Runs {@code action} with this catalog's shareable settings (no secrets) in the session's SQL configuration,
   * which Spark copies into the Hadoop configuration of every job it plans. For Delta commands that take no
   * options and read files on executors with the session's configuration only (CONVERT TO DELTA lists and reads
   * the parquet files there); the session's own values of those keys are put back afterwards.
   */
  public <T> T withSessionSettings(org.apache.spark.sql.SparkSession spark, java.util.function.Supplier<T> action) {
    org.apache.spark.sql.internal.SQLConf conf = spark.sessionState().conf();
    Map<String, String> before = new LinkedHashMap<>();
    shared.forEach((key, value) -> {
      before.put(key, conf.contains(key) ? conf.getConfString(key) : null);
      conf.setConfString(key, value);
    });
    try {
      return action.get();
    } finally {
      before.forEach((key, value) -> {
        if (value == null) {
          conf.unsetConf(key);
        } else {
          conf.setConfString(key, value);
        }
      });
    }
  }

  /** The options Delta opens a table's log with when gluecat reads it by path: the shareable settings. */
  public Map<String, String> deltaLogOptions() {
    return shared;
  }

  /**
   * The properties of a Delta create by path, with this catalog's shareable settings added as write options
   * ({@code option.<key>}). Delta opens the new table's log with the file-system options among them, so its
   * checksum write (Hadoop's FileContext, which bypasses the FileSystem cache) and the snapshot it rebuilds on
   * executors reach storage the catalog's way. Given options win; left as they are while Delta's legacy
   * storeOptionsAsProperties flag would keep options in the table's log.
   */
  public Map<String, String> withDeltaCreateOptions(Map<String, String> properties) {
    if (shared.isEmpty() || deltaStoresWriteOptions()) {
      return properties;
    }
    Map<String, String> result = new LinkedHashMap<>(properties);
    shared.forEach((key, value) -> result.putIfAbsent(TableCatalog.OPTION_PREFIX + key, value));
    return result;
  }

  /**
   * Spark's description of a Delta write, with this catalog's settings added to its options (see
   * writeOptions). While Delta's legacy storeOptionsAsProperties flag is on, Delta would keep them in the
   * table's log, so the write is left as it is (and the flag is warned about once).
   */
  public LogicalWriteInfo withDeltaWriteOptions(LogicalWriteInfo info) {
    if (shared.isEmpty() || deltaStoresWriteOptions()) {
      return info;
    }
    Map<String, String> merged = new LinkedHashMap<>(shared);
    merged.putAll(info.options().asCaseSensitiveMap());
    CaseInsensitiveStringMap options = new CaseInsensitiveStringMap(merged);
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
   * Opens a location's FileSystem with this catalog's settings, secrets included, so that Hadoop's cache
   * holds that instance when Delta or Spark later open the location with the table's options or the
   * session's configuration (in this JVM). Two things would make the catalog read through a file system it
   * did not configure, and both are refused here, naming the table: a scheme this catalog has no file
   * system for (the cache would serve one another catalog opened), and a cached file system that was
   * opened with other settings for this catalog's keys (another catalog, or the session, reached the same
   * bucket another way).
   *
   * @param table what the location belongs to, for messages
   */
  public FileSystem open(String table, String location) {
    Path path;
    try {
      path = new Path(location);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(String.format("gluecat catalog '%s': %s has the location '%s', which is "
          + "not a valid path: %s", catalog, table, location, e.getMessage()), e);
    }
    Configuration conf = statementConf.get();
    if (conf == null) { // outside any statement (a direct call): the session's configuration as it is now
      conf = configuration();
    }
    URI uri = path.toUri();
    String scheme = uri.getScheme() != null ? uri.getScheme() : FileSystem.getDefaultUri(conf).getScheme();
    try {
      FileSystem.getFileSystemClass(scheme, conf);
    } catch (IOException e) {
      throw new IllegalArgumentException(FileSystemRefusals.noFileSystem(catalog, table, location, scheme), e);
    } catch (RuntimeException e) {
      // The configuration names a class for the scheme that cannot be loaded: Hadoop 3.5's defaults name
      // a gs: file system (Spark 4.2) whose jar is seldom on the classpath; older Hadoop names none.
      // Hadoop's own defaults name S3A for s3a:, so a missing hadoop-aws fails here too.
      throw new IllegalArgumentException(FileSystemRefusals.unloadable(catalog, table, location, scheme, e.getMessage(),
          org.apache.hadoop.util.VersionInfo.getVersion()), e);
    }
    FileSystem fs;
    try {
      fs = path.getFileSystem(conf);
    } catch (IOException e) {
      throw new IllegalStateException(String.format("gluecat catalog '%s' could not open the file system of %s (%s): %s",
          catalog, table, location, e.getMessage()), e);
    }
    Set<String> differing = differingSettings(fs, uri);
    if (!differing.isEmpty()) {
      throw new IllegalStateException(String.format("gluecat catalog '%s': %s is at %s, but this JVM already opened "
          + "that file system with other values for %s (through another catalog or the session's own settings). "
          + "Hadoop keeps one FileSystem per scheme and bucket, so each bucket must be reached one way only: "
          + "through one catalog's settings, or through the session's.", catalog, table, location,
          String.join(", ", differing)));
    }
    return fs;
  }

  /** For messages of callers that open a location they name themselves. */
  public FileSystem open(String location) {
    return open("the location", location);
  }

  /**
   * This catalog's settings for the file system's family (fs.s3a.*, fs.azure.*, fs.gs.*, fs.<scheme>.*)
   * whose value differs in the configuration the cached instance was opened with. Either of the catalog's
   * two forms counts as its own: all settings (as this class opens locations) or the shareable ones (as
   * Delta and Spark open them with a table's options), where secrets are absent and the reference to them
   * names this catalog. S3A copies a bucket's own settings (fs.s3a.bucket.<b>.x) over the general ones
   * (fs.s3a.x) in its configuration, so the expected value of a general key is the bucket's own where the
   * catalog has one.
   */
  private Set<String> differingSettings(FileSystem fs, URI uri) {
    Configuration opened = fs.getConf();
    Set<String> differing = new TreeSet<>();
    if (opened == null) {
      return differing;
    }
    String family = family(fs, uri);
    String bucketPrefix = family + "bucket." + uri.getHost() + ".";
    String openedRef = opened.get(CATALOG_REF, "");
    boolean openedByThisCatalog = openedRef.startsWith(catalog + "#");
    properties.forEach((k, v) -> {
      boolean bucketKey = k.startsWith(family + "bucket.");
      if (!k.startsWith(family) || (bucketKey && !k.startsWith(bucketPrefix))) {
        return;
      }
      String general = bucketKey || !"fs.s3a.".equals(family) ? k : bucketPrefix + k.substring(family.length());
      String actual = opened.get(k);
      String all = properties.getOrDefault(general, v);
      String shareable = shared.getOrDefault(general, shared.get(k));
      boolean same = all.equals(actual) || (shareable != null && shareable.equals(actual))
          || (actual == null && StorageTrust.isSecret(k) && openedByThisCatalog);
      if (!same) {
        differing.add(k);
      }
    });
    return differing;
  }

  private static String family(FileSystem fs, URI uri) {
    String type = fs.getClass().getName();
    if (type.endsWith("S3AFileSystem")) {
      return "fs.s3a.";
    }
    if (type.contains(".azure")) {
      return "fs.azure.";
    }
    if (type.contains("GoogleHadoopFileSystem")) {
      return "fs.gs.";
    }
    return "fs." + uri.getScheme() + ".";
  }
}
