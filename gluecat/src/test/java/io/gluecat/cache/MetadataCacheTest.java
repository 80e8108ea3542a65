package io.gluecat.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The cache's rules outside Spark (no session, so no statement): a listing serves nothing after it unless the
 * thread is inside Spark's {@code Catalog.listTables}, and {@code cache.ttl} entries serve later reads until the
 * catalog writes them. The rules inside statements and inside listTables are shown through Spark by
 * MetadataCacheIT and CallCountsIT.
 */
class MetadataCacheTest {
  private static final String KEY = MetadataCache.tableKey("db", "t");

  private static String read(MetadataCache cache, AtomicInteger loads) {
    return cache.read(KEY, IllegalStateException.class, () -> "from glue " + loads.incrementAndGet());
  }

  @Test
  void aListingOutsideCatalogListTablesServesNoLaterRead() {
    MetadataCache cache = new MetadataCache();
    AtomicInteger loads = new AtomicInteger();
    cache.listed(Map.of(KEY, "listed"));
    assertEquals("from glue 1", read(cache, loads));
    assertEquals("from glue 2", read(cache, loads), "outside a statement every read asks Glue");
  }

  @Test
  void entriesKeptAcrossStatementsUntilTheCatalogWritesThem() {
    MetadataCache cache = new MetadataCache(Duration.ofMinutes(5), 10);
    AtomicInteger loads = new AtomicInteger();
    assertEquals("from glue 1", read(cache, loads));
    assertEquals("from glue 1", read(cache, loads));
    cache.written(KEY, "written");
    assertEquals("from glue 2", read(cache, loads), "the catalog's own write makes the next read ask Glue");
    cache.forgetAcrossStatements(KEY);
    assertEquals("from glue 3", read(cache, loads), "REFRESH TABLE too");
  }

  @Test
  void aPrefetchOutsideAStatementReadsNothing() {
    MetadataCache cache = new MetadataCache();
    AtomicInteger loads = new AtomicInteger();
    Map<String, MetadataCache.Loader<String, IllegalStateException>> loaders =
        Map.of(KEY, () -> "from glue " + loads.incrementAndGet());
    cache.prefetch(loaders, IllegalStateException.class, Runnable::run);
    assertEquals(0, loads.get(), "nothing could find what it read: every read outside a statement asks Glue");
  }
}
