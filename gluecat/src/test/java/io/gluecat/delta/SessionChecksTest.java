package io.gluecat.delta;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class SessionChecksTest {

  /** The fix it suggests must keep gluecat's own extension (a user copying it would otherwise lose it). */
  @Test
  void theMissingSessionCatalogMessageSuggestsBothExtensionsInOrder() {
    // no active session: Spark's fallback SQLConf, where spark_catalog is not set
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> SessionChecks.requireDeltaSessionConfig("glue"));
    assertTrue(e.getMessage().startsWith("gluecat catalog 'glue' serves Delta tables through Delta Lake"), e.getMessage());
    assertTrue(e.getMessage().contains(
        "spark.sql.extensions=io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension"),
        e.getMessage());
  }
}
