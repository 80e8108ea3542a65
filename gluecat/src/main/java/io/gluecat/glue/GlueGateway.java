package io.gluecat.glue;

import io.gluecat.cache.MetadataCache;
import io.gluecat.cache.StatementCalls;
import io.gluecat.config.CatalogOptions;
import io.gluecat.entry.EntryEdits;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueErrors.Call;
import io.gluecat.metrics.CatalogMetrics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.AlreadyExistsException;
import software.amazon.awssdk.services.glue.model.ConcurrentModificationException;
import software.amazon.awssdk.services.glue.model.Database;
import software.amazon.awssdk.services.glue.model.DatabaseInput;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.GetDatabasesResponse;
import software.amazon.awssdk.services.glue.model.GetTablesResponse;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * The only class that talks to Glue. One instance per catalog, with that catalog's own clients and
 * credentials (never shared between catalogs): it names the catalog's glue.id on every call, pages
 * every listing, and turns every AWS error into what Spark expects through {@link GlueErrors}. Its reads
 * go through the catalog's {@link MetadataCache}, and every call that changes an entry reports the change
 * to it (a new write operation must do the same).
 */
public final class GlueGateway implements AutoCloseable {

  private final CatalogOptions options;
  private final GlueErrors errors;
  private final GlueClient glue;
  /** Locations cross the Glue boundary here, so the rest of gluecat only sees ones Hadoop can open. */
  private final MappedLocations locations;
  private final List<AutoCloseable> resources = new ArrayList<>();
  private final MetadataCache cache;
  /** The catalog's metrics source (every Glue and STS call, the cache's hits and misses). */
  private final CatalogMetrics metrics;
  private final GluePartitions partitions = new GluePartitions(this);
  /** Reads the entries of a statement's tables at once (prefetchTables); made on first use. */
  private java.util.concurrent.ThreadPoolExecutor prefetchPool;

  public GlueGateway(CatalogOptions options) {
    this(options, null);
  }

  /**
   * Around {@code client}, closed with the gateway, instead of the catalog's own client built from the options
   * (null): the seam through which unit tests hand the catalog an in-memory Glue (issue #42).
   */
  public GlueGateway(CatalogOptions options, GlueClient client) {
    this.options = options;
    this.metrics = CatalogMetrics.forCatalog(options.catalogName());
    this.cache = new MetadataCache(options.cacheTtl(), options.cacheMaxEntries(), metrics);
    this.locations = new MappedLocations(options.locationMap());
    StatementCalls statements = options.logStatementCalls() ? StatementCalls.start(options.catalogName()) : null;
    if (statements != null) {
      resources.add(statements);
    }
    this.glue = client == null ? GlueClients.glue(options, resources, new GlueCallMetrics(metrics, statements))
        : GlueClients.given(client, resources);
    this.errors = new GlueErrors(options, glue.serviceClientConfiguration().region().id());
  }

  public GlueErrors errors() { return errors; }

  /** The catalog's metrics, as Spark's metrics system publishes them ({@code gluecat.<catalog>}). */
  public CatalogMetrics metrics() { return metrics; }

  GlueClient client() { return glue; }
  MappedLocations locations() { return locations; }
  MetadataCache cache() { return cache; }

  /** REFRESH TABLE: later statements read the entry from Glue again, whatever the cache across statements holds. */
  public void refreshed(TableName name) {
    cache.forgetAcrossStatements(MetadataCache.tableKey(name.database(), name.table()));
  }

  // ---- databases ----

  public Database getDatabase(String name) throws NoSuchNamespaceException {
    return cache.read(MetadataCache.databaseKey(name), NoSuchNamespaceException.class, () -> readDatabase(name));
  }

  private Database readDatabase(String name) throws NoSuchNamespaceException {
    try {
      return locations.read(glue.getDatabase(r -> r.catalogId(catalogId()).name(name)).database());
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.GET_DATABASE, name, null, e), NoSuchNamespaceException.class);
    }
  }

  public boolean databaseExists(String name) {
    try {
      getDatabase(name);
      return true;
    } catch (NoSuchNamespaceException e) {
      return false;
    }
  }

  /** The location of a database that must exist; empty when it has none. */
  public Optional<String> existingDatabaseLocation(String name) throws NoSuchNamespaceException {
    return Optional.ofNullable(getDatabase(name).locationUri());
  }

  /** The database's location, or empty when it has none or does not exist (anymore). */
  public Optional<String> databaseLocation(String name) {
    try {
      return existingDatabaseLocation(name);
    } catch (NoSuchNamespaceException e) {
      return Optional.empty();
    }
  }

  public List<Database> listDatabases() {
    List<Database> all = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      GetDatabasesResponse page = unchecked(Call.GET_DATABASES, "*", null,
          () -> glue.getDatabases(r -> r.catalogId(catalogId()).nextToken(next)));
      page.databaseList().forEach(d -> all.add(locations.read(d)));
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return all;
  }

  public void createDatabase(DatabaseInput input) throws NamespaceAlreadyExistsException {
    cache.forget(MetadataCache.databaseKey(input.name()));
    try {
      glue.createDatabase(r -> r.catalogId(catalogId()).databaseInput(locations.write(input)));
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.CREATE_DATABASE, input.name(), null, e),
          NamespaceAlreadyExistsException.class);
    }
  }

  /** Replaces the database definition (Glue's UpdateDatabase replaces, it does not merge). */
  public void updateDatabase(String name, DatabaseInput input) throws NoSuchNamespaceException {
    cache.forget(MetadataCache.databaseKey(name));
    try {
      glue.updateDatabase(r -> r.catalogId(catalogId()).name(name).databaseInput(locations.write(input)));
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.UPDATE_DATABASE, name, null, e), NoSuchNamespaceException.class);
    }
  }

  /** Deletes the database entry and, as Glue does, the entries of its tables; never any data. */
  public void deleteDatabase(String name) throws NoSuchNamespaceException {
    cache.forgetDatabase(name);
    try {
      glue.deleteDatabase(r -> r.catalogId(catalogId()).name(name));
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.DELETE_DATABASE, name, null, e), NoSuchNamespaceException.class);
    }
  }

  // ---- tables ----

  /** Every entry of a database, views included, over all of Glue's pages. */
  public List<Table> listTables(String database) throws NoSuchNamespaceException {
    List<Table> all = new ArrayList<>();
    Map<String, Object> listed = new HashMap<>();
    String token = null;
    do {
      String next = token;
      GetTablesResponse page;
      try {
        page = glue.getTables(r -> r.catalogId(catalogId()).databaseName(database).maxResults(PAGE_SIZE)
            .nextToken(next));
      } catch (SdkException e) {
        throw rethrow(errors.translate(Call.GET_TABLES, database, null, e), NoSuchNamespaceException.class);
      }
      for (Table t : page.tableList()) {
        Table read = locations.read(t);
        all.add(read);
        if (read.name() != null) {
          listed.put(MetadataCache.tableKey(database, read.name().toLowerCase(java.util.Locale.ROOT)), read);
        }
      }
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    cache.listed(listed);
    return all;
  }

  /** Whether the database holds any entry at all (tables or views), reading one page of one. */
  public boolean hasTables(String database) throws NoSuchNamespaceException {
    try {
      return !glue.getTables(r -> r.catalogId(catalogId()).databaseName(database).maxResults(1))
          .tableList().isEmpty();
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.GET_TABLES, database, null, e), NoSuchNamespaceException.class);
    }
  }

  public Table getTable(TableName name) throws NoSuchTableException {
    return cache.read(MetadataCache.tableKey(name.database(), name.table()), NoSuchTableException.class,
        () -> readTable(name));
  }

  private Table readTable(TableName name) throws NoSuchTableException {
    try {
      return locations.read(
          glue.getTable(r -> r.catalogId(catalogId()).databaseName(name.database()).name(name.table())).table());
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.GET_TABLE, name.database(), name.table(), e), NoSuchTableException.class);
    }
  }

  /**
   * Reads the entries of {@code tables} that the calling thread's statement has not read yet, up to the
   * catalog's {@code planning.prefetch-threads} at once, for its coming {@link #getTable} calls to find (see
   * {@link MetadataCache#prefetch}): the same GetTable calls, made together instead of one after another. A
   * failure is reported by that table's {@code getTable}, never here.
   */
  public void prefetchTables(java.util.Collection<TableName> tables) {
    if (options.prefetchThreads() < 2 || tables.size() < 2) {
      return;
    }
    Map<String, MetadataCache.Loader<Table, NoSuchTableException>> reads = new java.util.LinkedHashMap<>();
    for (TableName table : tables) {
      reads.put(MetadataCache.tableKey(table.database(), table.table()), () -> readTable(table));
    }
    cache.prefetch(reads, NoSuchTableException.class, prefetchPool());
  }

  private synchronized java.util.concurrent.Executor prefetchPool() {
    if (prefetchPool == null) {
      prefetchPool = PrefetchThreads.pool(options.catalogName(), options.prefetchThreads());
    }
    return prefetchPool;
  }

  /** The entry, kept whole for an update at its version, in gluecat's terms ({@link StoredTable}). */
  public StoredTable getStoredTable(TableName name) throws NoSuchTableException {
    return new StoredTable(getTable(name));
  }

  /** The entry read with its statistics replaced ({@link EntryEdits#withStatistics}), written at the version read. */
  public void updateStatistics(TableName name, StoredTable read, Map<String, String> statistics)
      throws NoSuchTableException {
    updateTable(name.database(), EntryEdits.withStatistics(read.sdkTable(), statistics), read.versionId());
  }

  /** The entry, or empty when the table or its database does not exist. */
  public Optional<Table> findTable(TableName name) {
    try {
      return Optional.of(getTable(name));
    } catch (NoSuchTableException e) {
      return Optional.empty();
    }
  }

  public void createTable(String database, TableInput input)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    TableInput sent = locations.write(input);
    String key = MetadataCache.tableKey(database, input.name());
    cache.forget(key);
    try {
      glue.createTable(r -> r.catalogId(catalogId()).databaseName(database).tableInput(sent));
      cache.written(key, WrittenEntries.asWritten(database, input, null));
    } catch (SdkException e) {
      if (e instanceof AlreadyExistsException && landed(database, sent)) {
        return; // an earlier attempt of this call was applied, but its answer was lost; the SDK retried
      }
      Exception mapped = errors.translate(Call.CREATE_TABLE, database, input.name(), e);
      if (mapped instanceof TableAlreadyExistsException) {
        throw (TableAlreadyExistsException) mapped;
      }
      throw rethrow(mapped, NoSuchNamespaceException.class);
    }
  }

  /**
   * Replaces the entry, but only if it is still at {@code versionId}: Glue refuses the update when
   * someone changed the entry since it was read, so a concurrent change is never overwritten.
   */
  public void updateTable(String database, TableInput input, String versionId) throws NoSuchTableException {
    TableInput sent = locations.write(input);
    String key = MetadataCache.tableKey(database, input.name());
    Object before = cache.peek(key);
    String version = versionId == null && cache.writtenInStatement(key) ? currentVersion(database, input.name())
        : versionId;
    cache.forget(key);
    try {
      glue.updateTable(r -> r.catalogId(catalogId()).databaseName(database).tableInput(sent)
          .versionId(version).skipArchive(options.skipArchive()));
      cache.written(key,
          WrittenEntries.asWritten(database, input, before instanceof Table ? (Table) before : null));
    } catch (SdkException e) {
      if (e instanceof ConcurrentModificationException && landed(database, sent)) {
        return; // an earlier attempt of this call was applied, but its answer was lost; the SDK retried
      }
      throw rethrow(errors.translate(Call.UPDATE_TABLE, database, input.name(), e), NoSuchTableException.class);
    }
  }

  /** Deletes the entry (never data); false when there was none. */
  public boolean deleteTable(TableName name) {
    cache.written(MetadataCache.tableKey(name.database(), name.table()), null);
    try {
      glue.deleteTable(r -> r.catalogId(catalogId()).databaseName(name.database()).name(name.table()));
      return true;
    } catch (EntityNotFoundException e) {
      return false;
    } catch (SdkException e) {
      throw (RuntimeException) errors.translate(Call.DELETE_TABLE, name.database(), name.table(), e);
    }
  }

  CatalogOptions options() { return options; }

  /** This catalog's Glue partition calls. */
  public GluePartitions partitions() { return partitions; }

  /**
   * Whether the entry in Glue already holds everything {@code input} (as sent) writes, so that an
   * AlreadyExists or ConcurrentModification met by the SDK's retry of a call whose answer was lost is no
   * failure ({@link WrittenEntries#holds}).
   */
  private boolean landed(String database, TableInput input) {
    Table stored;
    try {
      stored = glue.getTable(r -> r.catalogId(catalogId()).databaseName(database).name(input.name())).table();
    } catch (SdkException e) {
      return false;
    }
    return WrittenEntries.holds(stored, input);
  }

  /** The entry's VersionId as Glue has it now (for an update of an entry this statement wrote itself). */
  private String currentVersion(String database, String table) {
    try {
      return glue.getTable(r -> r.catalogId(catalogId()).databaseName(database).name(table)).table().versionId();
    } catch (SdkException e) {
      return null; // the update itself reports what is wrong
    }
  }

  @Override
  public void close() {
    synchronized (this) {
      if (prefetchPool != null) {
        prefetchPool.shutdown();
      }
    }
    partitions.close();
    for (AutoCloseable resource : resources) {
      try {
        resource.close();
      } catch (Exception ignored) {
        // closing clients of a catalog that is going away: nothing to do on failure
      }
    }
  }

  // ---- helpers ----

  /** Entries per GetTables page: Glue's largest page. */
  static final int PAGE_SIZE = 100;

  String catalogId() {
    return options.glueId().orElse(null);
  }

  <T> T unchecked(Call call, String database, String table, Supplier<T> body) {
    try {
      return body.get();
    } catch (SdkException e) {
      throw asUnchecked(errors.translate(call, database, table, e));
    }
  }

  /** Throws {@code mapped} as {@code declared} when it is one, else as the unchecked exception it is. */
  static <E extends Exception> E rethrow(Exception mapped, Class<E> declared) throws E {
    if (declared.isInstance(mapped)) {
      throw declared.cast(mapped);
    }
    throw asUnchecked(mapped);
  }

  private static RuntimeException asUnchecked(Exception mapped) {
    return mapped instanceof RuntimeException ? (RuntimeException) mapped
        : new IllegalStateException(mapped.getMessage(), mapped);
  }
}
