package io.gluecat.entry;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * A table's entry as Glue returned it, for code outside {@code glue} and {@code entry} that reads an entry to
 * change it and write it back at its VersionId. Glue's UpdateTable replaces the whole entry, so the entry is
 * kept whole, as Glue's own Table; what callers read of it is here in gluecat's terms, and only {@code glue}
 * and {@code entry} take the Table out ({@link #sdkTable}; ArchitectureTest checks who does, issue #42).
 */
public final class StoredTable {
  private final Table table;

  public StoredTable(Table table) {
    this.table = table;
  }

  /** Glue's Table, every field as read: for {@code glue} and {@code entry} only. */
  public Table sdkTable() { return table; }

  /**
   * The entry as Glue holds it once {@code written} was created or updated, as far as gluecat reads an entry it has
   * just written (name, type, storage, partition keys, parameters); Glue adds the rest (VersionId, times).
   */
  static StoredTable written(TableInput written) {
    return new StoredTable(Table.builder().name(written.name()).tableType(written.tableType())
        .storageDescriptor(written.storageDescriptor()).partitionKeys(written.partitionKeys())
        .parameters(written.parameters()).build());
  }

  /**
   * The same entry without Spark's statistics ({@link EntryEdits#withoutStatistics}): the base of an update whose
   * table gets other files (a replace, a new location), as Spark's catalog drops them then.
   */
  public StoredTable withoutStatistics() {
    return new StoredTable(EntryEdits.withoutStatistics(table));
  }

  /** The entry's name, as Glue stores it (lower case). */
  public String name() { return table.name(); }

  /** The VersionId an update of this entry names, so that a concurrent change is never overwritten. */
  public String versionId() { return table.versionId(); }

  /** Whether the entry has partition keys. */
  public boolean isPartitioned() { return table.hasPartitionKeys() && !table.partitionKeys().isEmpty(); }

  /** The parameters as stored; empty when the entry has none. */
  public Map<String, String> parameters() { return table.hasParameters() ? table.parameters() : Map.of(); }

  /** The Description, or null. */
  public String description() { return table.description(); }

  /** The TableType (EXTERNAL_TABLE, VIRTUAL_VIEW...), or null. */
  public String tableType() { return table.tableType(); }

  /** Whether the entry is a view of any kind ({@link EntryReader#isView}). */
  public boolean isView() { return EntryReader.isView(table); }

  /** Whether the entry is a Hive-format table ({@link EntryReader#isHiveFormat}). */
  public boolean isHiveFormat() { return EntryReader.isHiveFormat(table); }

  /** The provider parameter ({@link EntryFormat#PROVIDER}: delta, parquet...), when set. */
  public Optional<String> provider() { return Optional.ofNullable(parameters().get(EntryFormat.PROVIDER)); }

  /** Whether the entry is a Delta table's. */
  public boolean isDelta() { return EntryFormat.isDelta(provider().orElse(null)); }

  /** Whether the entry is an Apache Iceberg table's ({@code table_type = ICEBERG}, in any case). */
  public boolean isIceberg() {
    return EntryFormat.TABLE_TYPE_ICEBERG.equalsIgnoreCase(parameters().get(EntryFormat.TABLE_TYPE));
  }

  /** Whether the entry holds statistics ANALYZE stored ({@link EntryEdits#hasStatistics}). */
  public boolean hasStatistics() { return EntryEdits.hasStatistics(table); }

  /** The base a Spark placeholder Location of the entry was made from ({@link EntryWriter#placeholderBase}). */
  public Optional<String> placeholderBase() { return EntryWriter.placeholderBase(table); }

  /** Whether the entry is a Glue resource link (it has a TargetTable). */
  public boolean isResourceLink() { return table.targetTable() != null; }

  /** A resource link's target, {@code <database>.<table>}; empty for any other entry. */
  public Optional<String> resourceLinkTarget() {
    return isResourceLink() ? Optional.of(table.targetTable().databaseName() + "." + table.targetTable().name())
        : Optional.empty();
  }

  /** Whether the entry has a StorageDescriptor with a SerdeInfo (which Trino, Athena and Spark's Hive path need). */
  public boolean hasSerdeInfo() { return serde() != null; }

  /** The SerdeInfo's SerializationLibrary, when set. */
  public Optional<String> serializationLibrary() {
    return Optional.ofNullable(serde() == null ? null : serde().serializationLibrary());
  }

  /** The SerdeInfo's parameters; empty when there are none. */
  public Map<String, String> serdeParameters() {
    SerDeInfo serde = serde();
    return serde == null || !serde.hasParameters() ? Map.of() : serde.parameters();
  }

  /** StorageDescriptor.Location exactly as stored (a Spark placeholder too); empty when missing. */
  public Optional<String> storageLocation() {
    StorageDescriptor sd = table.storageDescriptor();
    return Optional.ofNullable(sd == null ? null : sd.location());
  }

  /** Whether the entry has a StorageDescriptor at all. */
  public boolean hasStorageDescriptor() { return table.storageDescriptor() != null; }

  /** StorageDescriptor.NumberOfBuckets, or null when unset or there is no StorageDescriptor. */
  public Integer numberOfBuckets() {
    return table.storageDescriptor() == null ? null : table.storageDescriptor().numberOfBuckets();
  }

  /** StorageDescriptor.BucketColumns; empty when there are none. */
  public List<String> bucketColumns() {
    StorageDescriptor sd = table.storageDescriptor();
    return sd == null || !sd.hasBucketColumns() ? List.of() : sd.bucketColumns();
  }

  /** StorageDescriptor.InputFormat, when set. */
  public Optional<String> inputFormat() {
    StorageDescriptor sd = table.storageDescriptor();
    return Optional.ofNullable(sd == null ? null : sd.inputFormat());
  }

  /** The SerDe parameter {@code path}, trimmed, when set and not blank. */
  public Optional<String> serdePath() {
    return Optional.ofNullable(serdeParameters().get(EntryFormat.PATH)).map(String::trim).filter(s -> !s.isEmpty());
  }

  /** StorageDescriptor.Location, trimmed, unless missing, blank or a Spark placeholder. */
  public Optional<String> realStorageLocation() {
    return storageLocation().map(String::trim)
        .filter(s -> !s.isEmpty() && !s.endsWith(EntryFormat.PLACEHOLDER_SUFFIX));
  }

  /** The location gluecat (and Spark's Hive path) read: the SerDe path, else a real StorageDescriptor.Location. */
  public Optional<String> readLocation() {
    return serdePath().or(this::realStorageLocation);
  }

  /** The StorageDescriptor's columns, in order; empty when it has none or there is no StorageDescriptor. */
  public List<StoredColumn> columns() {
    return table.storageDescriptor() == null ? List.of() : StoredColumn.of(table.storageDescriptor().columns());
  }

  /** The partition keys, in partition order; empty for an unpartitioned entry. */
  public List<StoredColumn> partitionKeys() { return StoredColumn.of(table.partitionKeys()); }

  /** Two entries are equal when Glue's tables are: every field, the VersionId among them. */
  @Override
  public boolean equals(Object other) {
    return other instanceof StoredTable && table.equals(((StoredTable) other).table);
  }

  @Override
  public int hashCode() { return table.hashCode(); }

  private SerDeInfo serde() {
    return table.storageDescriptor() == null ? null : table.storageDescriptor().serdeInfo();
  }
}
