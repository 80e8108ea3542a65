package io.gluecat.entry;

import io.gluecat.InvalidGlueEntryException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import static io.gluecat.entry.EntryFormat.*;

/**
 * A Glue Table to what Spark needs: the read half of the entry format (docs/entry-format.md), a pure
 * function. It accepts gluecat's own entries and the variants other writers leave (Spark's Hive path in
 * both forms, Delta's catalog hook, Trino, schemas in parts), and rejects anything it cannot serve with
 * an InvalidGlueEntryException naming the table and the problem.
 */
public final class EntryReader {
  private static final Pattern SCHEMA_PART = Pattern.compile(Pattern.quote(SCHEMA_PART_PREFIX) + "(\\d+)");
  /** Parameters a metastore or Hive maintains, which Spark does not show as table properties. */
  private static final java.util.Set<String> HIVE_GENERATED = java.util.Set.of(LAST_DDL_TIME,
      "COLUMN_STATS_ACCURATE", "numFiles", "numPartitions", "numRows", "rawDataSize", "totalSize");

  private EntryReader() {}

  /** Glue views (Athena, Trino, Glue's own) are not tables to Spark: not listed, not loadable. */
  public static boolean isView(Table table) {
    return GLUE_VIRTUAL_VIEW.equalsIgnoreCase(table.tableType())
        || "MATERIALIZED_VIEW".equalsIgnoreCase(table.tableType());
  }

  /**
   * Whether an entry is in Hive's format: no Spark provider, and neither a resource link, an Iceberg table
   * nor a view. Such entries are read by {@code io.gluecat.hive.HiveEntry}; {@link #read} refuses them.
   */
  public static boolean isHiveFormat(Table table) {
    Map<String, String> parameters = table.hasParameters() ? table.parameters() : Map.of();
    String provider = parameters.get(PROVIDER);
    return table.targetTable() == null && !isView(table) && (provider == null || provider.trim().isEmpty())
        && !TABLE_TYPE_ICEBERG.equalsIgnoreCase(parameters.get(TABLE_TYPE));
  }

  /** {@link #read(String, String, Table)} of an entry read whole. */
  public static GlueEntry read(String catalog, String database, StoredTable entry) {
    return read(catalog, database, entry.sdkTable());
  }

  /**
   * Reads an entry.
   *
   * @param catalog the catalog name, used only in error messages
   */
  public static GlueEntry read(String catalog, String database, Table table) {
    TableName name = new TableName(database, table.name());
    String qualified = catalog + "." + name;
    Map<String, String> parameters = withoutNullValues(table.hasParameters() ? table.parameters() : Map.of());

    if (table.targetTable() != null) {
      throw new InvalidGlueEntryException(String.format("Table %s is a Glue resource link to %s.%s (catalog %s), "
          + "which gluecat does not follow. Read the target table through a gluecat catalog whose glue.id is "
          + "that account.", qualified, table.targetTable().databaseName(), table.targetTable().name(),
          table.targetTable().catalogId()));
    }
    if (TABLE_TYPE_ICEBERG.equalsIgnoreCase(parameters.get(TABLE_TYPE))) {
      // loads, writes, ALTER, RENAME and DROP of an Iceberg table never get here: Iceberg's catalog serves them
      throw new InvalidGlueEntryException(String.format("Table %s is an Apache Iceberg table, whose entry only "
          + "Iceberg's catalog (org.apache.iceberg.aws.glue.GlueCatalog) reads and writes: gluecat serves it through "
          + "that catalog, but not in this statement, which works on the kinds of table gluecat keeps itself.",
          qualified));
    }
    String storedProvider = parameters.get(PROVIDER);
    if (storedProvider == null || storedProvider.trim().isEmpty()) {
      // reached by what changes an entry: loads of Hive-format entries go through io.gluecat.hive.HiveEntry
      throw new InvalidGlueEntryException(String.format("Table %s is a Hive SerDe table (its Glue entry has no %s), "
          + "as Athena, Glue crawlers or Trino's Hive connector write them. gluecat reads such tables but does not "
          + "change their entries; recreate it with USING <format> to manage it through gluecat.",
          qualified, PROVIDER));
    }
    String provider = isDelta(storedProvider) ? DELTA : storedProvider.trim();

    StorageDescriptor sd = table.storageDescriptor();
    Map<String, String> serdeParameters = withoutNullValues(sd != null && sd.serdeInfo() != null
        && sd.serdeInfo().hasParameters() ? sd.serdeInfo().parameters() : Map.of());
    String location = location(qualified, new StoredTable(table));
    checkLocation(qualified, location);

    StructType schema = schema(qualified, parameters);
    List<String> partitionColumns = partitionColumns(qualified, parameters);
    if (!isDelta(provider)) {
      requireUniqueColumns(qualified, schema);
      schema = dataColumnsThenPartitions(qualified, schema, partitionColumns);
    }

    Map<String, String> properties = new LinkedHashMap<>();
    parameters.forEach((k, v) -> {
      if (!isOwnedParameter(k, provider) && !isHiveGenerated(k)) {
        properties.put(k, v);
      }
    });
    Map<String, String> storageProperties = new LinkedHashMap<>(serdeParameters);
    storageProperties.remove(PATH);
    storageProperties.remove(SERIALIZATION_FORMAT);

    Optional<String> comment = Optional.ofNullable(parameters.get(COMMENT))
        .or(() -> Optional.ofNullable(table.description()))
        .filter(c -> !c.isEmpty());
    long createTime = table.createTime() == null ? 0L : table.createTime().toEpochMilli();
    return new GlueEntry(name, provider, location, schema, partitionColumns, comment, properties,
        storageProperties, Optional.ofNullable(table.owner()), parameters.getOrDefault(CREATE_VERSION, ""),
        createTime, isDelta(provider) ? Optional.empty() : EntryStatistics.read(table.name(), parameters),
        isDelta(provider) ? Optional.empty() : Bucketing.read(qualified, parameters, schema));
  }

  /** Spark hides every spark.sql.* key (statistics included) and Hive's bookkeeping from table properties. */
  public static boolean isHiveGenerated(String key) {
    return key.startsWith("spark.sql.") || HIVE_GENERATED.contains(key);
  }

  /** The location read ({@link StoredTable#readLocation}), or the error naming the table and what its entry holds. */
  private static String location(String qualified, StoredTable entry) {
    return entry.readLocation().orElseThrow(() -> new InvalidGlueEntryException(String.format("Table %s has no "
        + "location: its Glue entry has neither a SerDe parameter '%s' nor a StorageDescriptor.Location other than a "
        + "Spark placeholder (%s)", qualified, PATH, entry.storageLocation().orElse("none"))));
  }

  /** The schema JSON, whole or in parts, as {@link #read} reads it; empty when the entry has none (views too). */
  public static Optional<StructType> storedSchema(String qualified, Map<String, String> parameters) {
    return parameters.containsKey(SCHEMA) || parameters.containsKey(SCHEMA_NUM_PARTS)
        ? Optional.of(schema(qualified, parameters)) : Optional.empty();
  }

  /** The schema JSON, whole or in parts; an empty struct when the entry has none. */
  private static StructType schema(String qualified, Map<String, String> parameters) {
    String json = parameters.get(SCHEMA);
    if (json == null) {
      json = schemaFromParts(qualified, parameters);
    }
    if (json == null) {
      return new StructType();
    }
    DataType parsed;
    try {
      parsed = DataType.fromJson(json);
    } catch (Exception e) { // Jackson's parse errors escape Scala undeclared
      throw new InvalidGlueEntryException(String.format("Table %s has a schema (%s) that is not valid schema JSON: %s",
          qualified, SCHEMA, abbreviate(e.getMessage())), e);
    } catch (StackOverflowError e) { // Spark's JSON-to-type conversion recurses once per nesting level
      throw new InvalidGlueEntryException(String.format("Table %s has a schema (%s) nested too deeply to read",
          qualified, SCHEMA));
    }
    if (!(parsed instanceof StructType)) {
      throw new InvalidGlueEntryException(String.format("Table %s has a schema (%s) that is a %s, not a struct",
          qualified, SCHEMA, parsed.typeName()));
    }
    return (StructType) parsed;
  }

  private static String schemaFromParts(String qualified, Map<String, String> parameters) {
    List<Integer> partNumbers = new ArrayList<>();
    for (String key : parameters.keySet()) {
      Matcher m = SCHEMA_PART.matcher(key);
      if (m.matches()) {
        try {
          partNumbers.add(Integer.parseInt(m.group(1)));
        } catch (NumberFormatException e) { // more digits than an int holds
          throw new InvalidGlueEntryException(String.format("Table %s has schema part %s, whose number is out of "
              + "range: the part count (%s) cannot reach it", qualified, abbreviate(key), SCHEMA_NUM_PARTS));
        }
      }
    }
    String declared = parameters.get(SCHEMA_NUM_PARTS);
    if (declared == null) {
      if (!partNumbers.isEmpty()) {
        throw new InvalidGlueEntryException(String.format("Table %s has schema parts (%s0...) but no %s",
            qualified, SCHEMA_PART_PREFIX, SCHEMA_NUM_PARTS));
      }
      return null;
    }
    int count = declaredCount("Table " + qualified, SCHEMA_NUM_PARTS, declared, 1);
    StringBuilder json = new StringBuilder();
    for (int i = 0; i < count; i++) {
      String part = parameters.get(SCHEMA_PART_PREFIX + i);
      if (part == null) {
        throw new InvalidGlueEntryException(String.format("Table %s is missing schema part %s%d (%s = %d)",
            qualified, SCHEMA_PART_PREFIX, i, SCHEMA_NUM_PARTS, count));
      }
      json.append(part);
    }
    for (int n : partNumbers) {
      if (n >= count) {
        throw new InvalidGlueEntryException(String.format("Table %s has schema part %s%d but %s = %d: the part "
            + "count does not match the parts stored", qualified, SCHEMA_PART_PREFIX, n, SCHEMA_NUM_PARTS, count));
      }
    }
    return json.toString();
  }

  /**
   * A count Spark's Hive path stores in a parameter ({@code key} = {@code declared}): at least {@code least} (0 or
   * 1), else refused, naming {@code subject} ("Table glue.db.t"), the key and the value.
   */
  static int declaredCount(String subject, String key, String declared, int least) {
    int count;
    try {
      count = Integer.parseInt(declared.trim());
    } catch (NumberFormatException e) {
      count = -1;
    }
    if (count < least) {
      throw new InvalidGlueEntryException(String.format("%s has %s = '%s', which is not a %snumber", subject, key,
          declared, least > 0 ? "positive " : ""));
    }
    return count;
  }

  /**
   * The values of the numbered keys {@code <prefix>0 .. <prefix><n-1>}, n being the value of {@code countKey}
   * (Spark's way of storing a list in parameters); empty without {@code countKey}. A count that is not a number
   * or a missing or blank value is refused, naming {@code subject} ("Table glue.db.t") and the key.
   */
  public static List<String> numberedValues(String subject, Map<String, String> parameters, String countKey,
      String prefix, String what) {
    String declared = parameters.get(countKey);
    if (declared == null) {
      return List.of();
    }
    int count = declaredCount(subject, countKey, declared, 0);
    List<String> values = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      String value = parameters.get(prefix + i);
      if (value == null || value.trim().isEmpty()) {
        throw new InvalidGlueEntryException(String.format("%s is missing %s %s%d (%s = %d)", subject, what, prefix,
            i, countKey, count));
      }
      values.add(value);
    }
    return values;
  }

  private static List<String> partitionColumns(String qualified, Map<String, String> parameters) {
    List<String> columns = new ArrayList<>();
    List<String> declared = numberedValues("Table " + qualified, parameters, SCHEMA_NUM_PART_COLS,
        SCHEMA_PART_COL_PREFIX, "partition column");
    for (int i = 0; i < declared.size(); i++) {
      String column = declared.get(i);
      for (String earlier : columns) {
        if (earlier.equalsIgnoreCase(column)) {
          throw new InvalidGlueEntryException(String.format("Table %s names partition column '%s' twice (%s%d)",
              qualified, column, SCHEMA_PART_COL_PREFIX, i));
        }
      }
      columns.add(column);
    }
    return columns;
  }

  /**
   * Data columns in stored order, then the partition columns in partition order: how Spark reads and
   * writes non-Delta data source tables. Every partition column must be in the schema.
   */
  private static StructType dataColumnsThenPartitions(String qualified, StructType schema, List<String> partitions) {
    if (partitions.isEmpty() || schema.fields().length == 0) {
      return schema;
    }
    Map<String, StructField> byName = new LinkedHashMap<>();
    for (StructField f : schema.fields()) {
      byName.put(f.name().toLowerCase(Locale.ROOT), f);
    }
    List<StructField> partitionFields = new ArrayList<>();
    for (String p : partitions) {
      StructField f = byName.remove(p.toLowerCase(Locale.ROOT));
      if (f == null) {
        throw new InvalidGlueEntryException(String.format("Table %s names partition column '%s', which is not in "
            + "its schema (%s)", qualified, p, String.join(", ", schema.fieldNames())));
      }
      partitionFields.add(f);
    }
    List<StructField> ordered = new ArrayList<>(byName.values());
    ordered.addAll(partitionFields);
    return new StructType(ordered.toArray(new StructField[0]));
  }

  /**
   * The location must be a URI Hadoop can open: absolute (with a scheme, or a path from the root), with
   * nothing a URI cannot hold. Anything else would fail later, inside Spark, without naming the table.
   */
  public static void checkLocation(String qualified, String location) {
    java.net.URI uri;
    try {
      uri = new org.apache.hadoop.fs.Path(location).toUri();
    } catch (RuntimeException e) { // Hadoop wraps URISyntaxException in IllegalArgumentException
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      throw new InvalidGlueEntryException(String.format("Table %s has a location that is not a valid URI ('%s'): %s",
          qualified, abbreviate(location), abbreviate(cause.getMessage())), e);
    }
    if (uri.getScheme() == null && (uri.getPath() == null || !uri.getPath().startsWith("/"))) {
      throw new InvalidGlueEntryException(String.format("Table %s has a relative location ('%s'); a table's "
          + "location must be absolute, such as s3://bucket/path", qualified, abbreviate(location)));
    }
    if (uri.getScheme() != null && (uri.getPath() == null || uri.getPath().isEmpty())
        && (uri.getAuthority() == null || uri.getAuthority().isEmpty())) {
      throw new InvalidGlueEntryException(String.format("Table %s has a location with no path ('%s')", qualified,
          abbreviate(location)));
    }
  }

  /**
   * Spark resolves columns without regard to case, so two columns whose names differ only in case are one
   * column twice; Spark's own catalog would never store such a schema for a data source table.
   */
  private static void requireUniqueColumns(String qualified, StructType schema) {
    requireUniqueFields(qualified, schema, "");
  }

  private static void requireUniqueFields(String qualified, DataType type, String path) {
    if (type instanceof StructType) {
      java.util.Set<String> seen = new java.util.HashSet<>();
      for (StructField f : ((StructType) type).fields()) {
        if (!seen.add(f.name().toLowerCase(Locale.ROOT))) {
          throw new InvalidGlueEntryException(String.format("Table %s has column '%s%s' more than once in its "
              + "schema (%s); Spark cannot read such a table", qualified, path, f.name(), SCHEMA));
        }
        requireUniqueFields(qualified, f.dataType(), path + f.name() + ".");
      }
    } else if (type instanceof org.apache.spark.sql.types.ArrayType) {
      requireUniqueFields(qualified, ((org.apache.spark.sql.types.ArrayType) type).elementType(), path);
    } else if (type instanceof org.apache.spark.sql.types.MapType) {
      requireUniqueFields(qualified, ((org.apache.spark.sql.types.MapType) type).keyType(), path);
      requireUniqueFields(qualified, ((org.apache.spark.sql.types.MapType) type).valueType(), path);
    }
  }

  /** Glue never returns null values, but a hand-built entry may: they count as absent. */
  public static Map<String, String> withoutNullValues(Map<String, String> map) {
    boolean clean = true;
    for (Map.Entry<String, String> e : map.entrySet()) {
      clean &= e.getKey() != null && e.getValue() != null;
    }
    if (clean) {
      return map;
    }
    Map<String, String> result = new LinkedHashMap<>();
    map.forEach((k, v) -> {
      if (k != null && v != null) {
        result.put(k, v);
      }
    });
    return result;
  }

  /** Error messages quote what an entry holds, which may be a megabyte long. */
  private static String abbreviate(String text) {
    if (text == null) {
      return "";
    }
    return text.length() <= 200 ? text : text.substring(0, 200) + "... (" + text.length() + " characters)";
  }
}
