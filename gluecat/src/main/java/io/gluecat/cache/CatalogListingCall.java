package io.gluecat.cache;

import io.gluecat.compat.SparkCompat;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The entries one call of Spark's {@code Catalog.listTables} (PySpark's {@code spark.catalog.listTables}, Spark
 * Connect's ListTables) listed, kept on the calling thread for the rest of that call.
 *
 * <p>Spark answers that call by listing the namespace (SHOW TABLES) and then resolving every listed table on its
 * own, each resolution a separate analysis (Spark 4) or no statement at all (Spark 3.5), so the statement scope
 * cannot carry the listing over: without this, every listed table cost a {@code GetTable}. The call is one
 * request of the user's, answered from one listing, like SHOW TABLES; what it listed serves nothing else. Spark
 * does not tell a catalog which API call it serves, so the call is recognised by its frame on the thread's stack
 * (the {@code listTables} method of Spark's implementation of {@code Catalog}, named per line in SparkCompat).
 * {@code CallCountsIT} asserts the calls it saves on every Spark line, so a Spark that renames the frame fails
 * there instead of quietly costing a call per table again.
 *
 * <p>Why a later call never sees an earlier call's entries: every {@code listTables} lists before it resolves
 * a table, and a listing replaces what the thread kept; the first read outside the call drops it. Until then
 * the thread holds one listing's entries (a few MB for 10,000 tables).
 */
final class CatalogListingCall {
  private static final StackWalker STACK = StackWalker.getInstance();

  private final Map<String, Object> entries;

  private CatalogListingCall(Map<String, Object> entries) {
    this.entries = new HashMap<>(entries); // its own copy: forget() removes from it
  }

  /** A copy of a listing's entries, when the thread is inside {@code Catalog.listTables}; null otherwise. */
  static CatalogListingCall ifInside(Map<String, Object> entries) {
    return inside() ? new CatalogListingCall(entries) : null;
  }

  /** The listed entry under {@code key}, or null when not listed. */
  Object get(String key) {
    return entries.get(key);
  }

  /** Drops entries this catalog changed or may have changed. */
  void forget(Predicate<String> key) {
    entries.keySet().removeIf(key);
  }

  /** Whether the calling thread is (still) inside Spark's {@code Catalog.listTables}. */
  static boolean inside() {
    return STACK.walk(frames -> frames.anyMatch(f -> f.getMethodName().equals("listTables")
        && f.getClassName().equals(SparkCompat.SPARK_CATALOG_CLASS)));
  }
}
