package io.gluecat.hive;

import static io.gluecat.hive.HiveFormats.CRAWLER_COMPRESSION;
import static io.gluecat.hive.HiveFormats.ESCAPE_DELIM;
import static io.gluecat.hive.HiveFormats.LAZY_SIMPLE_SERDE;
import static io.gluecat.hive.HiveFormats.ORC_SERDE;
import static io.gluecat.hive.HiveFormats.PARQUET_SERDE;
import static io.gluecat.hive.HiveFormats.TEXT_COMPRESSIONS;
import static io.gluecat.hive.HiveFormats.abbreviate;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The write half of {@link HiveFormats}, a pure function as well: which Hive-format entries gluecat writes, and
 * the options that make Spark's file writer write files the entry's SerDe reads.
 */
final class HiveWriteFormats {
  private HiveWriteFormats() {}

  /** Table and SerDe parameters that name the codec of the files a writer adds, by SerDe. */
  private static final Map<String, List<String>> COMPRESSION_PARAMETERS = Map.of(
      PARQUET_SERDE, List.of("parquet.compression", "write.compression"),
      ORC_SERDE, List.of("orc.compress", "write.compression"),
      LAZY_SIMPLE_SERDE, List.of(CRAWLER_COMPRESSION, "write.compression"));
  /** The codecs Spark's writer of each SerDe's files takes (its own short names). */
  private static final Map<String, Set<String>> WRITE_CODECS = Map.of(
      PARQUET_SERDE, Set.of("none", "uncompressed", "snappy", "gzip", "lz4", "zstd"),
      ORC_SERDE, Set.of("none", "uncompressed", "snappy", "zlib", "lz4", "zstd"),
      LAZY_SIMPLE_SERDE, TEXT_COMPRESSIONS); // the codecs Hadoop picks by extension, which it also writes
  /** Hive's text timestamps: a space between date and time, then microseconds (Hive and Trino read 0 to 9 digits). */
  private static final String HIVE_TEXT_TIMESTAMP = "yyyy-MM-dd HH:mm:ss.SSSSSS";

  /**
   * Why a table bucketed the Hive way (the StorageDescriptor's NumberOfBuckets and BucketColumns, as Hive, Athena
   * and Trino create them) is not written: Hive's readers expect one file per bucket, named by its number and
   * filled by Hive's hash, which Spark's file source does not write. Its reads stay, as an unbucketed table's.
   */
  static Optional<String> hiveBucketed(Integer numberOfBuckets, List<String> bucketColumns) {
    if (numberOfBuckets == null || numberOfBuckets <= 0 || bucketColumns.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(String.format("it is bucketed the Hive way (NumberOfBuckets = %d, BucketColumns = %s), and "
        + "gluecat does not write Hive's bucket files, which Hive, Trino and Athena expect", numberOfBuckets,
        bucketColumns));
  }

  /**
   * Whether gluecat writes a Hive-format table, and the writer options that make Spark's file source write
   * files its SerDe reads: parquet, orc and LazySimpleSerDe text, the formats Hive, Trino and Athena all
   * write. The empty result means it writes; otherwise the reason it does not, for the refusal's message.
   */
  static Optional<String> writing(String qualified, String serde, Map<String, String> parameters,
      boolean projected, Map<String, String> writeOptions) {
    if (!WRITE_CODECS.containsKey(serde)) {
      return Optional.of(String.format("gluecat writes Hive-format tables of the SerDes %s, %s and %s (with "
          + "TextInputFormat); this one uses %s", PARQUET_SERDE, ORC_SERDE, LAZY_SIMPLE_SERDE, serde));
    }
    if (projected) {
      return Optional.of("its partitions are computed by Athena's partition projection (projection.enabled), "
          + "so no partition a write adds would be found where the projection looks for it");
    }
    if (serde.equals(LAZY_SIMPLE_SERDE)) {
      String escape = parameters.get(ESCAPE_DELIM);
      if (escape != null && !escape.isEmpty()) {
        return Optional.of(String.format("its text escapes delimiters in values (%s), which Spark's csv writer "
            + "cannot do as LazySimpleSerDe does", ESCAPE_DELIM));
      }
      // as LazySimpleSerDe writes: nothing around an empty string, no quoting, Hive's timestamp layout
      writeOptions.put("emptyValue", "");
      writeOptions.put("quoteAll", "false");
      writeOptions.put("escapeQuotes", "false");
      writeOptions.put("timestampFormat", HIVE_TEXT_TIMESTAMP);
      writeOptions.put("timestampNTZFormat", HIVE_TEXT_TIMESTAMP);
    }
    for (String key : COMPRESSION_PARAMETERS.get(serde)) {
      String codec = parameters.get(key);
      if (codec == null || codec.isBlank()) {
        continue;
      }
      String name = codec.trim().toLowerCase(Locale.ROOT);
      if (!WRITE_CODECS.get(serde).contains(name)) {
        return Optional.of(String.format("it has %s = '%s', a codec gluecat does not write files of this SerDe "
            + "with (it writes %s)", key, abbreviate(codec), String.join(", ", new java.util.TreeSet<>(
                WRITE_CODECS.get(serde)))));
      }
      writeOptions.put("compression", name);
      break;
    }
    return Optional.empty();
  }
}
