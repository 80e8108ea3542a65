package io.gluecat.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DeltaSupportTest {

  /** AWS Glue 5.1 and EMR 7.11+: Delta 3.3.2 on Spark 3.5.6; the warning names both and the fix. */
  @Test
  void delta332OnSpark356IsAKnownBreakOfReplaceAsSelect() {
    String warning = DeltaSupport.replaceBreak("glue", "3.5.6-amzn-2", "3.3.2-amzn-2").orElseThrow();
    assertTrue(warning.startsWith("gluecat catalog 'glue': Delta Lake 3.3.2-amzn-2 on Spark 3.5.6-amzn-2 cannot run "
        + "CREATE OR REPLACE TABLE ... USING delta AS SELECT"), warning);
    assertTrue(warning.contains("delta-io/delta#4671, fixed in Delta 3.3.3"), warning);
    assertTrue(DeltaSupport.replaceBreak("glue", "3.5.9", "3.3.1").isPresent());
  }

  /**
   * AWS Glue 6.1: Delta 4.2.0 on Spark 4.1.3. Spark 4.1.2 removed IgnoreCachedData, which Delta before 4.3.0
   * extends in its ALTER commands; the warning names both versions, what fails and both ways out.
   */
  @Test
  void delta42OnSpark412AndLaterIsAKnownBreakOfAlter() {
    String warning = DeltaSupport.ignoreCachedDataBreak("lake", "4.1.3", "4.2.0").orElseThrow();
    assertTrue(warning.startsWith("gluecat catalog 'lake': Delta Lake 4.2.0 on Spark 4.1.3 cannot run ALTER TABLE"),
        warning);
    assertTrue(warning.contains("NoClassDefFoundError org/apache/spark/sql/catalyst/plans/logical/IgnoreCachedData"),
        warning);
    assertTrue(warning.contains("Use Delta 4.4.0"), warning);
    assertTrue(warning.contains("or Spark 4.1.1 with Delta 4.2.0 as AWS Glue 6.0 ships them"), warning);
    assertTrue(DeltaSupport.ignoreCachedDataBreak("lake", "4.1.2", "4.2.0").isPresent(), "the first Spark without the trait");
    assertTrue(DeltaSupport.ignoreCachedDataBreak("lake", "4.1.9-amzn-0", "4.2.1").isPresent());
    assertTrue(DeltaSupport.ignoreCachedDataBreak("lake", "4.1.2", "4.1.0").isPresent());
  }

  /** Amazon EMR 8.0 as Maven Central serves it: Delta 4.0.0's purge calls Spark 4.0.0's converter constructor. */
  @Test
  void delta400OnSpark401AndLaterIsAKnownBreakOfPurge() {
    String warning = DeltaSupport.purgeBreak("lake", "4.0.2", "4.0.0").orElseThrow();
    assertTrue(warning.startsWith("gluecat catalog 'lake': Delta Lake 4.0.0 on Spark 4.0.2 cannot run REORG TABLE"),
        warning);
    assertTrue(warning.contains("NoSuchMethodError") && warning.contains("Use Delta 4.0.1"), warning);
    assertEquals(Optional.empty(), DeltaSupport.purgeBreak("lake", "4.0.0", "4.0.0"), "the Spark it was built for");
    assertEquals(Optional.empty(), DeltaSupport.purgeBreak("lake", "4.0.1", "4.0.1"), "the 4.0 row");
    assertEquals(Optional.empty(), DeltaSupport.purgeBreak("lake", "4.1.3", "4.0.0"), "not a Spark 4.0 pair");
  }

  @Test
  void delta43AndLaterOrSpark411AndEarlierAreNot() {
    assertEquals(Optional.empty(), DeltaSupport.ignoreCachedDataBreak("lake", "4.1.1", "4.2.0"), "Spark 4.1.1 still has it");
    assertEquals(Optional.empty(), DeltaSupport.ignoreCachedDataBreak("lake", "4.1.0", "4.2.0"));
    assertEquals(Optional.empty(), DeltaSupport.ignoreCachedDataBreak("lake", "4.1.3", "4.3.0"), "the fix");
    assertEquals(Optional.empty(), DeltaSupport.ignoreCachedDataBreak("lake", "4.1.3", "4.4.0"), "the 4.1 row");
    assertEquals(Optional.empty(), DeltaSupport.ignoreCachedDataBreak("lake", "4.2.0", "4.4.0"), "the 4.2 row");
    assertEquals(Optional.empty(), DeltaSupport.ignoreCachedDataBreak("lake", "4.0.2", "4.0.0"), "Amazon EMR 8.0");
  }

  /** AWS Glue 6.0 and 6.1: Delta 4.2.0 declares no generated or identity columns to Spark 4; Delta 4.4.0 does. */
  @Test
  void delta42OnSpark4CannotCreateGeneratedOrIdentityColumns() {
    String warning = DeltaSupport.columnCapabilitiesBreak("glue", "4.1.1", "4.2.0").orElseThrow();
    assertTrue(warning.startsWith("gluecat catalog 'glue': Delta Lake 4.2.0 on Spark 4.1.1 cannot create Delta "
        + "tables with generated or identity columns"), warning);
    assertTrue(warning.contains("Use Delta 4.4.0"), warning);
    assertEquals(1, DeltaSupport.knownBreaks("glue", "4.1.1", "4.2.0").size(), "AWS Glue 6.0");
    assertEquals(2, DeltaSupport.knownBreaks("glue", "4.1.3", "4.2.0").size(), "AWS Glue 6.1");
    assertEquals(Optional.empty(), DeltaSupport.columnCapabilitiesBreak("glue", "4.1.3", "4.4.0"));
    assertEquals(Optional.empty(), DeltaSupport.columnCapabilitiesBreak("glue", "3.5.6", "3.3.2"));
  }

  /**
   * Amazon EMR 8.0 (Delta 4.0.0 on Spark 4.0.2) and the Spark 4.0 row (4.0.1 on 4.0.1): the same break, but no
   * Delta for Spark 4.0 declares the columns, so the warning sends users to the builder or a later line.
   */
  @Test
  void delta40OnSpark40CannotCreateGeneratedOrIdentityColumnsAndNoDeltaUpgradeIsOffered() {
    String warning = DeltaSupport.columnCapabilitiesBreak("glue", "4.0.2", "4.0.0").orElseThrow();
    assertTrue(warning.startsWith("gluecat catalog 'glue': Delta Lake 4.0.0 on Spark 4.0.2 cannot create Delta "
        + "tables with generated or identity columns"), warning);
    assertTrue(warning.contains("No Delta release for Spark 4.0 declares them (Delta 4.4.0 needs Spark 4.1 or "
        + "later): use the 4.1 or 4.2 line for them, or create such tables with Delta's DeltaTable builder"), warning);
    assertFalse(warning.contains("Use Delta 4.4.0"), warning);
    assertEquals(List.of(DeltaSupport.purgeBreak("glue", "4.0.2", "4.0.0").orElseThrow(), warning),
        DeltaSupport.knownBreaks("glue", "4.0.2", "4.0.0"), "Amazon EMR 8.0");
    assertEquals(1, DeltaSupport.knownBreaks("glue", "4.0.1", "4.0.1").size(), "the Spark 4.0 row's own pair");
  }

  @Test
  void aLinkageErrorOfAPairWithoutAKnownBreakStandsAsItIs() {
    NoClassDefFoundError error = new NoClassDefFoundError("x/Y");
    assertSame(error, DeltaSupport.explain("glue", error), "the row's own pair has no known break");
    IllegalStateException other = new IllegalStateException("other");
    assertSame(other, DeltaSupport.explain("glue", other));
  }

  @Test
  void otherPairsAreNot() {
    assertEquals(List.of(), DeltaSupport.knownBreaks("glue", "3.5.9", "3.3.3"), "the 3.5 row");
    assertEquals(List.of(), DeltaSupport.knownBreaks("glue", "3.5.4", "3.3.0"), "AWS Glue 5.0");
    assertEquals(Optional.empty(), DeltaSupport.replaceBreak("glue", "4.1.1", "4.2.0"), "AWS Glue 6.0");
    assertEquals(List.of(), DeltaSupport.knownBreaks("glue", "3.5.9", null), "Delta absent");
  }

  /** None but on the Spark 4.0 row, for which no Delta release declares generated and identity columns. */
  @Test
  void theRowsOwnPairHasNoKnownBreakButSpark40sColumns() {
    String spark = io.gluecat.config.SparkEnvironment.sparkVersion();
    String delta = DeltaSupport.version();
    List<String> expected = spark.startsWith("4.0.")
        ? List.of(DeltaSupport.columnCapabilitiesBreak("glue", spark, delta).orElseThrow()) : List.of();
    assertEquals(expected, DeltaSupport.knownBreaks("glue", spark, delta));
  }
}
