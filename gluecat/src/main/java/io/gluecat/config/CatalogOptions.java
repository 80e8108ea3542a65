package io.gluecat.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * Every option of a gluecat catalog ({@code spark.sql.catalog.<name>.<option>}), with its default and
 * its check. This class is the only place that knows option names; docs/configuration.md describes the
 * same list for users.
 *
 * <p>Parsing is strict: an unknown or malformed option fails {@code initialize} with an error that names
 * the catalog and the option, so a typo never silently falls back to a default account or region.
 * Messages never echo option values that could be secrets (gluecat takes no secret as an option, but a
 * user may mistype one into an unknown key, so unknown keys are named without their values).
 */
public final class CatalogOptions {

  public static final String GLUE_ID = "glue.id";
  public static final String REGION = "region";
  public static final String GLUE_ENDPOINT = "glue.endpoint";
  public static final String STS_ENDPOINT = "sts.endpoint";
  public static final String ROLE_ARN = "role.arn";
  public static final String ROLE_EXTERNAL_ID = "role.external-id";
  public static final String ROLE_SESSION_NAME = "role.session-name";
  public static final String SKIP_ARCHIVE = "glue.skip-archive";
  public static final String WAREHOUSE = "warehouse";
  /** Location prefixes stored in Glue and where Hadoop opens them, e.g. {@code local:///=file:/data/trino/}. */
  public static final String LOCATION_MAP = "location.map";
  /** Data source providers served beyond Delta and the file formats, e.g. {@code jdbc}; off by default. */
  public static final String PROVIDERS_EXTRA = "providers.extra";
  /**
   * When Glue partition objects of partitioned Hive-compatible tables (parquet, orc, avro) are synced from the
   * table's directories: {@code after-write} (default) in every statement that writes or moves them through
   * gluecat, {@code on-demand} only when asked (PartitionSync, the doctor tool).
   */
  public static final String PARTITIONS_SYNC = "partitions.sync";
  public static final String PARTITIONS_SYNC_AFTER_WRITE = "after-write";
  public static final String PARTITIONS_SYNC_ON_DEMAND = "on-demand";
  /** Prefix of Hadoop settings carried to this catalog's tables, e.g. {@code hadoop.fs.s3a.endpoint}. */
  public static final String HADOOP_PREFIX = "hadoop.";
  /** Prefix of Iceberg catalog properties passed to the catalog's Iceberg tables (iceberg.IcebergProperties). */
  public static final String ICEBERG_PREFIX = "iceberg.";

  // ---- retries ----
  /** Attempts per Glue call, the first included, under the AWS SDK's retry strategy (default: the SDK's). */
  public static final String GLUE_MAX_ATTEMPTS = "glue.max-attempts";
  public static final int MAX_GLUE_ATTEMPTS_ALLOWED = 20;
  /**
   * The AWS SDK's retry mode for Glue calls: {@code standard}, {@code adaptive} (standard plus a client-side rate
   * limit that slows the client down once Glue throttles it) or {@code legacy}; default: the SDK's (its
   * AWS_RETRY_MODE / profile setting, else legacy). docs/performance.md, "Throttling at load", has the measurements.
   */
  public static final String GLUE_RETRY_MODE = "glue.retry-mode";
  public static final List<String> RETRY_MODES = List.of("standard", "adaptive", "legacy");
  // ---- end of retries ----

  // ---- metadata cache across statements (io.gluecat.cache) ----
  /** How long an entry read from Glue may serve later statements: a duration such as 30s or 5m; 0 (default) = never. */
  public static final String CACHE_TTL = "cache.ttl";
  /** How many entries (tables and databases) the cross-statement cache keeps at most. */
  public static final String CACHE_MAX_ENTRIES = "cache.max-entries";
  static final int DEFAULT_CACHE_MAX_ENTRIES = 10_000;
  static final int MAX_CACHE_MAX_ENTRIES = 10_000_000;
  // ---- end of metadata cache ----

  // ---- planning (io.gluecat.extensions) ----
  /**
   * How many of one statement's table entries this catalog reads from Glue at once before Spark resolves them
   * (with gluecat's session extension); 0 or 1 leaves them to Spark, which reads them one by one as it resolves
   * them (as it always does without the extension).
   */
  public static final String PREFETCH_THREADS = "planning.prefetch-threads";
  // one round trip for statements of up to 16 tables, a modest burst on the account's Glue request quota
  // (docs/performance.md, "Planning many tables", has the measurements)
  static final int DEFAULT_PREFETCH_THREADS = 16;
  static final int MAX_PREFETCH_THREADS = 64;
  // ---- end of planning ----
  /**
   * In how many parallel segments (GetPartitions' Segment of TotalSegments) a Hive-format table's partitions are
   * read when a query does not narrow them with a partition filter; 1 reads them in one listing.
   */
  public static final String PARTITION_SEGMENTS = "glue.partition-segments";
  static final int DEFAULT_PARTITION_SEGMENTS = 4;
  /** Glue's limit on TotalSegments. */
  static final int MAX_PARTITION_SEGMENTS = 10;

  /**
   * Whether each statement logs, at INFO, one line with the Glue and STS calls it made by operation, their
   * retries and the time spent in them (io.gluecat.cache.StatementCalls); off by default.
   */
  public static final String LOG_STATEMENT_CALLS = "log.statement-calls";

  /**
   * Spark's own setting for the session catalog's database at start
   * ({@code spark.sql.catalog.spark_catalog.defaultDatabase}); Spark passes it to the catalog with its other
   * options, so gluecat in session mode takes it as its default namespace instead of refusing it.
   */
  public static final String SESSION_DEFAULT_DATABASE = "defaultdatabase";
  static final String SESSION_CATALOG = "spark_catalog";

  /** The options a user may set, for error messages and docs. */
  public static final List<String> KNOWN =
      List.of(GLUE_ID, REGION, GLUE_ENDPOINT, STS_ENDPOINT, ROLE_ARN, ROLE_EXTERNAL_ID,
          ROLE_SESSION_NAME, SKIP_ARCHIVE, WAREHOUSE, LOCATION_MAP, PROVIDERS_EXTRA, HADOOP_PREFIX + "*",
          ICEBERG_PREFIX + "*", GLUE_MAX_ATTEMPTS, GLUE_RETRY_MODE, PARTITIONS_SYNC, CACHE_TTL, CACHE_MAX_ENTRIES,
          PREFETCH_THREADS, PARTITION_SEGMENTS, LOG_STATEMENT_CALLS);

  private static final Pattern ACCOUNT_ID = Pattern.compile("\\d{12}");
  private static final Pattern REGION_NAME = Pattern.compile("[a-z]{2}(-[a-z0-9]+)+-\\d{1,2}");
  private static final Pattern ROLE = Pattern.compile("arn:aws[a-z-]*:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}");
  private static final Pattern EXTERNAL_ID = Pattern.compile("[\\w+=,.@:/-]{2,1224}");
  private static final Pattern SESSION_NAME = Pattern.compile("[\\w+=,.@-]{2,64}");

  private final String catalogName;
  private final Optional<String> glueId;
  private final Optional<String> region;
  private final Optional<URI> glueEndpoint;
  private final Optional<URI> stsEndpoint;
  private final Optional<String> roleArn;
  private final Optional<String> roleExternalId;
  private final String roleSessionName;
  private final boolean skipArchive;
  private final Optional<String> warehouse;
  private final Map<String, String> hadoopOptions;
  private final Map<String, String> icebergOptions;
  private final Optional<Integer> glueMaxAttempts;
  private final Optional<String> glueRetryMode;
  private final LocationMap locationMap;
  private final Set<String> extraProviders;
  private final boolean syncPartitionsAfterWrite;
  private final Duration cacheTtl;
  private final int cacheMaxEntries;
  private final int prefetchThreads;
  private final int partitionSegments;
  private final boolean logStatementCalls;
  private final String defaultDatabase;

  private CatalogOptions(String catalogName, Map<String, String> raw) {
    this.catalogName = catalogName;
    Map<String, String> options = new TreeMap<>();
    raw.forEach((k, v) -> options.put(k.toLowerCase(Locale.ROOT), v));

    Map<String, String> hadoop = new LinkedHashMap<>();
    Map<String, String> iceberg = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : raw.entrySet()) {
      String key = e.getKey();
      String lower = key.toLowerCase(Locale.ROOT);
      // Hadoop's and Iceberg's keys are case-sensitive: keep the spelling the user gave.
      if (lower.startsWith(HADOOP_PREFIX)) {
        putPrefixed(key, HADOOP_PREFIX, "Hadoop setting", e.getValue(), hadoop);
      } else if (lower.startsWith(ICEBERG_PREFIX)) {
        putPrefixed(key, ICEBERG_PREFIX, "Iceberg property", e.getValue(), iceberg);
      } else if (!KNOWN.contains(lower)
          && !(lower.equals(SESSION_DEFAULT_DATABASE) && catalogName.equalsIgnoreCase(SESSION_CATALOG))) {
        throw new IllegalArgumentException(String.format(
            "gluecat catalog '%s': unknown option '%s' (spark.sql.catalog.%s.%s). Known options: %s",
            catalogName, key, catalogName, key, String.join(", ", KNOWN)));
      }
    }
    this.hadoopOptions = Collections.unmodifiableMap(hadoop);
    this.icebergOptions = Collections.unmodifiableMap(iceberg);

    this.glueId = matching(options, GLUE_ID, ACCOUNT_ID, "must be a 12-digit AWS account id");
    this.region = matching(options, REGION, REGION_NAME, "must be an AWS region name such as us-east-1");
    this.glueEndpoint = endpoint(options, GLUE_ENDPOINT);
    this.stsEndpoint = endpoint(options, STS_ENDPOINT);
    this.roleArn = matching(options, ROLE_ARN, ROLE,
        "must be an IAM role ARN such as arn:aws:iam::123456789012:role/name");
    this.roleExternalId = matching(options, ROLE_EXTERNAL_ID, EXTERNAL_ID,
        "must be 2 to 1224 characters of letters, digits and +=,.@:/-_");
    Optional<String> sessionName = matching(options, ROLE_SESSION_NAME, SESSION_NAME,
        "must be 2 to 64 characters of letters, digits and +=,.@-_");
    if (roleArn.isEmpty()) {
      for (String dependent : List.of(ROLE_EXTERNAL_ID, ROLE_SESSION_NAME)) {
        if (options.containsKey(dependent)) {
          throw invalid(dependent, "is set but " + ROLE_ARN + " is not; it only applies to an assumed role");
        }
      }
    }
    this.roleSessionName = sessionName.orElseGet(() -> defaultSessionName(catalogName));
    this.skipArchive = bool(options, SKIP_ARCHIVE, false);
    this.logStatementCalls = bool(options, LOG_STATEMENT_CALLS, false);
    this.defaultDatabase = text(options, SESSION_DEFAULT_DATABASE).orElse("default");
    this.glueMaxAttempts = integer(options, GLUE_MAX_ATTEMPTS, 1, MAX_GLUE_ATTEMPTS_ALLOWED);
    this.glueRetryMode = text(options, GLUE_RETRY_MODE).map(v -> v.toLowerCase(Locale.ROOT)).map(v -> {
      if (!RETRY_MODES.contains(v)) {
        throw invalid(GLUE_RETRY_MODE, "'" + v + "' must be one of " + String.join(", ", RETRY_MODES));
      }
      return v;
    });
    this.warehouse = text(options, WAREHOUSE).map(w -> {
      checkLocation(WAREHOUSE, w);
      return w.endsWith("/") ? w.substring(0, w.length() - 1) : w;
    });
    this.locationMap = text(options, LOCATION_MAP)
        .map(v -> LocationMap.parse(v, problem -> invalid(LOCATION_MAP, problem)))
        .orElse(LocationMap.NONE);
    this.extraProviders = text(options, PROVIDERS_EXTRA).map(v -> {
      Set<String> providers = new TreeSet<>();
      for (String p : v.split(",")) {
        String provider = p.trim().toLowerCase(Locale.ROOT);
        if (!provider.matches("[a-z0-9_.-]+")) {
          throw invalid(PROVIDERS_EXTRA, "has '" + p.trim() + "', which is not a data source name such as jdbc");
        }
        providers.add(provider);
      }
      return Collections.unmodifiableSet(providers);
    }).orElse(Set.of());
    String sync = text(options, PARTITIONS_SYNC).map(v -> v.toLowerCase(Locale.ROOT)).orElse(PARTITIONS_SYNC_AFTER_WRITE);
    if (!sync.equals(PARTITIONS_SYNC_AFTER_WRITE) && !sync.equals(PARTITIONS_SYNC_ON_DEMAND)) {
      throw invalid(PARTITIONS_SYNC, "'" + sync + "' must be " + PARTITIONS_SYNC_AFTER_WRITE + " or "
          + PARTITIONS_SYNC_ON_DEMAND);
    }
    this.syncPartitionsAfterWrite = sync.equals(PARTITIONS_SYNC_AFTER_WRITE);
    this.cacheTtl = text(options, CACHE_TTL).map(v -> duration(CACHE_TTL, v)).orElse(Duration.ZERO);
    this.cacheMaxEntries = integer(options, CACHE_MAX_ENTRIES, 1, MAX_CACHE_MAX_ENTRIES)
        .orElse(DEFAULT_CACHE_MAX_ENTRIES);
    this.prefetchThreads = integer(options, PREFETCH_THREADS, 0, MAX_PREFETCH_THREADS).orElse(DEFAULT_PREFETCH_THREADS);
    this.partitionSegments = integer(options, PARTITION_SEGMENTS, 1, MAX_PARTITION_SEGMENTS)
        .orElse(DEFAULT_PARTITION_SEGMENTS);
    if (options.containsKey(CACHE_MAX_ENTRIES) && cacheTtl.isZero()) {
      throw invalid(CACHE_MAX_ENTRIES, "is set but " + CACHE_TTL + " is not; the cache across statements is off "
          + "until " + CACHE_TTL + " is a positive duration such as 5m");
    }
  }

  /** Parses and checks a catalog's options; throws IllegalArgumentException naming catalog and option. */
  public static CatalogOptions parse(String catalogName, Map<String, String> options) {
    return new CatalogOptions(catalogName, options);
  }

  public String catalogName() { return catalogName; }
  /** The Glue catalog id (AWS account) every call names; empty means the caller's own account. */
  public Optional<String> glueId() { return glueId; }
  public Optional<String> region() { return region; }
  public Optional<URI> glueEndpoint() { return glueEndpoint; }
  public Optional<URI> stsEndpoint() { return stsEndpoint; }
  public Optional<String> roleArn() { return roleArn; }
  public Optional<String> roleExternalId() { return roleExternalId; }
  public String roleSessionName() { return roleSessionName; }
  public boolean skipArchive() { return skipArchive; }
  /** Root for databases created without a location ({@code <warehouse>/<db>.db}); no trailing slash. */
  public Optional<String> warehouse() { return warehouse; }
  /** How many attempts the SDK makes per Glue call, the first included; empty means the SDK's default. */
  public Optional<Integer> glueMaxAttempts() { return glueMaxAttempts; }
  /** The AWS SDK retry mode of Glue calls (standard, adaptive, legacy); empty means the SDK's default. */
  public Optional<String> glueRetryMode() { return glueRetryMode; }
  /** Where Hadoop opens locations that Glue stores under other prefixes (empty: as stored). */
  public LocationMap locationMap() { return locationMap; }
  /** Providers the user allowed beyond the built-in list, lower case. */
  public Set<String> extraProviders() { return extraProviders; }
  /**
   * Whether statements that write a partitioned Hive-compatible table through gluecat also sync its Glue
   * partition objects ({@code partitions.sync=after-write}, the default).
   */
  public boolean syncPartitionsAfterWrite() { return syncPartitionsAfterWrite; }
  /**
   * How long a Glue entry may serve later statements (the opt-in cache across statements); zero, the
   * default, means every statement reads Glue (within one statement, entries are always shared).
   */
  public Duration cacheTtl() { return cacheTtl; }
  /** The most entries the cache across statements keeps. */
  public int cacheMaxEntries() { return cacheMaxEntries; }
  /** How many table entries of one statement are read from Glue at once ahead of Spark's resolution; 0 or 1 = off. */
  public int prefetchThreads() { return prefetchThreads; }
  public int partitionSegments() { return partitionSegments; }
  /** Whether each statement logs its Glue calls in one INFO line ({@code log.statement-calls}). */
  public boolean logStatementCalls() { return logStatementCalls; }
  /** The namespace statements without one start in: "default", or spark_catalog's defaultDatabase setting. */
  public String defaultDatabase() { return defaultDatabase; }
  /** The {@code hadoop.*} options with the prefix removed, in the user's spelling. */
  public Map<String, String> hadoopOptions() { return hadoopOptions; }
  /** The {@code iceberg.*} options with the prefix removed, in the user's spelling. */
  public Map<String, String> icebergOptions() { return icebergOptions; }

  /** How error messages name this catalog's Glue identity: catalog, glue.id and role, never credentials. */
  public String describeIdentity() {
    StringBuilder b = new StringBuilder("catalog '").append(catalogName).append("', glue.id ")
        .append(glueId.orElse("<caller's account>"));
    roleArn.ifPresent(r -> b.append(", role ").append(r));
    return b.toString();
  }

  private static String defaultSessionName(String catalogName) {
    String cleaned = ("gluecat-" + catalogName).replaceAll("[^\\w+=,.@-]", "-");
    return cleaned.length() > 64 ? cleaned.substring(0, 64) : cleaned;
  }

  private Optional<String> text(Map<String, String> options, String key) {
    String value = options.get(key);
    if (value == null) {
      return Optional.empty();
    }
    if (value.trim().isEmpty()) {
      throw invalid(key, "is empty");
    }
    return Optional.of(value.trim());
  }

  private Optional<String> matching(Map<String, String> options, String key, Pattern pattern, String rule) {
    Optional<String> value = text(options, key);
    value.ifPresent(v -> {
      if (!pattern.matcher(v).matches()) {
        throw invalid(key, "'" + v + "' " + rule);
      }
    });
    return value;
  }

  private boolean bool(Map<String, String> options, String key, boolean defaultValue) {
    Optional<String> value = text(options, key);
    if (value.isEmpty()) {
      return defaultValue;
    }
    switch (value.get().toLowerCase(Locale.ROOT)) {
      case "true": return true;
      case "false": return false;
      default: throw invalid(key, "'" + value.get() + "' must be true or false");
    }
  }

  private Optional<Integer> integer(Map<String, String> options, String key, int min, int max) {
    return text(options, key).map(v -> {
      try {
        int n = Integer.parseInt(v);
        if (n >= min && n <= max) {
          return n;
        }
      } catch (NumberFormatException e) {
        // reported below, like a number out of range
      }
      throw invalid(key, "'" + v + "' must be a whole number from " + min + " to " + max);
    });
  }

  /** A duration: a whole number with a unit, ms, s, m or h (e.g. 500ms, 30s, 5m), or 0. */
  private Duration duration(String key, String value) {
    java.util.regex.Matcher m = Pattern.compile("(\\d{1,9})\\s*(ms|s|m|h)?").matcher(value.toLowerCase(Locale.ROOT));
    if (m.matches() && (m.group(2) != null || Long.parseLong(m.group(1)) == 0)) {
      long n = Long.parseLong(m.group(1));
      String unit = m.group(2) == null ? "s" : m.group(2);
      Duration d = unit.equals("ms") ? Duration.ofMillis(n) : unit.equals("s") ? Duration.ofSeconds(n)
          : unit.equals("m") ? Duration.ofMinutes(n) : Duration.ofHours(n);
      if (d.compareTo(Duration.ofDays(1)) <= 0) {
        return d;
      }
    }
    throw invalid(key, "'" + value + "' must be 0 or a duration of at most a day with a unit, such as 500ms, 30s, "
        + "5m or 1h");
  }

  private Optional<URI> endpoint(Map<String, String> options, String key) {
    return text(options, key).map(v -> {
      try {
        URI uri = new URI(v);
        if (uri.getHost() == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))) {
          throw invalid(key, "'" + v + "' must be an http or https URL with a host, such as https://glue.us-east-1.amazonaws.com");
        }
        return uri;
      } catch (URISyntaxException e) {
        throw invalid(key, "'" + v + "' is not a URL: " + e.getMessage());
      }
    });
  }

  private void checkLocation(String key, String value) {
    try {
      URI uri = new URI(value);
      if (uri.getScheme() == null && !value.startsWith("/")) {
        throw invalid(key, "'" + value + "' must be an absolute path or a URI such as s3://bucket/warehouse");
      }
    } catch (URISyntaxException e) {
      throw invalid(key, "'" + value + "' is not a valid location: " + e.getMessage());
    }
  }

  private void putPrefixed(String key, String prefix, String what, String value, Map<String, String> into) {
    String inner = key.substring(prefix.length());
    if (inner.isEmpty()) {
      throw invalid(key, "names no " + what + " after '" + prefix + "'");
    }
    into.put(inner, value);
  }

  private IllegalArgumentException invalid(String key, String problem) {
    return new IllegalArgumentException(String.format("gluecat catalog '%s': option %s (spark.sql.catalog.%s.%s) %s",
        catalogName, key, catalogName, key, problem));
  }
}
