package io.gluecat.cache;

import io.gluecat.metrics.CatalogMetrics;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The Glue entries (tables and databases) one catalog read, kept so that Spark's repeated questions about
 * the same table or database within one statement cost one Glue call. One instance per catalog, in front of
 * the catalog's Glue reads ({@code GlueGateway}); this class is the only place that caches metadata.
 *
 * <p><b>Within a statement</b> (always on): entries, and "not found" answers, are shared by the calls one
 * statement makes on one thread (a {@link StatementLocal}; {@link StatementScope} says what a statement is), and dropped when the
 * thread moves on to another statement. Other engines change entries between statements, so nothing read
 * here outlives its statement. The catalog's own writes replace the entry in the statement's scope by what
 * was written (so a create's read-back costs nothing) or forget it.
 *
 * <p><b>Within Spark's {@code Catalog.listTables}</b> (always on): the entries it listed answer the table
 * resolutions that follow in the same call ({@link CatalogListingCall}), and nothing after it.
 *
 * <p><b>Across statements</b> (only with the catalog option {@code cache.ttl}): entries found in Glue are
 * also kept for that long, up to {@code cache.max-entries}, least recently used first out, for every thread
 * of the catalog. Not-found answers are never kept across statements. The catalog's own writes and REFRESH
 * TABLE remove the entry; writes by other engines are seen once it expires.
 *
 * <p>Every Glue operation that changes an entry must report it here: {@link #written} (with what was
 * written, or null when the entry is gone) on success, {@link #forget} when the outcome is unknown, and
 * {@link #forgetDatabase} for a database and everything in it.
 */
public final class MetadataCache {

  /** Reads an entry from Glue; throws {@code E} when it does not exist. */
  @FunctionalInterface
  public interface Loader<T, E extends Exception> {
    T load() throws E;
  }

  /** Another failure of a prefetched read: thrown once, by the statement's next read of the entry. */
  private static final class Failed {
    final Exception error;

    Failed(Exception error) {
      this.error = error;
    }
  }

  /** A not-found answer, kept for the rest of the statement. */
  private static final class Missing {
    final Exception error;

    Missing(Exception error) {
      this.error = error;
    }
  }

  /** What one thread read in its current statement. */
  private static final class Scope {
    final Map<String, Object> entries = new HashMap<>();
    final Set<String> written = new HashSet<>();
  }

  private final StatementLocal<Scope> scopes = new StatementLocal<>(Scope::new);
  private final ThreadLocal<CatalogListingCall> listingCalls = new ThreadLocal<>();
  private final Shared shared;
  private final CatalogMetrics metrics;

  /** A cache that shares entries within statements only. */
  public MetadataCache() {
    this(Duration.ZERO, 0);
  }

  /** With a positive {@code ttl}, entries also serve later statements for that long. */
  public MetadataCache(Duration ttl, int maxEntries) {
    this(ttl, maxEntries, new CatalogMetrics("unregistered"));
  }

  /** The same, counting its hits (reads answered without Glue) and misses (reads sent to Glue) in {@code metrics}. */
  public MetadataCache(Duration ttl, int maxEntries, CatalogMetrics metrics) {
    this.shared = ttl.isZero() || ttl.isNegative() ? null : new Shared(ttl.toNanos(), maxEntries);
    this.metrics = metrics;
  }

  public static String tableKey(String database, String table) {
    return "t:" + database + "." + table;
  }

  public static String databaseKey(String database) {
    return "d:" + database;
  }

  /**
   * The entry under {@code key}: from this statement's scope, else from the listing of the thread's current
   * {@code Catalog.listTables} call, else from the cache across statements, else from {@code loader}. A {@code notFound} exception is remembered for the rest of the statement; any
   * other failure is not remembered.
   */
  public <T, E extends Exception> T read(String key, Class<E> notFound, Loader<T, E> loader) throws E {
    StatementWarmup.claim(); // the reads a parse left for this statement (Spark 3.5's prefetch) go first
    Scope scope = scope();
    if (scope != null) {
      Object known = scope.entries.get(key);
      if (known != null) {
        metrics.cacheHit();
      }
      if (known instanceof Missing) {
        throw notFound.cast(((Missing) known).error);
      }
      if (known instanceof Failed) {
        // the read this prefetch made for the statement failed: this read reports it, as it would have
        // failed itself; it is not kept, so a later read asks Glue again, as without the prefetch
        scope.entries.remove(key);
        Exception error = ((Failed) known).error;
        throw error instanceof RuntimeException ? (RuntimeException) error : new IllegalStateException(error);
      }
      if (known != null) {
        @SuppressWarnings("unchecked") T value = (T) known;
        return value;
      }
    }
    Object kept = fromListingCall(key);
    if (kept == null && shared != null) {
      kept = shared.get(key);
    }
    if (kept != null) {
      metrics.cacheHit();
      if (scope != null) {
        scope.entries.put(key, kept);
      }
      @SuppressWarnings("unchecked") T value = (T) kept;
      return value;
    }
    T value;
    metrics.cacheMiss();
    try {
      value = loader.load();
    } catch (Exception e) {
      if (scope != null && notFound.isInstance(e)) {
        scope.entries.put(key, new Missing(e));
      }
      throw e;
    }
    if (scope != null) {
      scope.entries.put(key, value);
    }
    if (shared != null) {
      shared.put(key, value);
    }
    return value;
  }

  /**
   * Reads, concurrently on {@code pool}, the entries under {@code loaders}' keys that the statement's
   * {@link #read} would load from Glue (not those its scope, the thread's listing call or the cache across
   * statements can answer), and keeps each answer for the statement's next read of the key: an entry or a
   * not-found answer as {@code read} keeps them, any other failure for that one read to throw. So the reads
   * cost no Glue call, and the calls made are the ones they would have made. Waits for all of them. Nothing
   * happens outside a statement, whose reads would not find what was read.
   */
  public <T, E extends Exception> void prefetch(Map<String, Loader<T, E>> loaders, Class<E> notFound,
      java.util.concurrent.Executor pool) {
    Scope scope = scope();
    if (scope == null) {
      return;
    }
    Map<String, java.util.concurrent.CompletableFuture<Object>> reads = new LinkedHashMap<>();
    loaders.forEach((key, loader) -> {
      if (!scope.entries.containsKey(key) && fromListingCall(key) == null && (shared == null || shared.get(key) == null)) {
        try {
          reads.put(key, java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
              return loader.load();
            } catch (Exception e) {
              return notFound.isInstance(e) ? new Missing(e) : new Failed(e);
            }
          }, pool));
          metrics.cacheMiss();
        } catch (java.util.concurrent.RejectedExecutionException e) {
          // the pool is closed (the catalog is): the statement's read loads the entry itself
        }
      }
    });
    reads.forEach((key, read) -> {
      Object answer;
      try {
        answer = read.join();
      } catch (RuntimeException e) { // the read died of an Error: the statement's own read tries again
        return;
      }
      if (scope.entries.containsKey(key)) {
        return;
      }
      scope.entries.put(key, answer);
      if (shared != null && !(answer instanceof Missing) && !(answer instanceof Failed)) {
        shared.put(key, answer);
      }
    });
  }

  /**
   * Entries Glue returned in one listing, by key: they serve the rest of the statement (not later statements,
   * whose reads may not have listed them), and inside Spark's {@code Catalog.listTables} the rest of that call.
   */
  public void listed(Map<String, Object> entries) {
    Scope scope = scope();
    if (scope != null) {
      entries.forEach((key, value) -> {
        if (!scope.written.contains(key)) {
          scope.entries.put(key, value);
        }
      });
    }
    CatalogListingCall call = CatalogListingCall.ifInside(entries);
    if (call == null) {
      listingCalls.remove();
    } else {
      listingCalls.set(call);
    }
  }

  /** The entry as listed earlier in the thread's current {@code Catalog.listTables} call; null when none. */
  private Object fromListingCall(String key) {
    CatalogListingCall call = listingCalls.get();
    if (call == null) {
      return null;
    }
    if (!CatalogListingCall.inside()) { // the call that listed them is over: what it listed serves nothing else
      listingCalls.remove();
      return null;
    }
    return call.get(key);
  }

  private void forgetListed(Predicate<String> key) {
    CatalogListingCall call = listingCalls.get();
    if (call != null) {
      call.forget(key);
    }
  }

  /** The entry as the statement's scope knows it, without reading Glue; null when not known. */
  public Object peek(String key) {
    Scope scope = scope();
    Object known = scope == null ? null : scope.entries.get(key);
    return known instanceof Missing || known instanceof Failed ? null : known;
  }

  /**
   * This catalog wrote the entry: {@code value} is what it wrote (the rest of the statement reads it), or
   * null when the entry is gone. Later statements read Glue again.
   */
  public void written(String key, Object value) {
    if (shared != null) {
      shared.remove(key);
    }
    forgetListed(key::equals);
    Scope scope = scope();
    if (scope != null) {
      scope.written.add(key);
      if (value == null) {
        scope.entries.remove(key);
      } else {
        scope.entries.put(key, value);
      }
    }
  }

  /** Whether this statement wrote the entry itself (its copy lacks what only Glue assigns, such as VersionId). */
  public boolean writtenInStatement(String key) {
    Scope scope = scope();
    return scope != null && scope.written.contains(key);
  }

  /** The entry may have changed (a write whose outcome is unknown, or REFRESH TABLE): read it from Glue next time. */
  public void forget(String key) {
    if (shared != null) {
      shared.remove(key);
    }
    forgetListed(key::equals);
    Scope scope = scope();
    if (scope != null) {
      scope.entries.remove(key);
    }
  }

  /**
   * REFRESH TABLE (and Spark's other hints that a table changed): later statements read Glue again. The
   * current statement keeps what it read moments ago (Spark asks for the table while analysing the statement).
   */
  public void forgetAcrossStatements(String key) {
    if (shared != null) {
      shared.remove(key);
    }
  }

  /** The database and the entries of its tables may have changed (Glue deletes a database's tables with it). */
  public void forgetDatabase(String database) {
    String tables = tableKey(database, "");
    String db = databaseKey(database);
    Predicate<String> ofDatabase = k -> k.equals(db) || k.startsWith(tables);
    if (shared != null) {
      shared.removeIf(ofDatabase);
    }
    forgetListed(ofDatabase);
    Scope scope = scope();
    if (scope != null) {
      scope.entries.keySet().removeIf(ofDatabase);
    }
  }

  /** The calling thread's statement scope, a new one when it moved on to another statement; null outside any. */
  private Scope scope() {
    return scopes.get();
  }

  /** The entries kept across statements: expiring, least recently used out first. */
  private static final class Shared {
    private final long ttlNanos;
    private final LinkedHashMap<String, Object[]> entries;

    Shared(long ttlNanos, int maxEntries) {
      this.ttlNanos = ttlNanos;
      this.entries = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Object[]> eldest) {
          return size() > maxEntries;
        }
      };
    }

    synchronized Object get(String key) {
      Object[] e = entries.get(key);
      if (e == null) {
        return null;
      }
      if (System.nanoTime() - (Long) e[1] > ttlNanos) {
        entries.remove(key);
        return null;
      }
      return e[0];
    }

    synchronized void put(String key, Object value) {
      entries.put(key, new Object[] {value, System.nanoTime()});
    }

    synchronized void remove(String key) {
      entries.remove(key);
    }

    synchronized void removeIf(Predicate<String> key) {
      for (Iterator<String> i = entries.keySet().iterator(); i.hasNext(); ) {
        if (key.test(i.next())) {
          i.remove();
        }
      }
    }
  }
}
