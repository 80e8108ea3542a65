package io.gluecat.delta;

import io.gluecat.DeltaCommittedButGlueFailedException;
import io.gluecat.GlueCatalogException;
import io.gluecat.config.CatalogOptions;
import io.gluecat.config.SparkEnvironment;
import io.gluecat.create.CreateArguments;
import io.gluecat.create.CreatedTable;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueGateway;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * Delta tables by name: their creates and replaces ({@link DeltaCreates}: Delta by path, then the Glue entry),
 * ALTER, REFRESH and the loads' schema check. Rewriting an entry from its log is {@link DeltaEntrySync}'s. See
 * docs/how-it-works.md.
 */
public final class DeltaTables {
  private final String catalog;
  private final GlueGateway glue;
  private final CatalogHadoopConf hadoop;
  private final Supplier<TableCatalog> deltaCatalog;
  private final DeltaEntrySync sync;
  private final SchemaFollower follower;
  private final DeltaCreates creates;

  public DeltaTables(String catalog, CatalogOptions options, GlueGateway glue, CatalogHadoopConf hadoop,
      Supplier<TableCatalog> deltaCatalog) {
    this.catalog = catalog;
    this.glue = glue;
    this.hadoop = hadoop;
    this.deltaCatalog = deltaCatalog;
    this.sync = new DeltaEntrySync(catalog, glue, hadoop);
    this.follower = sync.follower();
    this.creates = new DeltaCreates(catalog, options, glue, hadoop, deltaCatalog, sync);
  }

  /** The checks every Delta operation by name runs before it touches anything. */
  public void checkSession() {
    SessionChecks.requireUpdateCatalogHookOff(catalog);
    SessionChecks.requireDeltaSessionConfig(catalog);
  }

  /** Delta's creates and replaces by name, each one sequence: see {@link DeltaCreates}. */
  public DeltaCreates creates() {
    return creates;
  }

  /** A statement of this catalog is about to change {@code name}'s Delta table and write Glue itself. */
  void changing(TableName name) {
    follower.changing(name);
  }

  // ---- alter and refresh ----

  /**
   * ALTER TABLE on a Delta table. SET LOCATION moves the Glue entry to another Delta table; everything
   * else is Delta's, applied to its log, after which column changes re-sync the Glue columns.
   */
  public Table alter(Identifier ident, TableName name, StoredTable entry, TableChange... changes)
      throws NoSuchTableException {
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
  public void refresh(TableName name, StoredTable entry) {
    checkSession();
    sync.resync(name, entry, EntryReader.read(catalog, name.database(), entry).location());
  }

  /**
   * A Delta table loaded by name at its latest version (see {@link SchemaFollower}): an entry the log moved
   * away from is re-synced, and the table is watched for this session's schema changes.
   */
  public void loaded(TableName name, Table table, Supplier<Optional<StoredTable>> entry) {
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

  /** A table Delta serves; by name it was just written or checked, by path Delta never reports a miss. */
  private Table loadDelta(Identifier ident) {
    try {
      return deltaCatalog.get().loadTable(ident);
    } catch (NoSuchTableException e) {
      throw new IllegalStateException(String.format("gluecat catalog '%s': table %s vanished while it was being "
          + "written", catalog, ident), e);
    }
  }
}
