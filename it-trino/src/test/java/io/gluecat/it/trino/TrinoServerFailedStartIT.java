package io.gluecat.it.trino;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.testkit.MiniStack;
import io.gluecat.testkit.trino.TrinoCatalogs;
import io.gluecat.testkit.trino.TrinoServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The fixture's failed start says why: Trino's version, address and Java, and the end of Trino's log. The test kit's
 * Trino fixture has no Spark in it, so this runs with the newest row only (Repository.isNewestRowOrNone).
 */
class TrinoServerFailedStartIT {

  @Test
  void aMisspeltCatalogPropertyFailsTheStartWithTheLogTail() {
    org.junit.jupiter.api.Assumptions.assumeTrue(io.gluecat.testkit.Repository.isNewestRowOrNone(),
        "the test kit's Trino fixture: checked with the newest row of matrix.yaml only");
    MiniStack ministack = MiniStack.shared();
    TrinoServer.Builder builder = TrinoServer.builder()
        .catalog("broken", TrinoCatalogs.deltaLakeOnGlue(ministack), Map.of("hive.metastore.glue.regoin", "us-east-1"));
    IllegalStateException e = assertThrows(IllegalStateException.class, builder::start);
    String message = e.getMessage();
    assertTrue(message.contains("Trino 476 on 127.0.0.1:"), message);
    assertTrue(message.contains("Java 2"), message);   // the Java 24+ it ran on
    assertTrue(message.contains("exited with status"), message);
    assertTrue(message.contains("hive.metastore.glue.regoin"), message);   // Trino's own complaint, from the log
  }
}
