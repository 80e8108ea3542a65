package io.gluecat.entry;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A table as Spark describes it, in the terms the entry format needs. The schema holds every column,
 * partition columns included; {@code location} is the real location of the data. For tables other than
 * Delta, the partition columns are moved to the end in partition order and named as in the schema, as
 * Spark does before its own catalog sees such a table (Delta keeps the order its log has).
 */
public final class TableDefinition {
  private final TableName name;
  private final String provider;
  private final StructType schema;
  private final List<String> partitionColumns;
  private final String location;
  private final Optional<String> comment;
  private final Map<String, String> properties;
  private final Map<String, String> storageProperties;
  private final Optional<Bucketing> bucketing;

  public TableDefinition(TableName name, String provider, StructType schema, List<String> partitionColumns,
      String location, Optional<String> comment, Map<String, String> properties,
      Map<String, String> storageProperties) {
    this(name, provider, schema, partitionColumns, location, comment, properties, storageProperties, Optional.empty());
  }

  /** A table with its bucketing ({@code CLUSTERED BY}), which only file source tables have. */
  public TableDefinition(TableName name, String provider, StructType schema, List<String> partitionColumns,
      String location, Optional<String> comment, Map<String, String> properties,
      Map<String, String> storageProperties, Optional<Bucketing> bucketing) {
    this.name = name;
    this.provider = provider;
    if (EntryFormat.isDelta(provider)) {
      this.schema = schema;
      this.partitionColumns = List.copyOf(partitionColumns);
    } else {
      List<StructField> partitions = new ArrayList<>();
      for (String column : partitionColumns) {
        partitions.add(Arrays.stream(schema.fields()).filter(f -> f.name().equalsIgnoreCase(column)).findFirst()
            .orElseThrow(() -> new IllegalArgumentException(String.format("table %s: partition column %s is not "
                + "one of its columns", name, column))));
      }
      List<StructField> fields = new ArrayList<>();
      Arrays.stream(schema.fields()).filter(f -> !partitions.contains(f)).forEach(fields::add);
      fields.addAll(partitions);
      this.schema = new StructType(fields.toArray(new StructField[0]));
      this.partitionColumns = partitions.stream().map(StructField::name).collect(Collectors.toUnmodifiableList());
    }
    this.location = location;
    this.comment = comment;
    this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    this.storageProperties = Collections.unmodifiableMap(new LinkedHashMap<>(storageProperties));
    this.bucketing = bucketing;
  }

  public TableName name() { return name; }
  public String provider() { return provider; }
  public StructType schema() { return schema; }
  public List<String> partitionColumns() { return partitionColumns; }
  public String location() { return location; }
  public Optional<String> comment() { return comment; }
  /** User table properties (TBLPROPERTIES), stored as Glue parameters. */
  public Map<String, String> properties() { return properties; }
  /** Data source options (OPTIONS), stored as SerDe parameters. */
  public Map<String, String> storageProperties() { return storageProperties; }
  public boolean isDelta() { return EntryFormat.isDelta(provider); }
  public Optional<Bucketing> bucketing() { return bucketing; }
}
