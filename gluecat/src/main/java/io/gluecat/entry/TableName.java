package io.gluecat.entry;

import java.util.Locale;

/** A Glue table's database and name, lower-cased as Glue stores them. */
public final class TableName {
  private final String database;
  private final String table;

  public TableName(String database, String table) {
    this.database = database.toLowerCase(Locale.ROOT);
    this.table = table.toLowerCase(Locale.ROOT);
  }

  public String database() { return database; }
  public String table() { return table; }

  /** The name as users write it after the catalog name: {@code db.table}. */
  @Override
  public String toString() { return database + "." + table; }

  @Override
  public boolean equals(Object o) {
    return o instanceof TableName && ((TableName) o).database.equals(database) && ((TableName) o).table.equals(table);
  }

  @Override
  public int hashCode() { return database.hashCode() * 31 + table.hashCode(); }
}
