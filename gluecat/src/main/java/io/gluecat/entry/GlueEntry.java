package io.gluecat.entry;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.types.StructType;

/**
 * A Glue entry as gluecat understands it after EntryReader checked it: everything needed to hand the
 * table to Spark or Delta. For non-Delta tables the schema ends with the partition columns, in
 * partition order; a Delta entry's schema may be empty (Delta reads its own log).
 */
public final class GlueEntry {
  private final TableName name;
  private final String provider;
  private final String location;
  private final StructType schema;
  private final List<String> partitionColumns;
  private final Optional<String> comment;
  private final Map<String, String> properties;
  private final Map<String, String> storageProperties;
  private final Optional<String> owner;
  private final String createVersion;
  private final long createTimeMillis;
  private final Optional<org.apache.spark.sql.catalyst.catalog.CatalogStatistics> statistics;
  private final Optional<Bucketing> bucketing;

  GlueEntry(TableName name, String provider, String location, StructType schema, List<String> partitionColumns,
      Optional<String> comment, Map<String, String> properties, Map<String, String> storageProperties,
      Optional<String> owner, String createVersion, long createTimeMillis,
      Optional<org.apache.spark.sql.catalyst.catalog.CatalogStatistics> statistics, Optional<Bucketing> bucketing) {
    this.name = name;
    this.provider = provider;
    this.location = location;
    this.schema = schema;
    this.partitionColumns = List.copyOf(partitionColumns);
    this.comment = comment;
    this.properties = Map.copyOf(properties);
    this.storageProperties = Map.copyOf(storageProperties);
    this.owner = owner;
    this.createVersion = createVersion;
    this.createTimeMillis = createTimeMillis;
    this.statistics = statistics;
    this.bucketing = bucketing;
  }

  public TableName name() { return name; }
  /** The provider as stored, except that Delta in any case reads as "delta". */
  public String provider() { return provider; }
  public boolean isDelta() { return EntryFormat.isDelta(provider); }
  public String location() { return location; }
  public StructType schema() { return schema; }
  public List<String> partitionColumns() { return partitionColumns; }
  public Optional<String> comment() { return comment; }
  /** Parameters that are not part of the format: user properties and keys other tools wrote. */
  public Map<String, String> properties() { return properties; }
  /** SerDe parameters without the location and Hive's own serialization.format. */
  public Map<String, String> storageProperties() { return storageProperties; }
  public Optional<String> owner() { return owner; }
  /** spark.sql.create.version, or "" when the entry has none. */
  public String createVersion() { return createVersion; }
  public long createTimeMillis() { return createTimeMillis; }
  /** The statistics ANALYZE TABLE stored ({@link EntryStatistics}); empty when it has none. */
  public Optional<org.apache.spark.sql.catalyst.catalog.CatalogStatistics> statistics() { return statistics; }
  /** The bucketing a file source table's entry holds ({@link Bucketing}); empty when it has none. */
  public Optional<Bucketing> bucketing() { return bucketing; }
}
