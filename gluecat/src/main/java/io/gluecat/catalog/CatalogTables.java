package io.gluecat.catalog;

import io.gluecat.compat.Scala;
import io.gluecat.config.CatalogOptions;
import io.gluecat.create.CreateArguments;
import io.gluecat.create.CreateChecks;
import io.gluecat.create.CreatedTable;
import io.gluecat.delta.DeltaByPath;
import io.gluecat.delta.DeltaColumns;
import io.gluecat.delta.DeltaCreates;
import io.gluecat.delta.CloneCall;
import io.gluecat.delta.DeltaSupport;
import io.gluecat.delta.DeltaTables;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.files.FileTables;
import io.gluecat.glue.GlueEntries;
import io.gluecat.glue.GlueGateway;
import io.gluecat.hive.HiveTables;
import io.gluecat.iceberg.IcebergTables;
import io.gluecat.partitions.PartitionSync;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableCatalogCapability;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableWritePrivilege;
import org.apache.spark.sql.connector.catalog.V1Table;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * A catalog's tables: which part serves each table operation. Delta entries are served by a DeltaCatalog
 * whose delegate is the {@link EntryCatalog} and created by path through {@link DeltaCreates}; file source
 * entries load as V1Tables (their writes: {@link CatalogWrites}) and are created through {@link FileTables}; Hive-format entries load through the
 * {@link EntryCatalog} (Delta's catalog passes them through) and are never created or replaced here; Iceberg
 * entries, and creates that name Iceberg, go to Iceberg's catalog ({@link CatalogIceberg}). Glue is written after
 * the data; a rename is {@link CatalogRenames}'.
 */
final class CatalogTables {
  private final String name;
  private final CatalogOptions options;
  private final GlueGateway glue;
  private final GlueEntries stored;
  private final CatalogHadoopConf hadoop;
  private final EntryCatalog entries;
  private final PartitionSync partitions;
  private final CatalogNames names;
  private final DeltaTables deltaTables;
  private final DeltaCreates deltaCreates;
  private final DeltaByPath deltaByPath;
  private final FileTables fileTables;
  private final CatalogRenames renames;
  private final CatalogWrites writes;
  private final CatalogIceberg iceberg;
  private volatile TableCatalog delta;

  CatalogTables(String name, CatalogOptions options, GlueGateway glue, CatalogHadoopConf hadoop, EntryCatalog entries,
      PartitionSync partitions, CatalogNames names, IcebergTables icebergTables) {
    this.name = name;
    this.options = options;
    this.glue = glue;
    this.stored = new GlueEntries(glue);
    this.hadoop = hadoop;
    this.entries = entries;
    this.partitions = partitions;
    this.names = names;
    this.deltaTables = new DeltaTables(name, options, glue, hadoop, this::deltaCatalog);
    this.deltaCreates = deltaTables.creates();
    this.deltaByPath = new DeltaByPath(name, glue, hadoop, this::deltaCatalog, deltaTables);
    this.fileTables = new FileTables(name, options, glue, hadoop, partitions);
    this.renames = new CatalogRenames(name, glue, partitions, names);
    this.writes = new CatalogWrites(name, options, glue, hadoop, entries, partitions, names);
    this.iceberg = new CatalogIceberg(name, names, stored, icebergTables);
  }

  DeltaTables deltaTables() {
    return deltaTables;
  }

  Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    return entries.listTables(namespace);
  }

  Table loadTable(Identifier ident) throws NoSuchTableException {
    IcebergEntryFound metadataOf = iceberg.metadataTableOf(ident);
    if (metadataOf != null) {
      return iceberg.load(metadataOf, ident, c -> c.loadTable(ident));
    }
    try {
      return loadServed(ident);
    } catch (IcebergEntryFound found) {
      return iceberg.load(found, ident, c -> c.loadTable(ident));
    }
  }

  private Table loadServed(Identifier ident) throws NoSuchTableException {
    if (DeltaSupport.AVAILABLE) {
      // Delta's catalog loads through EntryCatalog: Delta entries come back as Delta tables, others as is.
      Table table = checkedDelta(deltaCatalog().loadTable(ident));
      TableName loaded = names.tableName(ident);
      if (loaded != null) {
        deltaTables.loaded(loaded, table, () -> storedEntry(loaded));
      }
      return table;
    }
    Table table = entries.loadTable(ident);
    if (isDelta(table)) {
      throw new IllegalStateException(String.format("Table %s.%s is a Delta table, but Delta Lake (delta-spark) "
          + "is not on this session's classpath", name, names.tableName(ident)));
    }
    return table;
  }

  /** A load for writing: {@link CatalogWrites} decides; every other table loads as {@link #loadTable(Identifier)}. */
  Table loadTable(Identifier ident, Set<TableWritePrivilege> writePrivileges) throws NoSuchTableException {
    writes.dropStatistics(ident);
    Table table = writes.forWrite(ident);
    return table != null ? table : loadTable(ident);
  }

  /** Time travel (VERSION AS OF) of a Delta or an Iceberg table; only while Delta is on the classpath. */
  Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    try {
      return checkedDelta(deltaCatalog().loadTable(ident, version));
    } catch (IcebergEntryFound found) {
      return iceberg.load(found, ident, c -> c.loadTable(ident, version));
    }
  }

  /** Time travel (TIMESTAMP AS OF) of a Delta or an Iceberg table; only while Delta is on the classpath. */
  Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    try {
      return checkedDelta(deltaCatalog().loadTable(ident, timestamp));
    } catch (IcebergEntryFound found) {
      return iceberg.load(found, ident, c -> c.loadTable(ident, timestamp));
    }
  }

  /** The entry a load just read (from the statement's cache), for the Delta schema check; empty if unreadable. */
  private Optional<StoredTable> storedEntry(TableName table) {
    try {
      return Optional.of(stored.get(table));
    } catch (NoSuchTableException | RuntimeException e) {
      return Optional.empty(); // the load itself reports what is wrong with the entry
    }
  }

  /** A table Delta serves by name may only be used while the session allows it (see SessionChecks). */
  private Table checkedDelta(Table table) {
    if (!(table instanceof V1Table) && !(table instanceof io.gluecat.hive.HiveTable)) {
      deltaTables.checkSession();
    }
    return table;
  }

  private static boolean isDelta(Table table) {
    return table instanceof V1Table && EntryFormat.isDelta(((V1Table) table).v1Table().provider().getOrElse(() -> ""));
  }

  boolean tableExists(Identifier ident) {
    return entries.tableExists(ident);
  }

  /**
   * SQL REFRESH TABLE (Spark also calls this after RENAME and some writes): later statements read the entry
   * from Glue again, whatever the cache across statements held, and a Delta table's Glue columns are re-synced
   * from its log here, which is how they catch up with schema changes made by writes.
   */
  void invalidateTable(Identifier ident) {
    TableName table = names.tableName(ident);
    if (table == null) {
      return;
    }
    names.forgetCachedRelation(table);
    glue.refreshed(table);
    iceberg.invalidate(ident);
    stored.find(table).filter(t -> !t.isView() && t.isDelta()).ifPresent(entry -> deltaTables.refresh(table, entry));
  }

  /**
   * The column features a create may use (generated, identity, default columns): those Delta's own catalog
   * declares on this line, since Delta's path create is what keeps them, and only Delta tables have them.
   * Delta's catalog before 4.4.0 declares only what its delegate does, which where users put it (spark_catalog)
   * is Spark's session catalog, with column defaults; gluecat's inner one has the entry catalog as delegate,
   * so on the Spark 4 lines gluecat declares defaults itself, as Delta's own catalog would (Spark 4.0 with Delta
   * 4.0). The Spark 3.5 row keeps refusing them (how-it-works.md, "Limits").
   */
  Set<TableCatalogCapability> capabilities() {
    Set<TableCatalogCapability> declared = new java.util.HashSet<>();
    if (DeltaSupport.AVAILABLE) {
      for (TableCatalogCapability c : deltaCatalog().capabilities()) {
        if (COLUMN_CAPABILITIES.contains(c.name())) {
          declared.add(c);
        }
      }
      if (io.gluecat.compat.SparkCompat.DECLARES_COLUMN_DEFAULTS) {
        declared.add(TableCatalogCapability.SUPPORT_COLUMN_DEFAULT_VALUE);
      }
    }
    return declared;
  }

  private static final Set<String> COLUMN_CAPABILITIES = Set.of("SUPPORTS_CREATE_TABLE_WITH_GENERATED_COLUMNS",
      "SUPPORTS_CREATE_TABLE_WITH_IDENTITY_COLUMNS", "SUPPORT_COLUMN_DEFAULT_VALUE");

  Table createTable(Identifier ident, DeltaColumns columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    TableName table = names.newTableName(ident);
    if (DeltaSupport.AVAILABLE && !properties.containsKey(TableCatalog.PROP_PROVIDER) && CloneCall.current()) {
      properties = new LinkedHashMap<>(properties); // the target of a SHALLOW CLONE: Delta clones into it by path
      properties.put(TableCatalog.PROP_PROVIDER, EntryFormat.DELTA);
    }
    CreateArguments arguments = new CreateArguments(properties);
    if (CatalogIceberg.isIceberg(arguments)) {
      return iceberg.create(table, ident, columns.schema(), partitions, properties);
    }
    CreateChecks.check(name, table, partitions, arguments);
    if (EntryFormat.isDelta(arguments.provider())) {
      return deltaCreates.create(ident, table, arguments, columns, partitions);
    }
    CreateChecks.refuseDeltaOnlyColumn(name, table, columns.deltaOnlyColumn(), arguments);
    StructType schema = columns.schema();
    fileTables.create(table, schema, partitions, properties);
    try {
      return loadTable(ident);
    } catch (NoSuchTableException e) {
      throw new IllegalStateException("table " + table + " vanished right after it was created", e);
    } catch (RuntimeException e) { // the create succeeded; only reading it back failed (Glue refused or throttled)
      return new CreatedTable(name + "." + table, schema, partitions, properties);
    }
  }

  /** CONVERT TO DELTA by name (see DeltaByPath.convert); false when the table was a Delta table already. */
  boolean convertToDelta(Identifier ident, Optional<StructType> partitions, boolean collectStats)
      throws NoSuchTableException, NoSuchNamespaceException {
    TableName table = names.tableName(ident);
    if (table == null) {
      throw new NoSuchTableException(ident);
    }
    try {
      return deltaByPath.convert(table, partitions, collectStats);
    } finally {
      names.forgetCachedRelation(table);
      glue.refreshed(table);
    }
  }

  /** A Delta statement writing {@code ident}'s table by path, then its entry (see DeltaCreates.byPath). */
  <T> T writeDeltaByPath(Identifier ident, DeltaCreates.Mode mode, Map<String, String> properties,
      java.util.function.Function<String, T> write)
      throws TableAlreadyExistsException, NoSuchTableException, NoSuchNamespaceException {
    return deltaCreates.byPath(mode, names.newTableName(ident), new CreateArguments(properties), write);
  }

  StagedTable stageCreate(Identifier ident, DeltaColumns schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    try {
      return stage(DeltaCreates.Mode.CREATE, ident, schema, partitions, properties);
    } catch (NoSuchTableException e) {
      throw new IllegalStateException(e); // a create never reports a missing table
    }
  }

  StagedTable stageReplace(Identifier ident, DeltaColumns schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException, NoSuchTableException {
    try {
      return stage(DeltaCreates.Mode.REPLACE, ident, schema, partitions, properties);
    } catch (TableAlreadyExistsException e) {
      throw new IllegalStateException(e); // a replace never reports an existing table
    }
  }

  StagedTable stageCreateOrReplace(Identifier ident, DeltaColumns schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException {
    try {
      return stage(DeltaCreates.Mode.CREATE_OR_REPLACE, ident, schema, partitions, properties);
    } catch (TableAlreadyExistsException | NoSuchTableException e) {
      throw new IllegalStateException(e); // create-or-replace reports neither
    }
  }

  /** CTAS, RTAS, REPLACE and CREATE OR REPLACE: a Delta table's is one sequence (DeltaCreates.stage). */
  private StagedTable stage(DeltaCreates.Mode mode, Identifier ident, DeltaColumns columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException,
      NoSuchTableException {
    TableName table = names.newTableName(ident);
    CreateArguments arguments = new CreateArguments(properties);
    if (CatalogIceberg.isIceberg(arguments)) {
      return iceberg.stage(mode, table, ident, columns.schema(), partitions, properties);
    }
    CreateChecks.check(name, table, partitions, arguments);
    if (EntryFormat.isDelta(arguments.provider())) {
      return deltaCreates.stage(mode, table, arguments, columns, partitions);
    }
    if (mode != DeltaCreates.Mode.CREATE) {
      Optional<StoredTable> existing = stored.find(table);
      existing.ifPresent(entry -> HiveTables.refuseReplacing(name + "." + table, entry));
      iceberg.refuseKindChange(table, existing, false);
    }
    CreateChecks.refuseDeltaOnlyColumn(name, table, columns.deltaOnlyColumn(), arguments);
    StructType schema = columns.schema();
    if (mode == DeltaCreates.Mode.CREATE) {
      return fileTables.stageCreate(table, schema, partitions, properties);
    }
    return fileTables.stageReplace(table, schema, partitions, properties, mode == DeltaCreates.Mode.CREATE_OR_REPLACE,
        () -> names.forgetCachedRelation(table));
  }

  Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    TableName table = names.tableName(ident);
    if (table == null) {
      throw new NoSuchTableException(ident);
    }
    StoredTable entry = stored.get(table);
    if (entry.isView()) {
      throw new NoSuchTableException(Scala.list(name, table.database(), table.table()));
    }
    if (entry.isIceberg()) {
      return iceberg.call(table, c -> c.alterTable(ident, changes));
    }
    if (EntryReader.read(name, table.database(), entry).isDelta()) {
      return deltaTables.alter(ident, table, entry, changes);
    }
    fileTables.alter(table, entry, changes);
    names.forgetCachedRelation(table);
    try {
      return loadTable(ident);
    } catch (RuntimeException e) { // the change landed; only reading the table back failed
      return new CreatedTable(name + "." + table, new StructType(), new Transform[0], Map.of());
    }
  }

  /** RENAME TABLE: see {@link CatalogRenames}. */
  void renameTable(Identifier from, Identifier to) throws NoSuchTableException, TableAlreadyExistsException {
    try {
      renames.rename(from, to);
    } catch (IcebergEntryFound found) {
      iceberg.rename(found.table(), from, to, () -> {
        names.forgetCachedRelation(found.table());
        glue.refreshed(found.table());
      });
    }
  }

  /** Removes the Glue entry only: gluecat never deletes a table's data. Views are not dropped. */
  boolean dropTable(Identifier ident) {
    TableName table = names.tableName(ident);
    if (table == null) {
      return false;
    }
    Optional<StoredTable> entry = stored.find(table);
    if (entry.isEmpty() || entry.get().isView()) {
      return false;
    }
    names.forgetCachedRelation(table);
    if (entry.get().isIceberg()) { // Iceberg's drop, which also keeps the table's files
      return iceberg.call(table, c -> c.dropTable(ident));
    }
    return glue.deleteTable(table);
  }

  /** DROP TABLE ... PURGE: Iceberg's rules for an Iceberg table (its files go too); refused for any other. */
  boolean purgeTable(Identifier ident) {
    TableName icebergTable = iceberg.table(ident);
    if (icebergTable != null) {
      names.forgetCachedRelation(icebergTable);
      return iceberg.call(icebergTable, c -> c.purgeTable(ident));
    }
    throw new UnsupportedOperationException(String.format("DROP TABLE ... PURGE is not supported by gluecat "
        + "(table %s.%s): gluecat never deletes data. Drop the table without PURGE to remove its Glue entry, "
        + "then delete the files yourself if you mean to.", name, names.describe(ident)));
  }

  /** Delta's catalog over this catalog's entries, built on first use (it needs an active SparkSession). */
  private TableCatalog deltaCatalog() {
    TableCatalog d = delta;
    if (d == null) {
      synchronized (this) {
        if (delta == null) {
          delta = DeltaSupport.newDeltaCatalog(entries);
        }
        d = delta;
      }
    }
    return d;
  }
}
