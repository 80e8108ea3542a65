package io.gluecat.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class DeltaSupportTest {

  /** AWS Glue 5.1 and EMR 7.11+: Delta 3.3.2 on Spark 3.5.6; the warning names both and the fix. */
  @Test
  void delta332OnSpark356IsAKnownBreakOfReplaceAsSelect() {
    String warning = DeltaSupport.knownBreak("glue", "3.5.6-amzn-2", "3.3.2-amzn-2").orElseThrow();
    assertTrue(warning.startsWith("gluecat catalog 'glue': Delta Lake 3.3.2-amzn-2 on Spark 3.5.6-amzn-2 cannot run "
        + "CREATE OR REPLACE TABLE ... USING delta AS SELECT"), warning);
    assertTrue(warning.contains("delta-io/delta#4671, fixed in Delta 3.3.3"), warning);
    assertTrue(DeltaSupport.knownBreak("glue", "3.5.9", "3.3.1").isPresent());
  }

  @Test
  void otherPairsAreNot() {
    assertEquals(Optional.empty(), DeltaSupport.knownBreak("glue", "3.5.9", "3.3.3"), "the 3.5 row");
    assertEquals(Optional.empty(), DeltaSupport.knownBreak("glue", "3.5.4", "3.3.0"), "AWS Glue 5.0");
    assertEquals(Optional.empty(), DeltaSupport.knownBreak("glue", "4.1.1", "4.2.0"), "AWS Glue 6.0");
    assertEquals(Optional.empty(), DeltaSupport.knownBreak("glue", "3.5.9", null), "Delta absent");
  }

  @Test
  void theRowsOwnPairHasNoKnownBreak() {
    assertEquals(Optional.empty(), DeltaSupport.knownBreak("glue", io.gluecat.config.SparkEnvironment.sparkVersion(),
        DeltaSupport.version()));
  }
}
