package io.gluecat.entry;

import io.gluecat.TableName;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.types.StructType;

/**
 * A table as Spark describes it, in the terms the entry format needs. The schema holds every column,
 * partition columns included; {@code location} is the real location of the data.
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

  public TableDefinition(TableName name, String provider, StructType schema, List<String> partitionColumns,
      String location, Optional<String> comment, Map<String, String> properties,
      Map<String, String> storageProperties) {
    this.name = name;
    this.provider = provider;
    this.schema = schema;
    this.partitionColumns = List.copyOf(partitionColumns);
    this.location = location;
    this.comment = comment;
    this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    this.storageProperties = Collections.unmodifiableMap(new LinkedHashMap<>(storageProperties));
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
}
