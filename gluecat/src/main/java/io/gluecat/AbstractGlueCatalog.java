package io.gluecat;

import io.gluecat.compat.SparkCompat;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.GlueEntry;
import io.gluecat.glue.GlueGateway;
import io.gluecat.partitions.PartitionSync;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableWritePrivilege;
import org.apache.spark.sql.connector.catalog.V1Table;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import software.amazon.awssdk.services.glue.model.Database;
import software.amazon.awssdk.services.glue.model.DatabaseInput;

/**
 * The catalog logic, shared by every Spark line. Spark loads {@code io.gluecat.GlueCatalog}, which each
 * compat module defines as this class plus the methods only its Spark line has.
 *
 * <p>It routes: Delta entries are served by a DeltaCatalog whose delegate is the {@link EntryCatalog};
 * other entries load as V1Tables; databases map to Glue databases one to one. Glue names are lower case,
 * so every identifier is lower-cased here.
 */
public abstract class AbstractGlueCatalog implements StagingTableCatalog, SupportsNamespaces {

  private String name;
  private CatalogOptions options;
  private GlueGateway glue;
  private EntryCatalog entries;
  private volatile TableCatalog delta;
  private DeltaTables deltaTables;
  private FileTables fileTables;
  private CatalogHadoopConf hadoop;
  private PartitionSync partitions;

  @Override
  public void initialize(String name, CaseInsensitiveStringMap sparkOptions) {
    this.name = name;
    this.options = CatalogOptions.parse(name, sparkOptions.asCaseSensitiveMap());
    this.glue = new GlueGateway(options);
    this.hadoop = new CatalogHadoopConf(options);
    this.entries = new EntryCatalog(this, glue, hadoop);
    this.deltaTables = new DeltaTables(name, options, glue, hadoop, this::deltaCatalog);
    this.partitions = new PartitionSync(name, glue, hadoop);
    this.fileTables = new FileTables(name, options, glue, hadoop, partitions);
    SessionChecks.requireUpdateCatalogHookOff(name);
  }

  @Override
  public String name() {
    return name;
  }

  /** This catalog's sync of Glue partition objects (see {@link PartitionSync#sync(String, String)}). */
  public PartitionSync partitionSync() {
    return partitions;
  }

  /** This catalog's parsed options. */
  public CatalogOptions options() {
    return options;
  }

  /** The catalog's Glue gateway, Hadoop settings and Delta reader, for gluecat's command-line tools. */
  public CatalogParts parts() {
    return new CatalogParts(options, glue, hadoop, deltaTables, partitionSync());
  }

  @Override
  public String[] defaultNamespace() {
    return new String[] {"default"};
  }

  // ---- tables ----

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    String database = existingDatabaseName(namespace);
    List<software.amazon.awssdk.services.glue.model.Table> entries = glue.listTables(database);
    if (entries.isEmpty()) {
      glue.getDatabase(database); // an empty listing must still report a missing database, as Glue does
    }
    List<Identifier> result = new ArrayList<>();
    for (software.amazon.awssdk.services.glue.model.Table t : entries) {
      if (!EntryReader.isView(t)) {
        result.add(Identifier.of(new String[] {database}, t.name().toLowerCase(Locale.ROOT)));
      }
    }
    return result.toArray(new Identifier[0]);
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    if (DeltaSupport.AVAILABLE) {
      // Delta's catalog loads through EntryCatalog: Delta entries come back as Delta tables, others as is.
      return checkedDelta(deltaCatalog().loadTable(ident));
    }
    Table table = entries.loadTable(ident);
    if (isDelta(table)) {
      throw new IllegalStateException(String.format("Table %s.%s is a Delta table, but Delta Lake (delta-spark) "
          + "is not on this session's classpath", name, tableName(ident)));
    }
    return table;
  }

  /**
   * A load for writing. DataFrameWriter's {@code saveAsTable} and {@code insertInto} get a file source table
   * as a {@link FileWriteTable}, which keeps their write in this catalog (see {@link WriterCall}); every other
   * caller, SQL INSERT included, gets the table {@link #loadTable(Identifier)} gives.
   */
  @Override
  public Table loadTable(Identifier ident, Set<TableWritePrivilege> writePrivileges) throws NoSuchTableException {
    Optional<WriterCall> call = WriterCall.current();
    TableName table = tableName(ident);
    if (call.isPresent() && table != null) {
      software.amazon.awssdk.services.glue.model.Table raw = glue.getTable(table);
      GlueEntry entry = entries.entry(table, raw);
      if (!entry.isDelta()) {
        return new FileWriteTable(name + "." + table, entry, call.get(), hadoop, () -> {
          forgetCachedRelation(table);
          if (options.syncPartitionsAfterWrite()) {
            partitions.afterWrite(table, raw, false);
          }
        });
      }
    }
    return loadTable(ident);
  }

  /** Time travel (VERSION AS OF), which only Delta tables have. */
  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    return DeltaSupport.AVAILABLE ? checkedDelta(deltaCatalog().loadTable(ident, version))
        : StagingTableCatalog.super.loadTable(ident, version);
  }

  /** Time travel (TIMESTAMP AS OF), which only Delta tables have. */
  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    return DeltaSupport.AVAILABLE ? checkedDelta(deltaCatalog().loadTable(ident, timestamp))
        : StagingTableCatalog.super.loadTable(ident, timestamp);
  }

  /** A table Delta serves by name may only be used while the session allows it (see SessionChecks). */
  private Table checkedDelta(Table table) {
    if (!(table instanceof V1Table)) {
      deltaTables.checkSession();
    }
    return table;
  }

  private static boolean isDelta(Table table) {
    return table instanceof V1Table && EntryFormat.isDelta(((V1Table) table).v1Table().provider().getOrElse(() -> ""));
  }

  @Override
  public boolean tableExists(Identifier ident) {
    TableName table = tableName(ident);
    return table != null && glue.findTable(table).filter(t -> !EntryReader.isView(t)).isPresent();
  }

  /**
   * SQL REFRESH TABLE (Spark also calls this after RENAME and some writes): later statements read the entry
   * from Glue again, whatever the cache across statements held, and a Delta table's Glue columns are re-synced
   * from its log here, which is how they catch up with schema changes made by writes.
   */
  @Override
  public void invalidateTable(Identifier ident) {
    TableName table = tableName(ident);
    if (table == null) {
      return;
    }
    forgetCachedRelation(table);
    glue.refreshed(table);
    glue.findTable(table)
        .filter(t -> !EntryReader.isView(t) && t.hasParameters() && EntryFormat.isDelta(t.parameters().get(EntryFormat.PROVIDER)))
        .ifPresent(entry -> deltaTables.refresh(table, entry));
  }

  /**
   * Spark caches the relation (and file listing) of file source tables by catalog, database and table;
   * after gluecat changed or removed an entry, that cache must not serve the old location or schema.
   */
  private void forgetCachedRelation(TableName table) {
    SparkCompat.invalidateCachedRelation(new org.apache.spark.sql.catalyst.TableIdentifier(table.table(),
        scala.Option.apply(table.database()), scala.Option.apply(name)));
  }

  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    TableName table = newTableName(ident);
    CreateChecks.check(name, table, partitions, properties);
    if (isDeltaProvider(properties)) {
      return deltaTables.create(ident, table, schema, partitions, properties);
    }
    fileTables.create(table, schema, partitions, properties);
    try {
      return loadTable(ident);
    } catch (NoSuchTableException e) {
      throw new IllegalStateException("table " + table + " vanished right after it was created", e);
    } catch (RuntimeException e) { // the create succeeded; only reading it back failed (Glue refused or throttled)
      return new CreatedTable(name + "." + table, schema, partitions, properties);
    }
  }

  @Override
  public StagedTable stageCreate(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    try {
      return stage(DeltaTables.Mode.CREATE, ident, schema, partitions, properties);
    } catch (NoSuchTableException e) {
      throw new IllegalStateException(e); // a create never reports a missing table
    }
  }

  @Override
  public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException, NoSuchTableException {
    try {
      return stage(DeltaTables.Mode.REPLACE, ident, schema, partitions, properties);
    } catch (TableAlreadyExistsException e) {
      throw new IllegalStateException(e); // a replace never reports an existing table
    }
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException {
    try {
      return stage(DeltaTables.Mode.CREATE_OR_REPLACE, ident, schema, partitions, properties);
    } catch (TableAlreadyExistsException | NoSuchTableException e) {
      throw new IllegalStateException(e); // create-or-replace reports neither
    }
  }

  private StagedTable stage(DeltaTables.Mode mode, Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException,
      NoSuchTableException {
    TableName table = newTableName(ident);
    CreateChecks.check(name, table, partitions, properties);
    if (isDeltaProvider(properties)) {
      return deltaTables.stage(mode, table, schema, partitions, properties);
    }
    if (mode == DeltaTables.Mode.CREATE) {
      return fileTables.stageCreate(table, schema, partitions, properties);
    }
    return fileTables.stageReplace(table, schema, partitions, properties, mode == DeltaTables.Mode.CREATE_OR_REPLACE,
        () -> forgetCachedRelation(table));
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    TableName table = tableName(ident);
    if (table == null) {
      throw new NoSuchTableException(ident);
    }
    software.amazon.awssdk.services.glue.model.Table entry = glue.getTable(table);
    if (EntryReader.isView(entry)) {
      throw new NoSuchTableException(Scala.list(name, table.database(), table.table()));
    }
    if (EntryReader.read(name, table.database(), entry).isDelta()) {
      return deltaTables.alter(ident, table, entry, changes);
    }
    fileTables.alter(table, entry, changes);
    forgetCachedRelation(table);
    try {
      return loadTable(ident);
    } catch (RuntimeException e) { // the change landed; only reading the table back failed
      return new CreatedTable(name + "." + table, new StructType(), new Transform[0], Map.of());
    }
  }

  /**
   * Glue has no rename: the entry is created under the new name, then the old one is deleted. The data
   * does not move. If the delete fails, both entries point at the same location and dropping the old name
   * (which never deletes data) finishes the rename.
   */
  @Override
  public void renameTable(Identifier from, Identifier to) throws NoSuchTableException, TableAlreadyExistsException {
    TableName source = tableName(from);
    if (source == null) {
      throw new NoSuchTableException(from);
    }
    TableName target = newTableName(withoutCatalogName(to));
    software.amazon.awssdk.services.glue.model.Table entry = glue.getTable(source);
    if (EntryReader.isView(entry)) {
      throw new NoSuchTableException(Scala.list(name, source.database(), source.table()));
    }
    try {
      glue.createTable(target.database(), EntryWriter.renamedEntry(entry, target.table()));
    } catch (NoSuchNamespaceException e) {
      throw new IllegalArgumentException(String.format("Cannot rename %s.%s to %s.%s: database %s does not exist",
          name, source, name, target, target.database()), e);
    }
    forgetCachedRelation(source);
    if (PartitionSync.notApplicable(entry) == null) {
      try {
        partitions.copy(source, entry, target); // Glue has no rename: the partition objects are copied too
      } catch (NoSuchTableException | RuntimeException e) {
        throw new GlueCatalogException(String.format("Created %s.%s as the new name of %s.%s, but copying its Glue "
            + "partition objects failed: %s. Both entries point at the same location and nothing was deleted; "
            + "run DROP TABLE %s.%s (which never deletes data) and then sync the partitions of %s.%s with "
            + "io.gluecat.partitions.PartitionSync.sync(\"%s\", \"%s\").", name, target, name, source,
            e.getMessage(), name, source, name, target, name, target), e);
      }
    }
    try {
      glue.deleteTable(source); // false: already gone, e.g. a retried delete whose first answer was lost
    } catch (RuntimeException e) {
      throw new GlueCatalogException(String.format("Renamed %s.%s to %s.%s, but the old entry could not be "
          + "deleted: %s. Both entries now point at the same location; run DROP TABLE %s.%s (which never deletes "
          + "data) to finish the rename.", name, source, name, target, e.getMessage(), name, source), e);
    }
  }

  /** Removes the Glue entry only: gluecat never deletes a table's data. Views are not dropped. */
  @Override
  public boolean dropTable(Identifier ident) {
    TableName table = tableName(ident);
    if (table == null) {
      return false;
    }
    Optional<software.amazon.awssdk.services.glue.model.Table> entry = glue.findTable(table);
    if (entry.isEmpty() || EntryReader.isView(entry.get())) {
      return false;
    }
    forgetCachedRelation(table);
    return glue.deleteTable(table);
  }

  @Override
  public boolean purgeTable(Identifier ident) {
    throw new UnsupportedOperationException(String.format("DROP TABLE ... PURGE is not supported by gluecat "
        + "(table %s.%s): gluecat never deletes data. Drop the table without PURGE to remove its Glue entry, "
        + "then delete the files yourself if you mean to.", name, describe(ident)));
  }

  // ---- namespaces ----

  @Override
  public String[][] listNamespaces() {
    return glue.listDatabases().stream()
        .map(d -> new String[] {d.name().toLowerCase(Locale.ROOT)})
        .toArray(String[][]::new);
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length == 0) {
      return listNamespaces();
    }
    existingDatabaseName(namespace);
    return new String[0][]; // Glue databases have no children
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    return namespace.length == 1 && glue.databaseExists(databaseName(namespace[0]));
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    Database db = glue.getDatabase(existingDatabaseName(namespace));
    Map<String, String> metadata = new LinkedHashMap<>();
    if (db.hasParameters()) {
      metadata.putAll(db.parameters());
    }
    if (db.description() != null) {
      metadata.put(SupportsNamespaces.PROP_COMMENT, db.description());
    }
    if (db.locationUri() != null) {
      metadata.put(SupportsNamespaces.PROP_LOCATION, db.locationUri());
    }
    return metadata;
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    String database = newDatabaseName(namespace);
    Map<String, String> parameters = new LinkedHashMap<>(metadata);
    String comment = parameters.remove(SupportsNamespaces.PROP_COMMENT);
    String location = parameters.remove(SupportsNamespaces.PROP_LOCATION);
    if (location == null) {
      // The legacy Hive path needs a database location to place tables; without a warehouse, none.
      location = options.warehouse().map(w -> w + "/" + database + ".db").orElse(null);
    }
    DatabaseInput.Builder input = DatabaseInput.builder().name(database).parameters(parameters);
    if (comment != null) {
      input.description(comment);
    }
    if (location != null) {
      input.locationUri(SparkEnvironment.qualify(location, "database " + name + "." + database));
    }
    glue.createDatabase(input.build());
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) throws NoSuchNamespaceException {
    String database = existingDatabaseName(namespace);
    Database current = glue.getDatabase(database);
    Map<String, String> parameters = new LinkedHashMap<>(current.hasParameters() ? current.parameters() : Map.of());
    String description = current.description();
    String location = current.locationUri();
    for (NamespaceChange change : changes) {
      if (change instanceof NamespaceChange.SetProperty) {
        NamespaceChange.SetProperty set = (NamespaceChange.SetProperty) change;
        if (SupportsNamespaces.PROP_LOCATION.equals(set.property())) {
          location = SparkEnvironment.qualify(set.value(), "database " + name + "." + database);
        } else if (SupportsNamespaces.PROP_COMMENT.equals(set.property())) {
          description = set.value();
        } else {
          parameters.put(set.property(), set.value());
        }
      } else if (change instanceof NamespaceChange.RemoveProperty) {
        String property = ((NamespaceChange.RemoveProperty) change).property();
        if (SupportsNamespaces.PROP_LOCATION.equals(property)) {
          location = null;
        } else if (SupportsNamespaces.PROP_COMMENT.equals(property)) {
          description = null;
        } else {
          parameters.remove(property);
        }
      } else {
        throw new UnsupportedOperationException(String.format("gluecat catalog '%s': namespace change %s on "
            + "database %s is not supported", name, change.getClass().getSimpleName(), database));
      }
    }
    // UpdateDatabase replaces the definition: carry over what this change does not touch.
    glue.updateDatabase(database, DatabaseInput.builder()
        .name(database)
        .description(description)
        .locationUri(location)
        .parameters(parameters)
        .createTableDefaultPermissions(current.createTableDefaultPermissions())
        .targetDatabase(current.targetDatabase())
        .federatedDatabase(current.federatedDatabase())
        .build());
  }

  /**
   * Drops the Glue database. A database with entries is refused unless {@code cascade}; with cascade,
   * Glue removes the entries of its tables. Data is never deleted.
   */
  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade) throws NonEmptyNamespaceException {
    if (namespace.length != 1) {
      return false;
    }
    String database = databaseName(namespace[0]);
    try {
      if (!cascade && glue.hasTables(database)) {
        throw new NonEmptyNamespaceException(new String[] {name, database});
      }
      glue.deleteDatabase(database);
      return true;
    } catch (NoSuchNamespaceException e) {
      return false;
    }
  }

  // ---- names ----

  /** The Glue table an identifier names, or null for a path identifier such as delta.`/data/t`. */
  TableName tableName(Identifier ident) {
    if (ident.namespace().length != 1 || isPathIdentifier(ident)) {
      return null;
    }
    return new TableName(databaseName(ident.namespace()[0]), ident.name());
  }

  private static boolean isPathIdentifier(Identifier ident) {
    // Spark and Delta address files as <format>.`<absolute path>`; such names never exist in Glue.
    String n = ident.name();
    return n.startsWith("/") || n.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");
  }

  private static String databaseName(String part) {
    return part.toLowerCase(Locale.ROOT);
  }

  private String existingDatabaseName(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length != 1) {
      String[] qualified = new String[namespace.length + 1];
      qualified[0] = name;
      System.arraycopy(namespace, 0, qualified, 1, namespace.length);
      throw new NoSuchNamespaceException(qualified);
    }
    return databaseName(namespace[0]);
  }

  private String newDatabaseName(String[] namespace) {
    if (namespace.length != 1 || namespace[0].isEmpty()) {
      throw new IllegalArgumentException(String.format("gluecat catalog '%s': Glue databases have exactly one "
          + "name part, but namespace '%s' has %d", name, String.join(".", namespace), namespace.length));
    }
    return CreateChecks.validName(name, "database", databaseName(namespace[0]), databaseName(namespace[0]));
  }

  private String describe(Identifier ident) {
    TableName t = tableName(ident);
    return t == null ? ident.toString() : t.toString();
  }

  private static boolean isDeltaProvider(Map<String, String> properties) {
    return EntryFormat.isDelta(new CreateArguments(properties).provider());
  }

  /** RENAME's target may arrive qualified with this catalog's name: [catalog, db]. */
  private Identifier withoutCatalogName(Identifier ident) {
    String[] ns = ident.namespace();
    if (ns.length == 2 && ns[0].equalsIgnoreCase(name)) {
      return Identifier.of(new String[] {ns[1]}, ident.name());
    }
    return ident;
  }

  /** The Glue table a create or rename targets; a path identifier or a nested namespace is refused. */
  private TableName newTableName(Identifier ident) {
    TableName table = tableName(ident);
    if (table == null) {
      throw new IllegalArgumentException(String.format("gluecat catalog '%s' cannot create table %s: tables are "
          + "named <database>.<table> (Glue has one level of databases)", name, ident));
    }
    CreateChecks.validName(name, "table", table.table(), table.toString());
    return table;
  }

  /** Delta's catalog over this catalog's entries, built on first use (it needs an active SparkSession). */
  TableCatalog deltaCatalog() {
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
