package io.gluecat.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Metric names: the parts Spark's sinks split on never come from outside, and nothing but operations and codes. */
class CatalogMetricsTest {

  @Test
  void namePartsKeepLettersDigitsUnderscoresAndDashesOnly() {
    assertEquals("glue_prod", CatalogMetrics.sanitize("glue_prod"));
    assertEquals("my-catalog", CatalogMetrics.sanitize("my-catalog"));
    assertEquals("a_b_c_d_", CatalogMetrics.sanitize("a.b c/d\""));
    assertEquals("unknown", CatalogMetrics.sanitize(null));
    assertEquals("unknown", CatalogMetrics.sanitize(""));
    assertEquals(64, CatalogMetrics.sanitize("x".repeat(500)).length());
  }

  @Test
  void theSourceIsNamedAfterTheCatalog() {
    assertEquals("gluecat.glue", new CatalogMetrics("glue").sourceName());
    assertEquals("gluecat.odd_name", new CatalogMetrics("odd.name").sourceName());
  }

  @Test
  void callsRetriesThrottlesLatencyAndFailuresPerOperation() {
    CatalogMetrics m = new CatalogMetrics("glue");
    m.call("GetTable", TimeUnit.MILLISECONDS.toNanos(12), 0, 0);
    m.call("GetTable", TimeUnit.MILLISECONDS.toNanos(40), 2, 1);
    m.call("AssumeRole", -1, 0, 0); // no duration known: counted, not timed
    m.failure("GetTable", "EntityNotFoundException");
    m.failure("UpdateTable", "Concurrent.Modification");
    m.cacheHit();
    m.cacheHit();
    m.cacheMiss();
    assertEquals(2, m.registry().counter("GetTable.calls").getCount());
    assertEquals(2, m.registry().counter("GetTable.retries").getCount());
    assertEquals(1, m.registry().counter("GetTable.throttles").getCount());
    assertEquals(2, m.registry().timer("GetTable.latency").getCount());
    assertEquals(1, m.registry().counter("AssumeRole.calls").getCount());
    assertEquals(0, m.registry().timer("AssumeRole.latency").getCount());
    assertEquals(1, m.registry().counter("GetTable.failures.EntityNotFoundException").getCount());
    assertEquals(1, m.registry().counter("UpdateTable.failures.Concurrent_Modification").getCount());
    assertEquals(2, m.registry().counter("cache.hits").getCount());
    assertEquals(1, m.registry().counter("cache.misses").getCount());
    for (String name : m.registry().getNames()) {
      assertTrue(name.matches("[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)+"), name);
    }
  }

  @Test
  void withoutASparkDriverNothingIsRegistered() {
    // no SparkEnv in a unit test: the metrics still count, for no sink
    CatalogMetrics m = CatalogMetrics.forCatalog("glue_unit");
    m.cacheMiss();
    assertEquals(1, m.registry().counter("cache.misses").getCount());
  }
}
