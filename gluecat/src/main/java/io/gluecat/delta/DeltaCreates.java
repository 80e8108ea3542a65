package io.gluecat.delta;

import io.gluecat.DeltaCommittedButGlueFailedException;
import io.gluecat.compat.Scala;
import io.gluecat.config.CatalogOptions;
import io.gluecat.create.CreateArguments;
import io.gluecat.create.CreatedTable;
import io.gluecat.create.StagedGlueTable;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.EntryUpdate;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueEntries;
import io.gluecat.glue.GlueGateway;
import io.gluecat.hive.HiveTables;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;

/**
 * Delta's creates and replaces by name, each one sequence in one method: CREATE TABLE ({@link #create}); CTAS,
 * RTAS, REPLACE TABLE, CREATE OR REPLACE, saveAsTable and writeTo ({@link #stage}); and a statement Delta runs by
 * path only, session mode's CLONE ({@link #byPath}). Delta registers tables only through a catalog whose class is
 * Unity Catalog's, so Delta writes by path ({@code delta.`<location>`}) and gluecat writes the entry itself
 * (docs/how-it-works.md, "Delta tables"). Each sequence has the same three steps, with what a failure at each
 * leaves:
 *
 * <ol>
 *   <li>before anything is written: the session's settings, the database (for a managed location), the existing
 *       entry, read once (a replace updates it at the VersionId read here), the location. A refusal or a Glue
 *       failure here leaves Glue and storage as they were;
 *   <li>Delta by path: Delta creates or replaces the table at the location, data and log in one atomic commit. A
 *       failure here is Delta's own error, and Glue is never touched;
 *   <li>the Glue write ({@link #writeEntry}), from the log Delta just committed: the entry created, or updated at
 *       the VersionId of step 1. Delta has committed, so a failure here undoes nothing (the Delta table is valid;
 *       a new table gets no entry, a replaced one keeps its old entry) and is a
 *       {@link DeltaCommittedButGlueFailedException} that names the statement that recovers.
 * </ol>
 *
 * A CREATE TABLE then reads the new table back, and only that failing leaves the create standing.
 */
public final class DeltaCreates {
  /** What the statement does with an existing table: refuse it, replace it (and need it), or either. */
  public enum Mode { CREATE, REPLACE, CREATE_OR_REPLACE }

  private final String catalog;
  private final CatalogOptions options;
  private final GlueGateway glue;
  private final GlueEntries entries;
  private final CatalogHadoopConf hadoop;
  private final Supplier<TableCatalog> deltaCatalog;
  private final DeltaEntrySync sync;
  private final SchemaFollower follower;

  DeltaCreates(String catalog, CatalogOptions options, GlueGateway glue, CatalogHadoopConf hadoop,
      Supplier<TableCatalog> deltaCatalog, DeltaEntrySync sync) {
    this.catalog = catalog;
    this.options = options;
    this.glue = glue;
    this.entries = new GlueEntries(glue);
    this.hadoop = hadoop;
    this.deltaCatalog = deltaCatalog;
    this.sync = sync;
    this.follower = sync.follower();
  }

  /**
   * CREATE TABLE without a query (and writeStream.toTable on a missing table). If a Delta table is already at the
   * location, Delta's own rules apply: no columns registers it as it is, given columns must match.
   */
  public org.apache.spark.sql.connector.catalog.Table create(Identifier ident, TableName name,
      CreateArguments arguments, DeltaColumns columns, Transform[] partitions)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    // 1. Before anything is written: the session, the database, the name free, the location
    checkSession(name);
    Optional<String> databaseLocation = glue.existingDatabaseLocation(name.database());
    if (entries.find(name).isPresent()) {
      throw new TableAlreadyExistsException(Scala.list(catalog, name.database(), name.table()));
    }
    String location = arguments.location(catalog, options, name, databaseLocation);
    // 2. Delta by path: its staged create, committed at once. Unlike createTable, it opens the log with the
    // catalog's settings given as options, which lets executors rebuild the new table's snapshot (see
    // withDeltaCreateOptions).
    columns.stageCreate(delta(), pathIdentifier(location), partitions,
        hadoop.withDeltaCreateOptions(deltaProperties(arguments))).commitStagedChanges();
    // 3. Glue: the new entry (DeltaCommittedButGlueFailedException if that fails)
    writeEntry(name, location, arguments, databaseLocation, Optional.empty());
    // 4. The new table, read back
    try {
      return loadDelta(ident);
    } catch (RuntimeException e) { // the create succeeded; only reading it back failed (Glue refused or throttled)
      return new CreatedTable(catalog + "." + name, columns.schema(), partitions, arguments.properties());
    }
  }

  /**
   * CTAS, RTAS, REPLACE TABLE, CREATE OR REPLACE [AS SELECT], saveAsTable and writeTo: Delta's staged table for the
   * path, wrapped so that Glue is written once Delta has committed. Spark writes the query into it, then commits
   * it; if the query fails, Spark aborts the stage, and neither Delta nor Glue has changed.
   */
  public StagedTable stage(Mode mode, TableName name, CreateArguments arguments, DeltaColumns columns,
      Transform[] partitions) throws TableAlreadyExistsException, NoSuchNamespaceException, NoSuchTableException {
    String qualified = catalog + "." + name;
    // 1. Before anything is written: the session, the database, the entry, the location. A Hive-format entry is
    // never replaced (HiveTables.refuseReplacing), another kind of entry by a Delta table neither (targetLocation).
    checkSession(name);
    follower.changing(name);
    Optional<String> databaseLocation = glue.existingDatabaseLocation(name.database());
    Optional<StoredTable> existing = entries.find(name);
    if (mode != Mode.CREATE) {
      existing.ifPresent(entry -> HiveTables.refuseReplacing(qualified, entry));
    }
    String location = targetLocation(mode, name, arguments, databaseLocation, existing);
    // 2. Delta by path, staged: Spark writes the query and commits. With no entry, CREATE OR REPLACE still lets
    // Delta decide whether a table is already at the location. With one, it is a replace: Delta's CREATE OR
    // REPLACE by path, which cannot see a catalog entry, would check a query-less statement's columns against the
    // existing table's instead of replacing them. (The write options carry the catalog's settings too, but Delta
    // 3.3's CTAS opens the log without them: hence the opened path.)
    Identifier path = pathIdentifier(location);
    StagingTableCatalog delta = delta();
    Map<String, String> deltaProperties = deltaProperties(arguments);
    StagedTable staged = mode == Mode.CREATE ? columns.stageCreate(delta, path, partitions, deltaProperties)
        : mode == Mode.REPLACE || existing.isPresent() ? columns.stageReplace(delta, path, partitions, deltaProperties)
        : columns.stageCreateOrReplace(delta, path, partitions, deltaProperties);
    // 3. Glue, once Delta has committed: the entry created, or updated at the VersionId read in step 1
    return new StagedGlueTable(qualified, staged, hadoop,
        () -> writeEntry(name, location, arguments, databaseLocation, existing));
  }

  /**
   * A Delta statement that writes the table of {@code name} by path (session mode's CLONE): {@code write} runs it
   * at the location a create or replace in {@code mode} writes, between the same steps 1 and 3 as a CTAS by name.
   */
  public <T> T byPath(Mode mode, TableName name, CreateArguments arguments, Function<String, T> write)
      throws TableAlreadyExistsException, NoSuchTableException, NoSuchNamespaceException {
    // 1. Before anything is written: the session, the database, the entry, the location
    checkSession(name);
    follower.changing(name);
    Optional<String> databaseLocation = glue.existingDatabaseLocation(name.database());
    Optional<StoredTable> existing = entries.find(name);
    String location = targetLocation(mode, name, arguments, databaseLocation, existing);
    // 2. Delta by path: the statement itself
    hadoop.open(location);
    T result = write.apply(location);
    // 3. Glue: the entry created, or updated at the VersionId read in step 1
    writeEntry(name, location, arguments, databaseLocation, existing);
    return result;
  }

  /**
   * Step 3: the entry of the Delta table now committed at {@code location}, from its log: a new entry, or an
   * update of {@code existing} at the VersionId it was read with. Any failure here (Glue's, or reading the log)
   * comes after Delta's commit, so nothing is undone: a new table gets no entry (none points at nothing), a
   * replaced one keeps its old entry, and the {@link DeltaCommittedButGlueFailedException} says how to recover
   * (CREATE TABLE .. LOCATION, or REFRESH TABLE).
   */
  void writeEntry(TableName name, String location, CreateArguments arguments, Optional<String> databaseLocation,
      Optional<StoredTable> existing) {
    try {
      LogSchema log = sync.logSchema(location);
      TableDefinition definition = DeltaEntrySync.definition(name, location, log, arguments.userProperties());
      if (existing.isPresent()) {
        entries.update(name.database(), EntryUpdate.rewritten(EntryWriter.forRunningSpark(), existing.get(),
            definition, Set.of(), databaseLocation), existing.get().versionId());
      } else {
        entries.create(name.database(), EntryWriter.forRunningSpark(), definition, arguments.owner(),
            databaseLocation);
      }
      follower.synced(name, log);
    } catch (Exception e) { // Glue's checked and unchecked failures alike: Delta has committed either way
      throw new DeltaCommittedButGlueFailedException(catalog + "." + name, location, existing.isPresent(), e);
    }
  }

  /**
   * Where a create or replace of {@code name} writes, after the checks of its mode: a replace stays at the
   * existing Delta table's location unless LOCATION moves it; a create goes where CreateArguments says.
   */
  private String targetLocation(Mode mode, TableName name, CreateArguments arguments, Optional<String> databaseLocation,
      Optional<StoredTable> existing) throws TableAlreadyExistsException, NoSuchTableException {
    if (mode == Mode.CREATE && existing.isPresent()) {
      throw new TableAlreadyExistsException(Scala.list(catalog, name.database(), name.table()));
    }
    if (mode == Mode.REPLACE && existing.isEmpty()) {
      throw new NoSuchTableException(Scala.list(catalog, name.database(), name.table()));
    }
    if (existing.isPresent()) {
      String current = EntryReader.read(catalog, name.database(), existing.get()).location();
      if (!existing.get().isDelta()) {
        throw new IllegalArgumentException(String.format("Table %s.%s is not a Delta table (provider %s); gluecat "
            + "does not replace it with a Delta table. Drop it first.", catalog, name,
            existing.get().provider().orElse(null)));
      }
      return arguments.explicitLocation().orElse(current);
    }
    return arguments.location(catalog, options, name, databaseLocation);
  }

  /** The checks every Delta create by name runs before it reads or writes anything. */
  private void checkSession(TableName name) {
    SessionChecks.requireUpdateCatalogHookOff(catalog);
    SessionChecks.requireDeltaSessionConfig(catalog);
    SessionChecks.requireSqlOnFiles(catalog, name);
  }

  private StagingTableCatalog delta() {
    return (StagingTableCatalog) deltaCatalog.get();
  }

  /** What Delta gets: everything but the location, which travels in the path identifier. */
  private static Map<String, String> deltaProperties(CreateArguments arguments) {
    Map<String, String> delta = new LinkedHashMap<>(arguments.properties());
    delta.remove(TableCatalog.PROP_LOCATION);
    delta.remove("is_managed_location");
    return delta;
  }

  /** A table Delta serves; by name it was just written or checked, by path Delta never reports a miss. */
  private org.apache.spark.sql.connector.catalog.Table loadDelta(Identifier ident) {
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
  private Identifier pathIdentifier(String location) {
    hadoop.open(location);
    return Identifier.of(new String[] {EntryFormat.DELTA}, location);
  }
}
