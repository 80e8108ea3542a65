package io.gluecat.delta;

import io.gluecat.entry.GlueEntry;
import io.gluecat.entry.TableName;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.delta.DeltaLog;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.catalog.DeltaTableV2;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.util.QueryExecutionListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps a catalog's Delta entries on their logs' schemas when a write changed the schema without an ALTER: a
 * MERGE or append with schema evolution, RESTORE, REPLACE WHERE, a stream, or a writer outside gluecat.
 *
 * <p>Delta has no public hook after its commits, and Spark calls the catalog only before a write. So two
 * checks, both costing no Glue call when nothing changed:
 * <ul>
 *   <li>each load by name compares the entry just read with the log's snapshot that Delta opens for the
 *       statement anyway, and re-syncs the entry when they differ (drift left by others);</li>
 *   <li>each table loaded by name is watched through its DeltaLog, which Delta updates in memory on its own
 *       commits; when a statement of the session ends (Spark's query-execution listener), a watched table whose
 *       log holds another schema than Glue was last given is re-synced.</li>
 * </ul>
 * The listener runs on Spark's listener thread right after the statement returns, so a reader elsewhere may
 * briefly see the old columns; the next load by name through gluecat never does.
 */
final class SchemaFollower {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaFollower.class);
  /** Tables watched at once per catalog: the most recently loaded. */
  private static final int WATCHED = 64;

  private final String catalog;
  /** Re-syncs one entry from its log (reads the entry, writes it when it differs); throws on failure. */
  private final Consumer<TableName> resync;
  private final Map<TableName, Watched> watched = Collections.synchronizedMap(
      new LinkedHashMap<TableName, Watched>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<TableName, Watched> eldest) {
          return size() > WATCHED;
        }
      });
  private final Set<SparkSession> listening = Collections.newSetFromMap(new WeakHashMap<>());

  SchemaFollower(String catalog, Consumer<TableName> resync) {
    this.catalog = catalog;
    this.resync = resync;
  }

  /**
   * A Delta table loaded by name at its latest version: re-syncs its entry when the log moved on without it,
   * then watches it. Never fails the load: a table whose log cannot be read is left to the statement.
   */
  void loaded(TableName name, Table table, Supplier<Optional<GlueEntry>> entry) {
    if (!(table instanceof DeltaTableV2)) {
      return;
    }
    DeltaTableV2 delta = (DeltaTableV2) table;
    SparkSession spark = SparkSession.active();
    Snapshot snapshot;
    LogSchema log;
    try {
      snapshot = delta.initialSnapshot();
      if (snapshot.version() < 0) {
        return; // no log there: nothing to follow, and the statement reports it
      }
      log = LogSchema.of(spark, snapshot);
    } catch (RuntimeException e) {
      return;
    }
    // The entry as Glue has it (Delta's catalog is handed Delta entries without their schema, as from its own
    // metastore, so it is read from the entry itself: the statement's cached copy, no second call). An entry
    // that keeps no schema (Trino's, or one Spark's Hive path wrote) is left in its own shape.
    Optional<GlueEntry> stored = entry.get();
    if (stored.isPresent() && !stored.get().schema().isEmpty()) {
      GlueEntry e = stored.get();
      if (!log.sameAs(e.schema(), e.partitionColumns(), e.comment())) {
        follow(name, "its Delta log changed outside this catalog");
      }
    }
    watched.put(name, new Watched(delta.deltaLog(), snapshot, log.key()));
    listen(spark);
  }

  /**
   * A statement of this catalog is about to change {@code name}'s schema and write Glue itself (ALTER, REPLACE).
   * Spark delivers the query-execution events of earlier statements asynchronously, so one may arrive while
   * this statement's commit is done and its Glue write is not: the listener leaves the table alone until
   * {@link #synced} (or the next load, which watches it afresh).
   */
  void changing(TableName name) {
    Watched w = watched.get(name);
    if (w != null) {
      synchronized (w) {
        w.changing = true;
      }
    }
  }

  /** Glue was just given {@code log} for {@code name} (create, replace, ALTER, REFRESH): nothing to follow. */
  void synced(TableName name, LogSchema log) {
    Watched w = watched.get(name);
    if (w != null) {
      synchronized (w) {
        w.key = log.key();
        w.snapshot = w.log.unsafeVolatileSnapshot();
        w.changing = false;
      }
    }
  }

  /** After a statement of {@code session}: re-syncs the watched tables whose logs now hold another schema. */
  void afterStatement(SparkSession session) {
    List<Map.Entry<TableName, Watched>> tables;
    synchronized (watched) {
      tables = new ArrayList<>(watched.entrySet());
    }
    for (Map.Entry<TableName, Watched> t : tables) {
      Watched w = t.getValue();
      String changed = null;
      synchronized (w) {
        Snapshot latest = w.log.unsafeVolatileSnapshot();
        if (w.changing || latest == w.snapshot || latest.version() < 0) {
          continue; // no commit since: the common case, one reference comparison
        }
        w.snapshot = latest;
        String key;
        try {
          key = LogSchema.of(session, latest).key();
        } catch (RuntimeException e) {
          continue;
        }
        if (!key.equals(w.key)) {
          w.key = key; // a failed re-sync warns once; the next load by name tries again
          changed = key;
        }
      }
      if (changed != null) {
        Optional<SparkSession> previous = active();
        SparkSession.setActiveSession(session);
        try {
          follow(t.getKey(), "a statement changed its schema");
        } finally {
          previous.ifPresentOrElse(SparkSession::setActiveSession, SparkSession::clearActiveSession);
        }
      }
    }
  }

  private void follow(TableName name, String why) {
    try {
      resync.accept(name);
    } catch (RuntimeException e) {
      // Delta's commit stands and Delta readers use the log; only Glue's copy of the columns is behind
      LOG.warn("gluecat catalog '{}': the Glue entry of {}.{} is behind its Delta log ({}), and updating it failed: "
          + "{}. Readers that use Glue's columns see the old ones until REFRESH TABLE {}.{} succeeds.",
          catalog, catalog, name, why, e.toString(), catalog, name);
    }
  }

  private void listen(SparkSession session) {
    synchronized (listening) {
      if (listening.add(session)) {
        session.listenerManager().register(new Listener(this, session));
      }
    }
  }

  private static Optional<SparkSession> active() {
    scala.Option<SparkSession> s = SparkSession.getActiveSession();
    return s.isDefined() ? Optional.of(s.get()) : Optional.empty();
  }

  /** A table loaded by name: its DeltaLog, the snapshot last looked at, and the key of what Glue was given. */
  private static final class Watched {
    final DeltaLog log;
    Snapshot snapshot;
    String key;
    boolean changing;

    Watched(DeltaLog log, Snapshot snapshot, String key) {
      this.log = log;
      this.snapshot = snapshot;
      this.key = key;
    }
  }

  /** Spark calls it after each statement of the session (on its listener thread). */
  private static final class Listener implements QueryExecutionListener {
    private final java.lang.ref.WeakReference<SchemaFollower> follower;
    private final java.lang.ref.WeakReference<SparkSession> session;

    Listener(SchemaFollower follower, SparkSession session) {
      this.follower = new java.lang.ref.WeakReference<>(follower);
      this.session = new java.lang.ref.WeakReference<>(session);
    }

    @Override
    public void onSuccess(String funcName, QueryExecution qe, long durationNs) {
      after();
    }

    @Override
    public void onFailure(String funcName, QueryExecution qe, Exception exception) {
      after(); // a statement may fail after its commit
    }

    private void after() {
      SchemaFollower f = follower.get();
      SparkSession s = session.get();
      if (f != null && s != null) {
        f.afterStatement(s);
      }
    }
  }
}
