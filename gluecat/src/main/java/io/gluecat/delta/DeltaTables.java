package io.gluecat.delta;

import io.gluecat.entry.EntryWriter;
import io.gluecat.DeltaCommittedButGlueFailedException;
import io.gluecat.GlueCatalogException;
import io.gluecat.compat.Scala;
import io.gluecat.config.CatalogOptions;
import io.gluecat.config.SparkEnvironment;
import io.gluecat.create.CreateArguments;
import io.gluecat.create.CreatedTable;
import io.gluecat.create.StagedGlueTable;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueGateway;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import software.amazon.awssdk.services.glue.model.Database;

/**
 * Delta creates, replaces, alters and refreshes by name. Delta only registers tables through a catalog
 * whose class is Unity Catalog's, so every create and replace runs on the path identifier
 * delta.`<location>`, which Delta handles without any catalog, and gluecat writes the Glue entry itself,
 * after Delta committed. Rewriting an entry from its log is {@link DeltaEntrySync}'s. See docs/how-it-works.md.
 */
public final class DeltaTables {
  public enum Mode { CREATE, REPLACE, CREATE_OR_REPLACE }

  private final String catalog;
  private final CatalogOptions options;
  private final GlueGateway glue;
  private final CatalogHadoopConf hadoop;
  private final Supplier<TableCatalog> deltaCatalog;
  private final DeltaEntrySync sync;
  private final SchemaFollower follower;

  public DeltaTables(String catalog, CatalogOptions options, GlueGateway glue, CatalogHadoopConf hadoop,
      Supplier<TableCatalog> deltaCatalog) {
    this.catalog = catalog;
    this.options = options;
    this.glue = glue;
    this.hadoop = hadoop;
    this.deltaCatalog = deltaCatalog;
    this.sync = new DeltaEntrySync(catalog, glue, hadoop);
    this.follower = sync.follower();
  }

  /** The checks every Delta operation by name runs before it touches anything. */
  public void checkSession() {
    SessionChecks.requireUpdateCatalogHookOff(catalog);
    SessionChecks.requireDeltaSessionConfig(catalog);
  }

  // ---- create and replace ----

  /**
   * CREATE TABLE without a query (and writeStream.toTable on a missing table): Delta creates the table at
   * its location by path, then the Glue entry is created. If a Delta table is already there, Delta's own
   * rules apply: no columns registers it as it is, given columns must match.
   */
  public Table create(Identifier ident, TableName name, DeltaColumns columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    checkSession();
    SessionChecks.requireSqlOnFiles(catalog, name);
    Database database = glue.getDatabase(name.database());
    if (glue.findTable(name).isPresent()) {
      throw new TableAlreadyExistsException(Scala.list(catalog, name.database(), name.table()));
    }
    String location = new CreateArguments(properties).location(catalog, options, name, database);
    // Delta's staged create, committed at once: unlike createTable, it opens the log with the catalog's settings
    // given as options, which is what lets executors rebuild the new table's snapshot (see withDeltaCreateOptions).
    columns.stageCreate((StagingTableCatalog) deltaCatalog.get(), openedPathIdentifier(location), partitions,
        hadoop.withDeltaCreateOptions(deltaProperties(properties))).commitStagedChanges();
    register(name, location, properties, database, false, Optional.empty());
    try {
      return loadDelta(ident);
    } catch (RuntimeException e) { // the create succeeded; only reading it back failed (Glue refused or throttled)
      return new CreatedTable(catalog + "." + name, columns.schema(), partitions, properties);
    }
  }

  /**
   * CTAS, RTAS, CREATE OR REPLACE ... AS SELECT, saveAsTable and writeTo: Delta's staged table for the
   * path identifier, wrapped so that Glue is written once Delta has committed.
   */
  public StagedTable stage(Mode mode, TableName name, DeltaColumns columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException,
      NoSuchTableException {
    checkSession();
    SessionChecks.requireSqlOnFiles(catalog, name);
    follower.changing(name);
    Database database = glue.getDatabase(name.database());
    Optional<software.amazon.awssdk.services.glue.model.Table> existing = glue.findTable(name);
    String location = targetLocation(mode, name, properties, database, existing);
    // The write options carry the catalog's settings too, but Delta 3.3's CTAS opens the log without them.
    Identifier path = openedPathIdentifier(location);
    StagingTableCatalog delta = (StagingTableCatalog) deltaCatalog.get();
    Map<String, String> deltaProperties = deltaProperties(properties);
    // With no entry, CREATE OR REPLACE still lets Delta decide whether a table is already at the location. With
    // one, it is a replace: Delta's CREATE OR REPLACE by path, which cannot see a catalog entry, would check a
    // query-less statement's columns against the existing table's instead of replacing them.
    StagedTable staged = mode == Mode.CREATE ? columns.stageCreate(delta, path, partitions, deltaProperties)
        : mode == Mode.REPLACE || existing.isPresent() ? columns.stageReplace(delta, path, partitions, deltaProperties)
        : columns.stageCreateOrReplace(delta, path, partitions, deltaProperties);
    Optional<software.amazon.awssdk.services.glue.model.Table> before = existing;
    return new StagedGlueTable(catalog + "." + name, staged, hadoop,
        () -> register(name, location, properties, database, before.isPresent(), before));
  }

  /**
   * Where a create or replace of {@code name} writes, after the checks of its mode: a replace stays at the
   * existing Delta table's location unless LOCATION moves it; a create goes where CreateArguments says.
   */
  String targetLocation(Mode mode, TableName name, Map<String, String> properties, Database database,
      Optional<software.amazon.awssdk.services.glue.model.Table> existing)
      throws TableAlreadyExistsException, NoSuchTableException {
    if (mode == Mode.CREATE && existing.isPresent()) {
      throw new TableAlreadyExistsException(Scala.list(catalog, name.database(), name.table()));
    }
    if (mode == Mode.REPLACE && existing.isEmpty()) {
      throw new NoSuchTableException(Scala.list(catalog, name.database(), name.table()));
    }
    if (existing.isPresent()) {
      String current = EntryReader.read(catalog, name.database(), existing.get()).location();
      if (!EntryFormat.isDelta(existing.get().parameters().get(EntryFormat.PROVIDER))) {
        throw new IllegalArgumentException(String.format("Table %s.%s is not a Delta table (provider %s); gluecat "
            + "does not replace it with a Delta table. Drop it first.", catalog, name,
            existing.get().parameters().get(EntryFormat.PROVIDER)));
      }
      return new CreateArguments(properties).explicitLocation().orElse(current);
    }
    return new CreateArguments(properties).location(catalog, options, name, database);
  }

  /** A statement of this catalog is about to change {@code name}'s Delta table and write Glue itself. */
  void changing(TableName name) {
    follower.changing(name);
  }

  /**
   * Writes the entry for the Delta table now committed at {@code location}: a new entry, or (for a
   * replace) an update of {@code existing} at the VersionId it was read with. Any failure here comes
   * after Delta's commit and says so.
   */
  void register(TableName name, String location, Map<String, String> properties, Database database,
      boolean replaced, Optional<software.amazon.awssdk.services.glue.model.Table> existing) {
    try {
      CreateArguments arguments = new CreateArguments(properties);
      LogSchema log = sync.logSchema(location);
      TableDefinition definition = DeltaEntrySync.definition(name, location, log, arguments.userProperties());
      Optional<String> owner = arguments.owner();
      if (existing.isPresent()) {
        glue.updateTable(name.database(), EntryWriter.forRunningSpark().updatedEntry(existing.get(), definition, Set.of(),
            Optional.ofNullable(database.locationUri())), existing.get().versionId());
      } else {
        glue.createTable(name.database(),
            EntryWriter.forRunningSpark().newEntry(definition, owner, Optional.ofNullable(database.locationUri())));
      }
      follower.synced(name, log);
    } catch (Exception e) { // Glue's checked and unchecked failures alike: Delta has committed either way
      throw new DeltaCommittedButGlueFailedException(catalog + "." + name, location, replaced, e);
    }
  }

  // ---- alter and refresh ----

  /**
   * ALTER TABLE on a Delta table. SET LOCATION moves the Glue entry to another Delta table; everything
   * else is Delta's, applied to its log, after which column changes re-sync the Glue columns.
   */
  public Table alter(Identifier ident, TableName name, software.amazon.awssdk.services.glue.model.Table entry,
      TableChange... changes) throws NoSuchTableException {
    checkSession();
    follower.changing(name);
    Optional<String> newLocation = setLocation(changes);
    if (newLocation.isPresent()) {
      if (changes.length != 1) {
        throw new IllegalArgumentException(String.format("Table %s.%s: SET LOCATION cannot be combined with other "
            + "changes in one statement", catalog, name));
      }
      String location = SparkEnvironment.qualify(newLocation.get(), "table " + catalog + "." + name);
      if (!io.delta.tables.DeltaTable.isDeltaTable(SparkSession.active(), location)) {
        throw new IllegalArgumentException(String.format("Table %s.%s cannot be moved to %s: there is no Delta "
            + "table there", catalog, name, location));
      }
      sync.resync(name, entry, location);
      try {
        return loadDelta(ident);
      } catch (RuntimeException e) { // the move landed; only reading the table back failed
        return new CreatedTable(catalog + "." + name, new StructType(), new Transform[0], Map.of());
      }
    }
    String location = EntryReader.read(catalog, name.database(), entry).location();
    long versionBefore = logVersion(location);
    Table altered;
    try {
      altered = alterInDelta(ident, changes);
    } catch (RuntimeException e) {
      // Only a Glue failure can come after Delta's commit (Delta reads the table back through gluecat); any
      // other error, Delta's own conflicts among them, stands as it is
      if (!causedByGlue(e) || logVersion(location) == versionBefore) {
        throw e;
      }
      // Delta committed the change, then failed to read the table back (a Glue call failed): the change
      // stands, and Glue's columns follow below
      altered = new CreatedTable(catalog + "." + name, new StructType(), new Transform[0], Map.of());
    }
    if (changesColumnsOrComment(changes)) {
      try {
        sync.resyncLatest(name, entry, location);
      } catch (RuntimeException e) { // Delta has committed the change to its log; only Glue's copy is behind
        throw new DeltaCommittedButGlueFailedException(catalog + "." + name, location, true, e);
      }
    }
    return altered;
  }

  /** Delta's ALTER; a linkage error of a pair with a known break becomes the error that names it. */
  private Table alterInDelta(Identifier ident, TableChange[] changes) throws NoSuchTableException {
    try {
      return deltaCatalog.get().alterTable(ident, changes);
    } catch (LinkageError e) {
      Throwable explained = DeltaSupport.explain(catalog, e);
      if (explained instanceof RuntimeException) {
        throw (RuntimeException) explained;
      }
      throw e;
    }
  }

  private static boolean causedByGlue(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof GlueCatalogException) {
        return true;
      }
    }
    return false;
  }

  /** The latest commit in the table's Delta log, or -1 when it cannot be listed. */
  private long logVersion(String location) {
    try {
      org.apache.hadoop.fs.Path log = new org.apache.hadoop.fs.Path(location, "_delta_log");
      long latest = -1;
      for (org.apache.hadoop.fs.FileStatus f : hadoop.open(location).listStatus(log)) {
        String n = f.getPath().getName();
        if (n.endsWith(".json") && n.length() == 25 && n.substring(0, 20).chars().allMatch(Character::isDigit)) {
          latest = Math.max(latest, Long.parseLong(n.substring(0, 20)));
        }
      }
      return latest;
    } catch (java.io.IOException | RuntimeException e) {
      return -1;
    }
  }

  /** REFRESH TABLE: the Glue columns (and comment) follow the Delta log again. */
  public void refresh(TableName name, software.amazon.awssdk.services.glue.model.Table entry) {
    checkSession();
    sync.resync(name, entry, EntryReader.read(catalog, name.database(), entry).location());
  }

  /**
   * A Delta table loaded by name at its latest version (see {@link SchemaFollower}): an entry the log moved
   * away from is re-synced, and the table is watched for this session's schema changes.
   */
  public void loaded(TableName name, Table table,
      Supplier<Optional<software.amazon.awssdk.services.glue.model.Table>> entry) {
    follower.loaded(name, table, entry);
  }

  private static boolean changesColumnsOrComment(TableChange[] changes) {
    for (TableChange change : changes) {
      if (change instanceof TableChange.ColumnChange) {
        return true;
      }
      if (change instanceof TableChange.SetProperty
          && TableCatalog.PROP_COMMENT.equals(((TableChange.SetProperty) change).property())) {
        return true;
      }
    }
    return false;
  }

  private static Optional<String> setLocation(TableChange[] changes) {
    for (TableChange change : changes) {
      if (change instanceof TableChange.SetProperty
          && TableCatalog.PROP_LOCATION.equals(((TableChange.SetProperty) change).property())) {
        return Optional.of(((TableChange.SetProperty) change).value());
      }
    }
    return Optional.empty();
  }

  // ---- helpers ----

  /** The table as Delta's log describes it now: columns, partition columns, comment. */
  public TableDefinition definitionFromDelta(TableName name, String location, Map<String, String> properties) {
    return DeltaEntrySync.definition(name, location, sync.logSchema(location), properties);
  }

  /**
   * What CREATE TABLE LIKE copies from a Delta source, as Delta's own catalog does: its table properties (the log's
   * configuration and protocol, which a Delta table lists among its properties) and its comment, less what
   * belongs to the source alone (its column-mapping counter, materialized row-tracking columns, commit
   * coordination) and less Spark's reserved keys and OPTIONS (a loaded table's options are the catalog's settings).
   */
  public static Map<String, String> likeProperties(Map<String, String> sourceProperties) {
    Map<String, String> copied = new LinkedHashMap<>();
    new CreateArguments(sourceProperties).userProperties().forEach((k, v) -> {
      if (!EntryFormat.isOwnedParameter(k) && !k.equals("delta.columnMapping.maxColumnId")
          && !k.startsWith("delta.rowTracking.materialized") && !k.startsWith("delta.coordinatedCommits.")
          && !k.startsWith("delta.feature.catalogOwned") && !k.startsWith("delta.feature.catalogManaged")) {
        copied.put(k, v);
      }
    });
    if (sourceProperties.containsKey(TableCatalog.PROP_COMMENT)) {
      copied.put(TableCatalog.PROP_COMMENT, sourceProperties.get(TableCatalog.PROP_COMMENT));
    }
    return copied;
  }

  /** What Delta gets: everything but the location, which travels in the path identifier. */
  private static Map<String, String> deltaProperties(Map<String, String> properties) {
    Map<String, String> delta = new LinkedHashMap<>(properties);
    delta.remove(TableCatalog.PROP_LOCATION);
    delta.remove("is_managed_location");
    return delta;
  }

  /** A table Delta serves; by name it was just written or checked, by path Delta never reports a miss. */
  private Table loadDelta(Identifier ident) {
    try {
      return deltaCatalog.get().loadTable(ident);
    } catch (NoSuchTableException e) {
      throw new IllegalStateException(String.format("gluecat catalog '%s': table %s vanished while it was being "
          + "written", catalog, ident), e);
    }
  }

  /**
   * Delta's name for the table at a location. Delta opens it by path with the session's configuration, so
   * the location's FileSystem is opened with this catalog's settings first (see CatalogHadoopConf).
   */
  private Identifier openedPathIdentifier(String location) {
    hadoop.open(location);
    return Identifier.of(new String[] {EntryFormat.DELTA}, location);
  }
}
