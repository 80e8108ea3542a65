package io.gluecat.cache;

import java.util.Map;
import java.util.Set;

/**
 * The entries one call of Spark's {@code Catalog.listTables} (PySpark's {@code spark.catalog.listTables}, Spark
 * Connect's ListTables) listed, kept on the calling thread for the rest of that call.
 *
 * <p>Spark answers that call by listing the namespace (SHOW TABLES) and then resolving every listed table on its
 * own, each resolution a separate analysis (Spark 4) or no statement at all (Spark 3.5), so the statement scope
 * cannot carry the listing over: without this, every listed table cost a {@code GetTable}. The call is one
 * request of the user's, answered from one listing, like SHOW TABLES; what it listed serves nothing else. Spark
 * does not tell a catalog which API call it serves, so the call is recognised by its frame on the thread's stack
 * (the {@code listTables} method of Spark's implementation of {@code Catalog}, whose class is named per line).
 * {@code CallCountsIT} asserts the calls it saves on every Spark line, so a Spark that renames the frame fails
 * there instead of quietly costing a call per table again.
 */
final class CatalogListingCall {
  private static final StackWalker STACK = StackWalker.getInstance();
  /** Spark's implementation of {@code spark.catalog}: Spark 3.5, Spark 4.0 to 4.2, and later (renamed). */
  private static final Set<String> SPARK_CATALOG_CLASSES = Set.of("org.apache.spark.sql.internal.CatalogImpl",
      "org.apache.spark.sql.classic.Catalog", "org.apache.spark.sql.classic.CatalogImpl");

  private final Map<String, Object> entries;

  private CatalogListingCall(Map<String, Object> entries) {
    this.entries = entries;
  }

  /** A listing's entries, when the thread is inside {@code Catalog.listTables}; null otherwise. */
  static CatalogListingCall ifInside(Map<String, Object> entries) {
    return inside() ? new CatalogListingCall(entries) : null;
  }

  /** The listed entry under {@code key}, or null when not listed. */
  Object get(String key) {
    return entries.get(key);
  }

  /** Drops entries this catalog changed or may have changed. */
  void forget(java.util.function.Predicate<String> key) {
    entries.keySet().removeIf(key);
  }

  /** Whether the calling thread is (still) inside Spark's {@code Catalog.listTables}. */
  static boolean inside() {
    return STACK.walk(frames -> frames.anyMatch(f -> f.getMethodName().equals("listTables")
        && SPARK_CATALOG_CLASSES.contains(f.getClassName())));
  }
}
