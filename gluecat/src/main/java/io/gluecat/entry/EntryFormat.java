package io.gluecat.entry;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names and constants of the Glue entry format (docs/entry-format.md). The keys are the ones Spark's
 * HiveExternalCatalog uses for data source tables, so that Spark's Hive path, Trino and Athena read
 * gluecat's entries; two additions (the real location and table_type=DELTA) serve Delta readers, and one
 * (classification, a Glue crawler's key) serves readers that pick a file table's format by it.
 * Only EntryWriter and EntryReader use these.
 */
public final class EntryFormat {
  private EntryFormat() {}

  public static final String PROVIDER = "spark.sql.sources.provider";
  public static final String CREATE_VERSION = "spark.sql.create.version";
  public static final String PARTITION_PROVIDER = "spark.sql.partitionProvider";
  public static final String PARTITION_PROVIDER_FILESYSTEM = "filesystem";
  public static final String PARTITION_PROVIDER_CATALOG = "catalog";
  public static final String SCHEMA = "spark.sql.sources.schema";
  public static final String SCHEMA_NUM_PARTS = SCHEMA + ".numParts";
  public static final String SCHEMA_PART_PREFIX = SCHEMA + ".part.";
  public static final String SCHEMA_NUM_PART_COLS = SCHEMA + ".numPartCols";
  public static final String SCHEMA_PART_COL_PREFIX = SCHEMA + ".partCol.";
  public static final String SCHEMA_NUM_BUCKETS = SCHEMA + ".numBuckets";
  public static final String SCHEMA_NUM_BUCKET_COLS = SCHEMA + ".numBucketCols";
  public static final String SCHEMA_BUCKET_COL_PREFIX = SCHEMA + ".bucketCol.";
  public static final String SCHEMA_NUM_SORT_COLS = SCHEMA + ".numSortCols";
  public static final String SCHEMA_SORT_COL_PREFIX = SCHEMA + ".sortCol.";
  /** Spark's default for spark.sql.sources.schemaStringLengthThreshold. */
  public static final int DEFAULT_SCHEMA_THRESHOLD = 4000;
  /** Statistics as Spark's Hive path keeps them (HiveExternalCatalog): table and partition parameters. */
  public static final String STATISTICS_PREFIX = "spark.sql.statistics.";
  public static final String STATISTICS_TOTAL_SIZE = STATISTICS_PREFIX + "totalSize";
  public static final String STATISTICS_NUM_ROWS = STATISTICS_PREFIX + "numRows";
  public static final String STATISTICS_COL_STATS_PREFIX = STATISTICS_PREFIX + "colStats.";

  public static final String EXTERNAL = "EXTERNAL";
  public static final String COMMENT = "comment";
  public static final String TABLE_TYPE = "table_type";
  public static final String TABLE_TYPE_DELTA = "DELTA";
  public static final String TABLE_TYPE_ICEBERG = "ICEBERG";
  /** Where an Iceberg entry names its current metadata file (Iceberg's key; gluecat only reads it). */
  public static final String ICEBERG_METADATA_LOCATION = "metadata_location";
  /**
   * The format as Glue crawlers name it (docs/entry-format.md): Glue ETL, Daft and crawlers pick a table's
   * reader by it. gluecat writes it on the file formats a crawler has a value for; see {@link #classification}.
   */
  public static final String CLASSIFICATION = "classification";
  /** Set by a Hive metastore on every change; not a user property. */
  public static final String LAST_DDL_TIME = "transient_lastDdlTime";

  /** SerDe parameter holding the real location; Spark's Hive path and Trino read it first. */
  public static final String PATH = "path";
  /** SerDe parameter Hive adds to every table; Spark drops it on read. */
  public static final String SERIALIZATION_FORMAT = "serialization.format";

  public static final String GLUE_EXTERNAL_TABLE = "EXTERNAL_TABLE";
  public static final String GLUE_VIRTUAL_VIEW = "VIRTUAL_VIEW";
  public static final String PLACEHOLDER_SUFFIX = "-__PLACEHOLDER__";

  /** What Spark writes for providers that have no Hive SerDe (and for Delta). */
  public static final String LAZY_SIMPLE_SERDE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
  public static final String SEQUENCE_FILE_INPUT = "org.apache.hadoop.mapred.SequenceFileInputFormat";
  public static final String HIVE_SEQUENCE_FILE_OUTPUT = "org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat";

  /** The single column of the Spark-specific form, as Hive reports a SerDe-defined schema. */
  public static final String PLACEHOLDER_COLUMN = "col";
  public static final String PLACEHOLDER_COLUMN_TYPE = "array<string>";
  public static final String PLACEHOLDER_COLUMN_COMMENT = "from deserializer";

  /** Glue's limits (bytes of UTF-8). */
  public static final int MAX_COLUMN_COMMENT_BYTES = 255;
  public static final int MAX_DESCRIPTION_BYTES = 2048;

  public static final String DELTA = "delta";

  /** Spark's file sources by short name. */
  public static final Set<String> FILE_FORMATS = Set.of("parquet", "orc", "csv", "json", "avro", "text");
  /** The same formats under the class-like names Spark also accepts (USING org.apache.spark.sql.parquet). */
  private static final Pattern FILE_FORMAT_ALIASES = Pattern.compile(
      "(org\\.apache\\.spark\\.sql\\.(execution\\.datasources\\.)?(parquet|orc|csv|json|text|avro)"
          + "|com\\.databricks\\.spark\\.(avro|csv))(\\..*)?");
  /** The Glue crawler's classification of each file format that has one: plain text has none. */
  private static final Set<String> CLASSIFIED_FORMATS = Set.of("parquet", "orc", "csv", "json", "avro");

  /** Whether two Glue descriptions say the same: an absent one reads back as "" from some Glue implementations. */
  public static boolean sameDescription(String a, String b) {
    return java.util.Objects.equals(a == null || a.isEmpty() ? null : a, b == null || b.isEmpty() ? null : b);
  }

  public static boolean isDelta(String provider) {
    return provider != null && provider.equalsIgnoreCase(DELTA);
  }

  /** The Spark file source a provider names, by short or class-like name (parquet, ..., text); else empty. */
  public static Optional<String> fileFormat(String provider) {
    if (provider == null) {
      return Optional.empty();
    }
    String lower = provider.trim().toLowerCase(Locale.ROOT);
    if (FILE_FORMATS.contains(lower)) {
      return Optional.of(lower);
    }
    Matcher m = FILE_FORMAT_ALIASES.matcher(lower);
    return m.matches() ? Optional.of(m.group(3) != null ? m.group(3) : m.group(4)) : Optional.empty();
  }

  /**
   * The {@link #CLASSIFICATION} gluecat writes for a provider: the Glue crawler's value for the format (the
   * lower-case format name), for parquet, orc, csv, json and avro; empty for Delta, text and anything else.
   */
  public static Optional<String> classification(String provider) {
    return fileFormat(provider).filter(CLASSIFIED_FORMATS::contains);
  }

  /** Parameters the format owns: an update rewrites these and preserves every other key. */
  public static boolean isOwnedParameter(String key) {
    return key.startsWith(SCHEMA) || key.equals(PROVIDER) || key.equals(CREATE_VERSION)
        || key.equals(PARTITION_PROVIDER) || key.equals(EXTERNAL) || key.equals(COMMENT)
        || key.equals(TABLE_TYPE);
  }

  /**
   * As {@link #isOwnedParameter(String)}, on the entry of a table of {@code provider}: there the format also owns
   * {@link #CLASSIFICATION} when it writes one (a file table of a classified format). On other entries (Delta,
   * text) the key is the user's, as any other table property.
   */
  public static boolean isOwnedParameter(String key, String provider) {
    return isOwnedParameter(key) || key.equals(CLASSIFICATION) && classification(provider).isPresent();
  }

  /** A location without its trailing slash ({@code s3://b/t/} and {@code s3://b/t} name one directory); null stays. */
  public static String withoutTrailingSlash(String location) {
    return location != null && location.length() > 1 && location.endsWith("/")
        ? location.substring(0, location.length() - 1) : location;
  }
}
