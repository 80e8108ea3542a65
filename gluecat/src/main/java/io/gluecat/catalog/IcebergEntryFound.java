package io.gluecat.catalog;

import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;

/**
 * What a load or a rename throws where it reads the entry it serves and finds an Iceberg table's: {@link CatalogTables}
 * catches it and hands the call to Iceberg's catalog ({@link CatalogIceberg}), so telling the kinds apart costs no
 * Glue read of its own, in a statement or outside one; it carries the entry read, which Iceberg's load then takes
 * instead of reading it again. Its message says what it is, should it ever surface.
 */
final class IcebergEntryFound extends RuntimeException {
  private final TableName table;
  private final transient StoredTable entry;

  IcebergEntryFound(String catalog, TableName table, StoredTable entry) {
    super("Table " + catalog + "." + table + " is an Apache Iceberg table, served by Iceberg's catalog", null, false,
        false);
    this.table = table;
    this.entry = entry;
  }

  TableName table() {
    return table;
  }

  StoredTable entry() {
    return entry;
  }
}
