package io.gluecat.entry;

import software.amazon.awssdk.services.glue.model.Table;

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

  /** The entry's name, as Glue stores it (lower case). */
  public String name() { return table.name(); }

  /** The VersionId an update of this entry names, so that a concurrent change is never overwritten. */
  public String versionId() { return table.versionId(); }

  /** Whether the entry has partition keys. */
  public boolean isPartitioned() { return table.hasPartitionKeys() && !table.partitionKeys().isEmpty(); }
}
