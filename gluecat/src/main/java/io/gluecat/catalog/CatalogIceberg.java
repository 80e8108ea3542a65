package io.gluecat.catalog;

import io.gluecat.create.CreateArguments;
import io.gluecat.delta.DeltaCreates;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueEntries;
import io.gluecat.iceberg.IcebergTables;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * Which of a catalog's table calls go to Iceberg's catalog ({@link IcebergTables}), and how: those on a Glue entry of
 * an Iceberg table, and the creates that name iceberg as their provider. Whether an entry is Iceberg's is read from
 * the statement's entry cache, which the call that follows reads anyway, so the check costs no Glue call. Iceberg's
 * own failures (an unreadable metadata file, a refused schema change) come back naming the table.
 */
final class CatalogIceberg {
  /** A call on Iceberg's catalog. */
  @FunctionalInterface
  interface Call<T, E extends Exception> {
    T on(TableCatalog iceberg) throws E;
  }

  private final String name;
  private final CatalogNames names;
  private final GlueEntries stored;
  private final IcebergTables tables;

  CatalogIceberg(String name, CatalogNames names, GlueEntries stored, IcebergTables tables) {
    this.name = name;
    this.names = names;
    this.stored = stored;
    this.tables = tables;
  }

  static boolean isIceberg(CreateArguments arguments) {
    return "iceberg".equalsIgnoreCase(arguments.provider());
  }

  /**
   * The Iceberg table whose metadata table {@code ident} names ({@code db.t.snapshots}: a namespace of two parts,
   * which no other kind of table has), with its entry as read, or null. Only such names cost this check a read of
   * the entry, which Iceberg's load then takes.
   */
  IcebergEntryFound metadataTableOf(Identifier ident) {
    if (ident.namespace().length != 2) {
      return null;
    }
    TableName table = names.tableName(Identifier.of(new String[] {ident.namespace()[0]}, ident.namespace()[1]));
    return table == null ? null : stored.find(table).filter(StoredTable::isIceberg)
        .map(entry -> new IcebergEntryFound(name, table, entry)).orElse(null);
  }

  /** The Iceberg table {@code ident} names, or null when it names none or another kind. */
  TableName table(Identifier ident) {
    TableName table = names.tableName(ident);
    return table != null && stored.find(table).filter(StoredTable::isIceberg).isPresent() ? table : null;
  }

  /** Runs {@code call} on Iceberg's catalog for {@code table}. */
  <T, E extends Exception> T call(TableName table, Call<T, E> call) throws E {
    TableCatalog iceberg = catalog(table);
    try {
      return call.on(iceberg);
    } catch (RuntimeException e) {
      throw failed(table, e);
    }
  }

  /**
   * A load of {@code ident} (the table, or one of its metadata tables) from Iceberg's catalog. When Iceberg finds no
   * table behind the Iceberg entry gluecat just read (no metadata_location, say), the error says so and names it.
   */
  Table load(IcebergEntryFound found, Identifier ident, Call<Table, NoSuchTableException> load)
      throws NoSuchTableException {
    TableName table = found.table();
    try {
      // Iceberg's read of the entry is the one gluecat has just made
      return tables.loading(table, found.entry(), () -> call(table, load));
    } catch (NoSuchTableException e) {
      if (!table.equals(names.tableName(ident))) {
        throw e; // a metadata table Iceberg does not have
      }
      throw new IllegalStateException(String.format("Table %s.%s has an Apache Iceberg entry in Glue, but Iceberg's "
          + "catalog finds no table behind it (is its metadata_location missing?): %s", name, table, e.getMessage()), e);
    }
  }

  /** CREATE TABLE ... USING iceberg: Iceberg's create, which writes Iceberg's own entry. */
  Table create(TableName table, Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    TableCatalog iceberg = catalog(table);
    try {
      return iceberg.createTable(ident, schema, partitions, properties);
    } catch (RuntimeException e) {
      throw failed(table, e);
    }
  }

  /** CTAS, REPLACE and CREATE OR REPLACE ... USING iceberg, which Iceberg stages and commits itself. */
  StagedTable stage(DeltaCreates.Mode mode, TableName table, Identifier ident, StructType schema,
      Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException, NoSuchTableException {
    if (mode != DeltaCreates.Mode.CREATE) {
      refuseKindChange(table, stored.find(table), true);
    }
    StagingTableCatalog iceberg = (StagingTableCatalog) catalog(table);
    try {
      switch (mode) {
        case CREATE:
          return iceberg.stageCreate(ident, schema, partitions, properties);
        case REPLACE:
          return iceberg.stageReplace(ident, schema, partitions, properties);
        default:
          return iceberg.stageCreateOrReplace(ident, schema, partitions, properties);
      }
    } catch (RuntimeException e) {
      throw failed(table, e);
    }
  }

  /** RENAME of an Iceberg table: Iceberg's rename; {@code forget} then drops what the catalog cached of the name. */
  void rename(TableName table, Identifier from, Identifier to, Runnable forget)
      throws NoSuchTableException, TableAlreadyExistsException {
    Identifier target = names.withoutCatalogName(to); // as Spark passes it: with the catalog's name, if written
    names.newTableName(target); // checked as for any rename
    TableCatalog iceberg = catalog(table);
    try {
      iceberg.renameTable(from, target);
    } catch (RuntimeException e) {
      throw failed(table, e);
    } finally {
      forget.run();
    }
  }

  /** REFRESH TABLE: Iceberg's catalog forgets what it cached of the table, if it was ever asked for one. */
  void invalidate(Identifier ident) {
    tables.invalidate(ident);
  }

  /**
   * Refuses a REPLACE (or CREATE OR REPLACE) that would turn an Iceberg table into another kind, or another kind
   * into an Iceberg table: Iceberg and gluecat each replace only the tables they keep.
   */
  void refuseKindChange(TableName table, Optional<StoredTable> existing, boolean icebergTarget) {
    if (existing.isPresent() && !existing.get().isView() && existing.get().isIceberg() != icebergTarget) {
      throw new UnsupportedOperationException(String.format("Table %s.%s is %s; a REPLACE %s cannot change that. "
          + "DROP the table first, then create it anew.", name, table,
          icebergTarget ? "not an Apache Iceberg table" : "an Apache Iceberg table",
          icebergTarget ? "USING iceberg" : "with another provider than iceberg"));
    }
  }

  private TableCatalog catalog(TableName table) {
    return tables.catalog(name + "." + table); // refuses the table without Iceberg's runtime
  }

  private RuntimeException failed(TableName table, RuntimeException e) {
    return IcebergTables.failed(name + "." + table, e);
  }
}
