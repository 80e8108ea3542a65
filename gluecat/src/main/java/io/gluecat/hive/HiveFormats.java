package io.gluecat.hive;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.entry.StoredColumn;
import io.gluecat.entry.StoredTable;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Hive-format Glue entries (no spark.sql.sources.provider: what Glue crawlers, Athena, Trino's Hive
 * connector and Hive write) to the Spark file source that reads the same rows, a pure function. It serves
 * only what a Spark source reads as the entry's SerDe does and refuses the rest, naming the table and the
 * SerDe, input format or parameter, so that no entry is read wrong (docs/entry-format.md).
 */
public final class HiveFormats {
  private HiveFormats() {}

  static final String PARQUET_SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
  static final String ORC_SERDE = "org.apache.hadoop.hive.ql.io.orc.OrcSerde";
  static final String LAZY_SIMPLE_SERDE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
  static final String OPEN_CSV_SERDE = "org.apache.hadoop.hive.serde2.OpenCSVSerde";
  static final String OPENX_JSON_SERDE = "org.openx.data.jsonserde.JsonSerDe";
  static final String HCATALOG_JSON_SERDE = "org.apache.hive.hcatalog.data.JsonSerDe";
  /** Hive 3's built-in JSON SerDe, the HCatalog one moved. */
  static final String HIVE_JSON_SERDE = "org.apache.hadoop.hive.serde2.JsonSerDe";
  static final String AVRO_SERDE = "org.apache.hadoop.hive.serde2.avro.AvroSerDe";

  static final String TEXT_INPUT = "org.apache.hadoop.mapred.TextInputFormat";
  /** Input formats that read a SerDe's files as they are, by SerDe; anything else (Hudi, symlinks) is refused. */
  private static final Map<String, Set<String>> INPUT_FORMATS = Map.of(
      PARQUET_SERDE, Set.of("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
          "parquet.hive.DeprecatedParquetInputFormat", "parquet.hive.MapredParquetInputFormat"),
      ORC_SERDE, Set.of("org.apache.hadoop.hive.ql.io.orc.OrcInputFormat"),
      AVRO_SERDE, Set.of("org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat"),
      LAZY_SIMPLE_SERDE, Set.of(TEXT_INPUT),
      OPEN_CSV_SERDE, Set.of(TEXT_INPUT),
      OPENX_JSON_SERDE, Set.of(TEXT_INPUT),
      HCATALOG_JSON_SERDE, Set.of(TEXT_INPUT),
      HIVE_JSON_SERDE, Set.of(TEXT_INPUT));
  /** Older names of the same SerDes. */
  private static final Map<String, String> SERDE_ALIASES = Map.of(
      "parquet.hive.serde.ParquetHiveSerDe", PARQUET_SERDE);

  // LazySimpleSerDe's parameters (Hive's serdeConstants)
  static final String FIELD_DELIM = "field.delim";
  static final String SERIALIZATION_FORMAT = "serialization.format";
  static final String ESCAPE_DELIM = "escape.delim";
  static final String LINE_DELIM = "line.delim";
  static final String NULL_FORMAT = "serialization.null.format";
  static final String ENCODING = "serialization.encoding";
  static final String LAST_COLUMN_TAKES_REST = "serialization.last.column.takes.rest";
  // table parameters every text SerDe honours (Hive, Trino, Athena)
  static final String HEADER_COUNT = "skip.header.line.count";
  static final String FOOTER_COUNT = "skip.footer.line.count";
  /** What a Glue crawler records of a text table's compression. */
  static final String CRAWLER_COMPRESSION = "compressionType";
  /** Codecs Hadoop picks by file extension for text files, as Hive and Spark both read them. */
  static final Set<String> TEXT_COMPRESSIONS = Set.of("none", "gzip", "bzip2", "deflate", "snappy",
      "lz4", "zstd");
  // OpenCSVSerde's parameters
  static final String SEPARATOR_CHAR = "separatorChar";
  static final String QUOTE_CHAR = "quoteChar";
  static final String ESCAPE_CHAR = "escapeChar";
  // JSON SerDes' parameters
  static final String IGNORE_MALFORMED = "ignore.malformed.json";
  static final String DOTS_IN_KEYS = "dots.in.keys";
  /** The OpenX SerDe's key matching: true (its default) ignores case. */
  static final String CASE_INSENSITIVE = "case.insensitive";
  static final String OPENX_MAPPING_PREFIX = "mapping.";
  // AvroSerDe's parameters
  static final String AVRO_SCHEMA_LITERAL = "avro.schema.literal";
  static final String AVRO_SCHEMA_URL = "avro.schema.url";
  /** Hive ACID tables' marker. */
  static final String TRANSACTIONAL = "transactional";

  /**
   * The Spark source of a Hive-format entry.
   *
   * @param qualified catalog.database.table, for error messages
   * @param avroAvailable whether spark-avro is on the classpath
   */
  public static HiveSource source(String qualified, StoredTable table, boolean avroAvailable) {
    if (!table.hasStorageDescriptor()) {
      throw refused(qualified, "has no StorageDescriptor, so no SerDe to read its files with");
    }
    String serde = trimmed(table.serializationLibrary().orElse(null));
    if (serde == null) {
      throw refused(qualified, "has no SerDe (StorageDescriptor.SerdeInfo.SerializationLibrary)");
    }
    serde = SERDE_ALIASES.getOrDefault(serde, serde);
    Set<String> inputFormats = INPUT_FORMATS.get(serde);
    if (inputFormats == null) {
      throw refused(qualified, String.format("uses the SerDe %s, which no Spark file source reads as Hive does "
          + "(gluecat reads ParquetHiveSerDe, OrcSerde, LazySimpleSerDe with TextInputFormat, OpenCSVSerde, the "
          + "OpenX and HCatalog JSON SerDes and AvroSerDe)", serde));
    }
    String inputFormat = trimmed(table.inputFormat().orElse(null));
    if (inputFormat == null || !inputFormats.contains(inputFormat)) {
      throw refused(qualified, String.format("uses the SerDe %s with the input format %s, which gluecat does not "
          + "read as that SerDe's files (it reads %s with %s)", serde,
          inputFormat == null ? "none (Hive's default: SequenceFile)" : inputFormat, serde,
          String.join(" or ", new java.util.TreeSet<>(inputFormats))));
    }
    if ("true".equalsIgnoreCase(String.valueOf(table.parameters().get(TRANSACTIONAL)).trim())) {
      throw refused(qualified, String.format("is a Hive ACID table (%s = true), whose base and delta directories "
          + "only Hive's ACID readers merge", TRANSACTIONAL));
    }
    // Hive overlays the table parameters on the SerDe parameters (MetaStoreUtils.getSchema); Trino keeps
    // delimiters and header counts in the table parameters, crawlers and Athena in the SerDe's.
    Map<String, String> parameters = new HashMap<>();
    table.serdeParameters().forEach((k, v) -> { if (k != null && v != null) { parameters.put(k, v); } });
    table.parameters().forEach((k, v) -> { if (k != null && v != null) { parameters.put(k, v); } });

    List<StructField> data = columns(qualified, table.columns());
    List<StructField> keys = columns(qualified, table.partitionKeys());
    List<StructField> all = new ArrayList<>(data);
    all.addAll(keys);
    requireUnique(qualified, all);
    for (StructField key : keys) {
      if (!isAtomic(key.dataType())) {
        throw refused(qualified, String.format("has the partition key '%s' of type %s; partition keys are of "
            + "simple types", key.name(), key.dataType().simpleString()));
      }
    }
    StructType schema = new StructType(all.toArray(new StructField[0]));
    List<String> partitionColumns = keys.stream().map(StructField::name).toList();
    Map<String, String> options = new LinkedHashMap<>();
    String format;
    switch (serde) {
      case PARQUET_SERDE -> format = "parquet";
      case ORC_SERDE -> format = "orc";
      case LAZY_SIMPLE_SERDE -> {
        format = "csv";
        text(qualified, serde, parameters, data, options);
        lazySimple(qualified, parameters, options);
      }
      case OPEN_CSV_SERDE -> {
        format = "csv";
        text(qualified, serde, parameters, data, options);
        openCsv(qualified, parameters, options);
      }
      case AVRO_SERDE -> {
        if (!avroAvailable) {
          throw refused(qualified, String.format("uses the SerDe %s; reading it needs Spark's avro source "
              + "(org.apache.spark:spark-avro) on the classpath", serde));
        }
        format = "avro";
        avro(parameters, options);
      }
      default -> { // the JSON SerDes
        format = "json";
        json(qualified, serde, parameters, options);
      }
    }
    // Athena's projection parameters are table parameters, never SerDe ones
    Optional<PartitionProjection> projection = PartitionProjection.of(qualified,
        withoutNulls(table.parameters()), table.storageLocation().map(String::trim).orElse(""), keys);
    // the OpenX SerDe matches keys to columns ignoring case unless told otherwise; the other JSON SerDes do not
    boolean keysIgnoreCase = serde.equals(OPENX_JSON_SERDE)
        && !"false".equalsIgnoreCase(parameters.getOrDefault(CASE_INSENSITIVE, "true").trim());
    Map<String, String> writeOptions = new LinkedHashMap<>();
    Optional<String> writeRefusal = HiveWriteFormats.hiveBucketed(table.numberOfBuckets(), table.bucketColumns());
    if (writeRefusal.isEmpty()) {
      writeRefusal = HiveWriteFormats.writing(qualified, serde, parameters, projection.isPresent(), writeOptions);
    }
    return new HiveSource(format, options, schema, partitionColumns, projection, keysIgnoreCase, writeOptions,
        writeRefusal);
  }

  /** What every text SerDe shares: header and footer lines, compression, columns csv can hold. */
  private static void text(String qualified, String serde, Map<String, String> parameters, List<StructField> data,
      Map<String, String> options) {
    for (StructField f : data) {
      if (!isAtomic(f.dataType())) {
        throw refused(qualified, String.format("uses the SerDe %s and has the column '%s' of type %s; gluecat "
            + "reads text tables with Spark's csv source, which reads no arrays, maps or structs (nor Hive's "
            + "collection and map key delimiters)", serde, f.name(), f.dataType().simpleString()));
      }
    }
    int header = lineCount(qualified, parameters, HEADER_COUNT);
    if (header > 1) {
      throw refused(qualified, String.format("has %s = %d; Spark's csv source skips at most one header line per "
          + "file", HEADER_COUNT, header));
    }
    if (header == 1) {
      options.put("header", "true");
    }
    if (lineCount(qualified, parameters, FOOTER_COUNT) > 0) {
      throw refused(qualified, String.format("has %s = %s; Spark's csv source cannot skip footer lines",
          FOOTER_COUNT, parameters.get(FOOTER_COUNT)));
    }
    String compression = parameters.get(CRAWLER_COMPRESSION);
    if (compression != null && !TEXT_COMPRESSIONS.contains(compression.trim().toLowerCase(Locale.ROOT))) {
      throw refused(qualified, String.format("has %s = '%s', a compression gluecat does not know (it reads %s)",
          CRAWLER_COMPRESSION, abbreviate(compression), String.join(", ", new java.util.TreeSet<>(TEXT_COMPRESSIONS))));
    }
    String encoding = parameters.get(ENCODING);
    if (encoding != null && !encoding.isBlank()) {
      options.put("encoding", encoding.trim());
    }
  }

  /**
   * LazySimpleSerDe's text: one line a row, fields split at a delimiter and never quoted, "\N" for null.
   * Spark's csv source reads that with quoting off.
   */
  private static void lazySimple(String qualified, Map<String, String> parameters, Map<String, String> options) {
    String fieldDelim = parameters.getOrDefault(FIELD_DELIM, parameters.get(SERIALIZATION_FORMAT));
    options.put("sep", String.valueOf(delimiter(fieldDelim, '\u0001')));
    options.put("quote", "\u0000"); // Hive's text has no quoting: a '"' is data
    String escape = parameters.get(ESCAPE_DELIM);
    if (escape != null && !escape.isEmpty()) {
      options.put("escape", String.valueOf(delimiter(escape, '\\')));
    }
    String line = parameters.get(LINE_DELIM);
    if (line != null && !line.isEmpty()) {
      char c = delimiter(line, '\n');
      if (c != '\n') {
        options.put("lineSep", String.valueOf(c));
      }
    }
    options.put("nullValue", parameters.getOrDefault(NULL_FORMAT, "\\N"));
    if (Boolean.parseBoolean(parameters.getOrDefault(LAST_COLUMN_TAKES_REST, "false").trim())) {
      throw refused(qualified, String.format("has %s = true; Spark's csv source cannot read the rest of a line "
          + "into its last column", LAST_COLUMN_TAKES_REST));
    }
  }

  /**
   * OpenCSVSerde's quoted CSV; every column is read as the entry declares it, as Athena reads it. Without an
   * escapeChar the SerDe's writer (opencsv's CSVWriter, and Trino's CSV writer after it) doubles a quote inside
   * a value, so that is what is read then; its reader also takes a backslash before a quote, which Spark's csv
   * source cannot take at the same time.
   */
  private static void openCsv(String qualified, Map<String, String> parameters, Map<String, String> options) {
    options.put("sep", String.valueOf(singleChar(qualified, parameters, SEPARATOR_CHAR, ',')));
    options.put("quote", String.valueOf(singleChar(qualified, parameters, QUOTE_CHAR, '"')));
    options.put("escape", String.valueOf(singleChar(qualified, parameters, ESCAPE_CHAR, '"')));
  }

  /**
   * The JSON SerDes read one object a line and fail on malformed lines unless told to ignore them; the
   * OpenX SerDe's key mappings and dotted keys have no counterpart in Spark's json source.
   */
  private static void json(String qualified, String serde, Map<String, String> parameters,
      Map<String, String> options) {
    for (String key : parameters.keySet()) {
      if (key.startsWith(OPENX_MAPPING_PREFIX)) {
        throw refused(qualified, String.format("uses the SerDe %s with the key mapping %s; Spark's json source "
            + "reads keys by column name only", serde, key));
      }
    }
    if (Boolean.parseBoolean(parameters.getOrDefault(DOTS_IN_KEYS, "false").trim())) {
      throw refused(qualified, String.format("uses the SerDe %s with %s = true, which Spark's json source cannot "
          + "honour", serde, DOTS_IN_KEYS));
    }
    boolean ignoreMalformed = Boolean.parseBoolean(parameters.getOrDefault(IGNORE_MALFORMED, "false").trim());
    options.put("mode", ignoreMalformed ? "PERMISSIVE" : "FAILFAST");
  }

  private static void avro(Map<String, String> parameters, Map<String, String> options) {
    String literal = parameters.get(AVRO_SCHEMA_LITERAL);
    String url = parameters.get(AVRO_SCHEMA_URL);
    if (literal != null && !literal.isBlank() && !literal.trim().equalsIgnoreCase("none")) {
      options.put("avroSchema", literal);
    } else if (url != null && !url.isBlank() && !url.trim().equalsIgnoreCase("none")) {
      options.put("avroSchemaUrl", url.trim());
    }
  }

  /** A header or footer line count: absent is 0, anything but a whole number is refused. */
  private static int lineCount(String qualified, Map<String, String> parameters, String key) {
    String value = parameters.get(key);
    if (value == null || value.isBlank()) {
      return 0;
    }
    try {
      int count = Integer.parseInt(value.trim());
      if (count >= 0) {
        return count;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw refused(qualified, String.format("has %s = '%s', which is not a number of lines", key, abbreviate(value)));
  }

  /**
   * A LazySimpleSerDe delimiter as Hive reads it: a number that fits a byte is that byte ('9' is a tab),
   * anything else its first character.
   */
  static char delimiter(String value, char absent) {
    if (value == null || value.isEmpty()) {
      return absent;
    }
    try {
      return (char) (Byte.parseByte(value.trim()) & 0xff);
    } catch (NumberFormatException e) {
      return value.charAt(0);
    }
  }

  /** An OpenCSVSerde character: its first character, as the SerDe takes it. */
  private static char singleChar(String qualified, Map<String, String> parameters, String key, char absent) {
    String value = parameters.get(key);
    if (value == null) {
      return absent;
    }
    if (value.isEmpty()) {
      throw refused(qualified, String.format("has the OpenCSVSerde parameter %s = '' (no character)", key));
    }
    return value.charAt(0);
  }

  /** Glue columns to Spark fields: Hive type names parse as Spark SQL types; char and varchar read as strings. */
  private static List<StructField> columns(String qualified, List<StoredColumn> columns) {
    List<StructField> fields = new ArrayList<>();
    for (StoredColumn c : columns) {
      String name = trimmed(c.name());
      if (name == null) {
        throw refused(qualified, "has a column without a name");
      }
      String type = trimmed(c.type());
      if (type == null) {
        throw refused(qualified, String.format("has the column '%s' without a type", name));
      }
      DataType parsed;
      try {
        parsed = CharVarcharUtils.replaceCharVarcharWithString(DataType.fromDDL(type));
      } catch (Exception e) { // Spark's ParseException escapes Scala undeclared
        throw refused(qualified, String.format("has the column '%s' of type '%s', which is not a type Spark reads",
            name, abbreviate(type)));
      }
      StructField field = new StructField(name, parsed, true, Metadata.empty());
      fields.add(c.comment() == null || c.comment().isEmpty() ? field : field.withComment(c.comment()));
    }
    return fields;
  }

  private static void requireUnique(String qualified, List<StructField> fields) {
    Set<String> seen = new HashSet<>();
    for (StructField f : fields) {
      if (!seen.add(f.name().toLowerCase(Locale.ROOT))) {
        throw refused(qualified, String.format("has the column '%s' more than once (columns and partition keys)",
            f.name()));
      }
    }
  }

  private static boolean isAtomic(DataType type) {
    return !(type instanceof StructType || type instanceof ArrayType || type instanceof MapType);
  }

  private static Map<String, String> withoutNulls(Map<String, String> map) {
    Map<String, String> out = new HashMap<>();
    map.forEach((k, v) -> { if (k != null && v != null) { out.put(k, v); } });
    return out;
  }

  private static String trimmed(String value) {
    return value == null || value.trim().isEmpty() ? null : value.trim();
  }

  private static InvalidGlueEntryException refused(String qualified, String problem) {
    return new InvalidGlueEntryException("Table " + qualified + " is a Hive-format table that " + problem + ".");
  }

  static String abbreviate(String text) {
    return text.length() <= 100 ? text : text.substring(0, 100) + "... (" + text.length() + " characters)";
  }
}
