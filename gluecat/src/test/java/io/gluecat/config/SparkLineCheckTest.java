package io.gluecat.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class SparkLineCheckTest {

  @Test
  void refusesAnotherSparkLineNamingBothVersionsAndTheArtifactToUse() {
    Optional<String> refusal = SparkLineCheck.mismatch("glue", "gluecat-spark-4.1_2.13", "4.1.3", "4.2.0", "2.13.17");
    assertTrue(refusal.isPresent());
    assertEquals("gluecat catalog 'glue' cannot start: its jar, gluecat-spark-4.1_2.13, is built for Spark 4.1 "
        + "(4.1.3), but this session runs Spark 4.2.0. Each Spark line needs the gluecat artifact built for it: for "
        + "Spark 4.2 that is gluecat-spark-4.2_2.13 (or gluecat-spark-runtime-4.2_2.13), where this release has one; "
        + "docs/platforms.md lists the artifact for each Spark line and AWS runtime.", refusal.get());
  }

  @Test
  void emr8sSpark40IsRefusedByTheSpark41Jar() {
    String refusal = SparkLineCheck.mismatch("lake", "gluecat-spark-4.1_2.13", "4.1.3", "4.0.2-amzn-0", "2.13.16")
        .orElseThrow();
    assertTrue(refusal.contains("this session runs Spark 4.0.2-amzn-0"), refusal);
    assertTrue(refusal.contains("gluecat-spark-4.0_2.13"), refusal);
  }

  @Test
  void acceptsOtherPatchesOfTheSameLineAndVendorBuilds() {
    assertEquals(Optional.empty(), SparkLineCheck.mismatch("glue", "gluecat-spark-4.1_2.13", "4.1.3", "4.1.1", "2.13.17"));
    assertEquals(Optional.empty(),
        SparkLineCheck.mismatch("glue", "gluecat-spark-3.5_2.12", "3.5.9", "3.5.6-amzn-1", "2.12.18"));
  }

  @Test
  void anUnknownVersionIsNotRefused() {
    assertEquals(Optional.empty(), SparkLineCheck.mismatch("glue", "gluecat-spark-4.2_2.13", "4.2.0", "unknown", "2.13"));
    assertEquals(Optional.empty(), SparkLineCheck.mismatch("glue", null, null, "4.2.0", "2.13"));
  }

  @Test
  void startsOnTheSparkItWasBuiltFor() {
    SparkLineCheck.requireBuiltLine("glue");
    assertEquals(SparkEnvironment.sparkVersion(), SparkLineCheck.builtSparkVersion());
  }
}
