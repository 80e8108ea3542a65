package io.gluecat.views;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.entry.EntryFormat;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.SkewedInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;

/** The parts of the entry format that views share with tables. */
final class ViewEntryParts {
  private ViewEntryParts() {}

  private static final Set<String> HIVE_GENERATED = Set.of(EntryFormat.LAST_DDL_TIME,
      "COLUMN_STATS_ACCURATE", "numFiles", "numPartitions", "numRows", "rawDataSize", "totalSize");

  static boolean isBookkeeping(String key) {
    return key.startsWith("spark.sql.") || HIVE_GENERATED.contains(key);
  }

  static Optional<StructType> storedSchema(String qualified, Map<String, String> parameters) {
    try {
      String json = parameters.get(EntryFormat.SCHEMA);
      if (json == null && parameters.containsKey(EntryFormat.SCHEMA_NUM_PARTS)) {
        StringBuilder b = new StringBuilder();
        int n = Integer.parseInt(parameters.get(EntryFormat.SCHEMA_NUM_PARTS).trim());
        for (int i = 0; i < n; i++) {
          String part = parameters.get(EntryFormat.SCHEMA_PART_PREFIX + i);
          if (part == null) {
            throw new IllegalArgumentException("missing " + EntryFormat.SCHEMA_PART_PREFIX + i);
          }
          b.append(part);
        }
        json = b.toString();
      }
      return json == null ? Optional.empty()
          : Optional.of(CharVarcharUtils.getRawSchema((StructType) DataType.fromJson(json)));
    } catch (RuntimeException | StackOverflowError e) { // Jackson's and Scala's errors escape undeclared
      throw new InvalidGlueEntryException("View " + qualified + " has a schema (" + EntryFormat.SCHEMA
          + ") that is not valid schema JSON", e);
    }
  }

  static void putSchema(Map<String, String> parameters, StructType schema, int threshold) {
    String value = CharVarcharUtils.replaceCharVarcharWithStringInSchema(schema).json();
    if (value.length() <= threshold) {
      parameters.put(EntryFormat.SCHEMA, value);
      return;
    }
    int parts = (value.length() + threshold - 1) / threshold;
    parameters.put(EntryFormat.SCHEMA_NUM_PARTS, Integer.toString(parts));
    for (int i = 0; i < parts; i++) {
      parameters.put(EntryFormat.SCHEMA_PART_PREFIX + i,
          value.substring(i * threshold, Math.min(value.length(), (i + 1) * threshold)));
    }
  }

  static Column column(StructField field) {
    String type = CharVarcharUtils.getRawTypeString(field.metadata()).getOrElse(() -> field.dataType().catalogString());
    Column.Builder column = Column.builder().name(field.name()).type(type);
    if (field.getComment().isDefined()) {
      column.comment(cut(field.getComment().get(), EntryFormat.MAX_COLUMN_COMMENT_BYTES));
    }
    return column.build();
  }

  static String description(String comment) {
    return cut(comment, EntryFormat.MAX_DESCRIPTION_BYTES);
  }

  private static String cut(String text, int maxBytes) {
    byte[] b = text.getBytes(StandardCharsets.UTF_8);
    return b.length <= maxBytes ? text : new String(b, 0, maxBytes, StandardCharsets.UTF_8);
  }

  static StorageDescriptor storage(List<Column> columns, Map<String, String> serdeParameters) {
    return StorageDescriptor.builder()
        .columns(columns)
        .inputFormat(EntryFormat.SEQUENCE_FILE_INPUT)
        .outputFormat(EntryFormat.HIVE_SEQUENCE_FILE_OUTPUT)
        .compressed(false)
        .numberOfBuckets(-1)
        .serdeInfo(SerDeInfo.builder().serializationLibrary(EntryFormat.LAZY_SIMPLE_SERDE)
            .parameters(serdeParameters).build())
        .bucketColumns(List.of())
        .sortColumns(List.of())
        .parameters(Map.of())
        .skewedInfo(SkewedInfo.builder().skewedColumnNames(List.of()).skewedColumnValues(List.of())
            .skewedColumnValueLocationMaps(Map.of()).build())
        .storedAsSubDirectories(false)
        .build();
  }
}
