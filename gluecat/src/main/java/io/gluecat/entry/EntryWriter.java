package io.gluecat.entry;

import static io.gluecat.entry.EntryFormat.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import io.gluecat.compat.SparkCompat;
import io.gluecat.config.SparkEnvironment;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.internal.HiveSerDe;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.CalendarIntervalType;
import org.apache.spark.sql.types.DayTimeIntervalType;
import org.apache.spark.sql.types.TimestampNTZType;
import org.apache.spark.sql.types.YearMonthIntervalType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.SkewedInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * Spark's table model to a Glue TableInput: the write half of the entry format (docs/entry-format.md),
 * a pure function. It writes what Spark's HiveExternalCatalog writes for a data source table on the
 * running Spark line, with gluecat's additions (Delta's real location and table_type, a file table's
 * classification); EntryReader is the other half.
 */
public final class EntryWriter {

  /** The three shapes an entry can take. */
  public enum Form {
    /** Delta: real columns and location, Spark's non-Hive SerDe, table_type=DELTA. */
    DELTA,
    /** A provider Hive can read (parquet, orc, avro): real SerDe, formats, columns and location. */
    HIVE_COMPATIBLE,
    /** Any other provider: one placeholder column and a placeholder location; Spark reads the parameters. */
    SPARK_SPECIFIC
  }

  private final String sparkVersion;
  private final int schemaThreshold;

  /**
   * @param sparkVersion recorded as spark.sql.create.version on new entries
   * @param schemaThreshold spark.sql.sources.schemaStringLengthThreshold: longer schema JSON is split
   */
  public EntryWriter(String sparkVersion, int schemaThreshold) {
    if (schemaThreshold < 1) {
      throw new IllegalArgumentException("schema length threshold must be positive, got " + schemaThreshold);
    }
    this.sparkVersion = sparkVersion;
    this.schemaThreshold = schemaThreshold;
  }

  /** The writer of the running Spark: its version, and the active session's schema length threshold. */
  public static EntryWriter forRunningSpark() {
    return new EntryWriter(SparkEnvironment.sparkVersion(), SparkEnvironment.schemaStringLengthThreshold());
  }

  /**
   * A Glue partition's StorageDescriptor: the table's at the partition's location, without the table's own
   * SerDe {@code path} (a partition of Hive's shape is read at its Location).
   */
  static StorageDescriptor partitionStorage(StorageDescriptor table, String location) {
    StorageDescriptor.Builder sd = table.toBuilder().location(location);
    SerDeInfo serde = table.serdeInfo();
    if (serde != null && serde.hasParameters()) {
      Map<String, String> parameters = new LinkedHashMap<>(serde.parameters());
      parameters.remove(PATH);
      sd.serdeInfo(serde.toBuilder().parameters(parameters).build());
    }
    return sd.build();
  }

  /**
   * The entry for a new table.
   *
   * @param databaseLocation the Glue database's location, under which the Spark-specific form puts its
   *     placeholder (as Spark does); when absent, the placeholder sits beside the table's location
   */
  public TableInput newEntry(TableDefinition table, Optional<String> owner, Optional<String> databaseLocation) {
    Map<String, String> parameters = new LinkedHashMap<>();
    putOwnedParameters(parameters, table, sparkVersion);
    return build(table, owner, () -> databaseLocation, parameters, new LinkedHashMap<>());
  }

  /** The StorageDescriptor columns {@link #newEntry} writes for {@code table}, in gluecat's terms. */
  public List<StoredColumn> newEntryColumns(TableDefinition table) {
    return StoredColumn.of(newEntry(table, Optional.empty(), Optional.empty()).storageDescriptor().columns());
  }

  /**
   * The entry that replaces {@code existing} with {@code table}. It starts from the entry as read: every
   * parameter and SerDe parameter the format does not own is kept (keys written by Trino, Delta or other
   * tools), as are the owner and the recorded create version; {@code removedProperties} are user
   * properties the statement unset.
   */
  public TableInput updatedEntry(Table existing, TableDefinition table, Set<String> removedProperties,
      Optional<String> databaseLocation) {
    return updatedEntry(existing, table, removedProperties, () -> databaseLocation);
  }

  /**
   * As {@link #updatedEntry(Table, TableDefinition, Set, Optional)}, asking for the database's location only
   * when the entry's form needs it (the Spark-specific form's placeholder).
   */
  public TableInput updatedEntry(Table existing, TableDefinition table, Set<String> removedProperties,
      java.util.function.Supplier<Optional<String>> databaseLocation) {
    Map<String, String> parameters = new LinkedHashMap<>(existing.hasParameters() ? existing.parameters() : Map.of());
    String createVersion = parameters.getOrDefault(CREATE_VERSION, sparkVersion);
    String oldProvider = parameters.get(PROVIDER);
    parameters.keySet().removeIf(k -> isOwnedParameter(k, oldProvider) || isOwnedParameter(k, table.provider())
        || removedProperties.contains(k));
    putOwnedParameters(parameters, table, createVersion);

    Map<String, String> serdeParameters = new LinkedHashMap<>();
    StorageDescriptor oldSd = existing.storageDescriptor();
    if (oldSd != null && oldSd.serdeInfo() != null && oldSd.serdeInfo().hasParameters()) {
      serdeParameters.putAll(oldSd.serdeInfo().parameters());
      serdeParameters.remove(PATH);
    }
    return build(table, Optional.ofNullable(existing.owner()), databaseLocation, parameters, serdeParameters);
  }

  /** Which shape a table's entry takes, decided as HiveExternalCatalog.createDataSourceTable decides. */
  public static Form formOf(TableDefinition table) {
    if (table.isDelta()) {
      return Form.DELTA;
    }
    if ("true".equalsIgnoreCase(table.storageProperties().get("skipHiveMetadata"))) {
      return Form.SPARK_SPECIFIC;
    }
    if (HiveSerDe.sourceToSerDe(table.provider()).isEmpty()) {
      return Form.SPARK_SPECIFIC;
    }
    for (StructField field : table.schema().fields()) {
      if (!isHiveCompatible(field.dataType())) {
        return Form.SPARK_SPECIFIC;
      }
    }
    return Form.HIVE_COMPATIBLE;
  }

  /**
   * Where an existing entry's placeholder location sits (the database location it was written under, or the
   * directory beside its table), so that an update keeps it without asking Glue for the database; empty
   * when the entry has no placeholder of this format.
   */
  public static Optional<String> placeholderBase(Table existing) {
    StorageDescriptor sd = existing.storageDescriptor();
    String suffix = "/" + existing.name().toLowerCase(java.util.Locale.ROOT) + PLACEHOLDER_SUFFIX;
    if (sd == null || sd.location() == null || !sd.location().endsWith(suffix)
        || sd.location().length() == suffix.length()) {
      return Optional.empty();
    }
    return Optional.of(sd.location().substring(0, sd.location().length() - suffix.length()));
  }

  private TableInput build(TableDefinition table, Optional<String> owner,
      java.util.function.Supplier<Optional<String>> databaseLocation,
      Map<String, String> parameters, Map<String, String> serdeParameters) {
    for (Map.Entry<String, String> p : table.properties().entrySet()) {
      if (isOwnedParameter(p.getKey(), table.provider())) {
        throw new IllegalArgumentException(String.format(
            "table %s: property '%s' is reserved for the Glue entry format and cannot be set",
            table.name(), p.getKey()));
      }
      parameters.put(p.getKey(), p.getValue());
    }

    Form form = formOf(table);
    serdeParameters.put(SERIALIZATION_FORMAT, "1");
    serdeParameters.putAll(table.storageProperties());
    serdeParameters.put(PATH, table.location());

    List<Column> columns = new ArrayList<>();
    List<Column> partitionKeys = new ArrayList<>();
    for (StructField field : table.schema().fields()) {
      boolean isPartition = table.partitionColumns().contains(field.name());
      if (form != Form.DELTA && isPartition) {
        partitionKeys.add(SparkCompat.INCOMPATIBLE_PARTITION_TYPE != null && !isHiveCompatible(field.dataType())
            ? column(field).toBuilder().type(SparkCompat.INCOMPATIBLE_PARTITION_TYPE).build()
            : column(field));
      } else if (form != Form.SPARK_SPECIFIC) {
        columns.add(column(field));
      }
    }
    String location = table.location();
    SerDeInfo.Builder serde = SerDeInfo.builder().serializationLibrary(LAZY_SIMPLE_SERDE);
    String inputFormat = SEQUENCE_FILE_INPUT;
    String outputFormat = HIVE_SEQUENCE_FILE_OUTPUT;
    if (form == Form.SPARK_SPECIFIC) {
      columns.add(Column.builder().name(PLACEHOLDER_COLUMN).type(PLACEHOLDER_COLUMN_TYPE)
          .comment(PLACEHOLDER_COLUMN_COMMENT).build());
      location = placeholderLocation(table, databaseLocation.get());
    } else if (form == Form.HIVE_COMPATIBLE) {
      HiveSerDe hive = HiveSerDe.sourceToSerDe(table.provider()).get();
      serde.serializationLibrary(hive.serde().isDefined() ? hive.serde().get() : LAZY_SIMPLE_SERDE);
      inputFormat = hive.inputFormat().get();
      outputFormat = hive.outputFormat().get();
    }

    StorageDescriptor sd = storage(columns, serde.parameters(serdeParameters).build()).toBuilder()
        .location(location)
        .inputFormat(inputFormat)
        .outputFormat(outputFormat)
        .build();

    return TableInput.builder()
        .name(table.name().table())
        .description(table.comment().map(c -> cutUtf8(c, MAX_DESCRIPTION_BYTES)).orElse(null))
        .owner(owner.orElse(null))
        .retention(0)
        .storageDescriptor(sd)
        .partitionKeys(partitionKeys)
        .tableType(GLUE_EXTERNAL_TABLE)
        .parameters(parameters)
        .build();
  }

  /**
   * A StorageDescriptor with every field the Glue Hive client and Trino need (it fails on an entry without
   * them): the columns, the SerDe, SequenceFile formats (a provider's own formats replace them) and Hive's
   * defaults for the rest.
   */
  public static StorageDescriptor storage(List<Column> columns, SerDeInfo serde) {
    return StorageDescriptor.builder()
        .columns(columns)
        .inputFormat(SEQUENCE_FILE_INPUT)
        .outputFormat(HIVE_SEQUENCE_FILE_OUTPUT)
        .compressed(false)
        .numberOfBuckets(-1)
        .serdeInfo(serde)
        .bucketColumns(List.of())
        .sortColumns(List.of())
        .parameters(Map.of())
        .skewedInfo(SkewedInfo.builder().skewedColumnNames(List.of()).skewedColumnValues(List.of())
            .skewedColumnValueLocationMaps(Map.of()).build())
        .storedAsSubDirectories(false)
        .build();
  }

  private void putOwnedParameters(Map<String, String> parameters, TableDefinition table, String createVersion) {
    // Tables are external even when Spark calls them managed: gluecat never deletes data, so Glue and
    // the readers behind it must not either.
    parameters.put(EXTERNAL, "TRUE");
    parameters.put(PROVIDER, table.provider());
    parameters.put(CREATE_VERSION, createVersion);
    parameters.put(PARTITION_PROVIDER, PARTITION_PROVIDER_FILESYSTEM);
    if (table.isDelta()) {
      parameters.put(TABLE_TYPE, TABLE_TYPE_DELTA);
    }
    classification(table.provider()).ifPresent(c -> parameters.put(CLASSIFICATION, c));
    table.comment().ifPresent(c -> parameters.put(COMMENT, c));
    putSchema(parameters, table.schema());
    List<String> partitionColumns = table.partitionColumns();
    if (!partitionColumns.isEmpty()) {
      parameters.put(SCHEMA_NUM_PART_COLS, Integer.toString(partitionColumns.size()));
      for (int i = 0; i < partitionColumns.size(); i++) {
        parameters.put(SCHEMA_PART_COL_PREFIX + i, partitionColumns.get(i));
      }
    }
    table.bucketing().ifPresent(b -> b.putInto(parameters)); // in parameters only, as Spark's Hive path: Bucketing
  }

  /** The schema JSON (char and varchar as string, their types in the field metadata), split as Spark splits it. */
  public void putSchema(Map<String, String> parameters, StructType schema) {
    splitLargeValue(parameters, SCHEMA, CharVarcharUtils.replaceCharVarcharWithStringInSchema(schema).json());
  }

  /** As Spark's CatalogTable.splitLargeTableProp: one key up to the threshold, numbered parts beyond it. */
  private void splitLargeValue(Map<String, String> parameters, String key, String value) {
    int threshold = schemaThreshold;
    if (value.length() <= threshold) {
      parameters.put(key, value);
      return;
    }
    int parts = (value.length() + threshold - 1) / threshold;
    parameters.put(key + ".numParts", Integer.toString(parts));
    for (int i = 0; i < parts; i++) {
      parameters.put(key + ".part." + i, value.substring(i * threshold, Math.min(value.length(), (i + 1) * threshold)));
    }
  }

  /** A Glue column: Spark's type string (char and varchar kept), the comment on one line within Glue's limit. */
  public static Column column(StructField field) {
    String type = CharVarcharUtils.getRawTypeString(field.metadata())
        .getOrElse(() -> SparkCompat.withoutDefaultCollation(field.dataType()).catalogString());
    Column.Builder column = Column.builder().name(field.name()).type(type);
    if (field.getComment().isDefined()) {
      column.comment(cutUtf8(oneLine(field.getComment().get()), MAX_COLUMN_COMMENT_BYTES));
    }
    return column.build();
  }

  private static String placeholderLocation(TableDefinition table, Optional<String> databaseLocation) {
    String base = databaseLocation.filter(l -> !l.isEmpty()).orElseGet(() -> parentOf(table.location()));
    return EntryFormat.withoutTrailingSlash(base) + "/" + table.name().table() + PLACEHOLDER_SUFFIX;
  }

  private static String parentOf(String location) {
    String trimmed = EntryFormat.withoutTrailingSlash(location);
    int slash = trimmed.lastIndexOf('/');
    return slash <= 0 ? trimmed : trimmed.substring(0, slash);
  }


  /**
   * Types Hive can represent; any other forces the Spark-specific form, as HiveExternalCatalog's
   * isHiveCompatibleDataType decides: ANSI intervals and TIMESTAMP_NTZ on every line; from Spark 4, also
   * VARIANT and struct fields whose names Hive would need quoted (SparkCompat says whether this line
   * checks names) and strings with a collation other than the default (SparkCompat). TIME (Spark 4.1) is
   * listed too: Spark tries the Hive form, the Glue client rejects the type, and Spark falls back to the
   * Spark-specific form, so that is the entry it ends up with.
   */
  static boolean isHiveCompatible(DataType type) {
    if (!SparkCompat.isHiveCompatibleString(type)) {
      return false;
    }
    if (type instanceof DayTimeIntervalType || type instanceof YearMonthIntervalType
        || type instanceof CalendarIntervalType || type instanceof TimestampNTZType) {
      return false;
    }
    String typeClass = type.getClass().getSimpleName();
    if (typeClass.startsWith("VariantType") || typeClass.startsWith("TimeType")) {
      return false; // Spark 4 types, named so that this compiles on Spark 3.5 too
    }
    if (type instanceof StructType) {
      for (StructField f : ((StructType) type).fields()) {
        if (SparkCompat.HIVE_NEEDS_PLAIN_STRUCT_FIELD_NAMES && !PLAIN_NAME.matcher(f.name()).matches()) {
          return false;
        }
        if (!isHiveCompatible(f.dataType())) {
          return false;
        }
      }
      return true;
    }
    if (type instanceof ArrayType) {
      return isHiveCompatible(((ArrayType) type).elementType());
    }
    if (type instanceof MapType) {
      return isHiveCompatible(((MapType) type).keyType()) && isHiveCompatible(((MapType) type).valueType());
    }
    return true;
  }

  private static final Pattern PLAIN_NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  /** Control characters (newlines, tabs) become spaces: Glue column comments are one line. */
  static String oneLine(String text) {
    StringBuilder b = new StringBuilder(text.length());
    text.codePoints().forEach(cp -> b.appendCodePoint(Character.isISOControl(cp) ? ' ' : cp));
    return b.toString();
  }

  /** The longest prefix of {@code text} whose UTF-8 form fits in {@code maxBytes}, never splitting a character. */
  public static String cutUtf8(String text, int maxBytes) {
    if (text.getBytes(StandardCharsets.UTF_8).length <= maxBytes) {
      return text;
    }
    int bytes = 0;
    int end = 0;
    while (end < text.length()) {
      int cp = text.codePointAt(end);
      int size = new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8).length;
      if (bytes + size > maxBytes) {
        break;
      }
      bytes += size;
      end += Character.charCount(cp);
    }
    return text.substring(0, end);
  }
}
