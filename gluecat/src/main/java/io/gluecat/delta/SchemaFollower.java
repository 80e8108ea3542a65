package io.gluecat.delta;

import io.gluecat.entry.EntryReader;
import io.gluecat.entry.GlueEntry;
import io.gluecat.entry.StoredTable;
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
 * Both are cheap when nothing changed, as for most loads and commits: a LogSchema is only rebuilt when the
 * snapshot's metadata holds another schema string, partitioning or description than the one it was built from
 * (LogSchema.of with the previous one), and a load parses and compares the entry only when it is not equal to
 * the entry last found to agree with that same LogSchema.
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
   * {@code entry} is the Glue entry as the load read it (the statement's cached copy: no Glue call).
   */
  void loaded(TableName name, Table table, Supplier<Optional<StoredTable>> entry) {
    if (!(table instanceof DeltaTableV2)) {
      return;
    }
    DeltaTableV2 delta = (DeltaTableV2) table;
    SparkSession spark = SparkSession.active();
    Snapshot snapshot;
    try {
      snapshot = delta.initialSnapshot(); // Delta takes the table's schema from it: no extra snapshot
      if (snapshot.version() < 0) {
        return; // no log there: nothing to follow, and the statement reports it
      }
    } catch (RuntimeException e) {
      return;
    }
    Watched w = watched.get(name);
    if (w == null || w.log != delta.deltaLog()) {
      w = new Watched(delta.deltaLog());
      watched.put(name, w);
    }
    Optional<StoredTable> stored = entry.get();
    boolean drift;
    synchronized (w) {
      LogSchema log;
      try {
        log = LogSchema.of(spark, snapshot, w.given);
      } catch (RuntimeException e) {
        watched.remove(name, w);
        return;
      }
      w.snapshot = snapshot;
      w.given = log;
      w.changing = false;
      // The entry is read and compared only when it or the log's schema changed since they last agreed.
      drift = stored.isPresent() && !(stored.get().equals(w.agreed) && log == w.agreedLog)
          && !agrees(name, stored.get(), w, log);
    }
    if (drift) {
      follow(name, "its Delta log changed outside this catalog");
    }
    listen(spark);
  }

  /**
   * Whether {@code entry} holds {@code log} (remembered in {@code w} when it does). Delta's catalog is handed
   * Delta entries without their schema, as from its own metastore, so the schema is read from the entry itself.
   * An entry that keeps no schema (Trino's, or one Spark's Hive path wrote) is left in its own shape.
   */
  private boolean agrees(TableName name, StoredTable entry, Watched w, LogSchema log) {
    GlueEntry e;
    try {
      e = EntryReader.read(catalog, name.database(), entry);
    } catch (RuntimeException unreadable) {
      return true; // the load itself reports what is wrong with the entry
    }
    if (!e.schema().isEmpty() && !log.sameAs(e.schema(), e.partitionColumns(), e.comment())) {
      return false;
    }
    w.agreed = entry;
    w.agreedLog = log;
    return true;
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
        w.given = log;
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
      boolean changed = false;
      synchronized (w) {
        Snapshot latest = w.log.unsafeVolatileSnapshot();
        if (w.changing || w.given == null || latest == w.snapshot || latest.version() < 0) {
          continue; // no commit since: the common case, one reference comparison
        }
        w.snapshot = latest;
        LogSchema now;
        try {
          now = LogSchema.of(session, latest, w.given); // w.given itself when the commit left the schema alone
        } catch (RuntimeException e) {
          continue;
        }
        if (now != w.given) {
          if (!now.sameAs(w.given)) {
            changed = true; // a failed re-sync warns once; the next load by name tries again
          } else if (w.agreedLog == w.given) {
            w.agreedLog = now; // the same columns (an identity column's high-water mark moved): still agreed
          }
          w.given = now;
        }
      }
      if (changed) {
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

  /**
   * A table loaded by name: its DeltaLog, the snapshot last looked at, what Glue was last given (or found to
   * hold), and the entry last found to agree with the log's schema {@code agreedLog}: a load that sees both
   * again (an equal entry, the same LogSchema instance) compares nothing.
   */
  private static final class Watched {
    final DeltaLog log;
    Snapshot snapshot;
    LogSchema given;
    StoredTable agreed;
    LogSchema agreedLog;
    boolean changing;

    Watched(DeltaLog log) {
      this.log = log;
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
