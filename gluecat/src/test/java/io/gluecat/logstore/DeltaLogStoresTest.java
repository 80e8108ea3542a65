package io.gluecat.logstore;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The log store Delta resolves per S3 scheme, as LogStoreProvider and DelegatingLogStore do. */
class DeltaLogStoresTest {
  private static Function<String, Optional<String>> conf(Map<String, String> m) {
    return k -> Optional.ofNullable(m.get(k));
  }

  @Test
  void theNameUsedWithoutLoadingDeltaIsTheStoresName() {
    assertEquals(ConditionalLogStore.class.getName(), DeltaLogStores.CONDITIONAL);
  }

  @Test
  void withoutSettingsDeltaUsesTheSingleDriverStoreAndTheLogWarns() {
    assertEquals(DeltaLogStores.SINGLE_DRIVER, DeltaLogStores.resolve(conf(Map.of()), "s3a"));
    String line = DeltaLogStores.describe(conf(Map.of()), "glue", Optional.empty()).get(0);
    assertTrue(line.contains("s3a://") && line.contains("Several writers on one table"), line);
  }

  @Test
  void theSchemeSettingWithOrWithoutSparkPrefixAndTheClassSettingForAll() {
    String ours = ConditionalLogStore.class.getName();
    assertEquals(ours, DeltaLogStores.resolve(conf(Map.of("spark.delta.logStore.s3a.impl", ours)), "s3a"));
    assertEquals(DeltaLogStores.SINGLE_DRIVER,
        DeltaLogStores.resolve(conf(Map.of("spark.delta.logStore.s3a.impl", ours)), "s3"));
    assertEquals(ours, DeltaLogStores.resolve(conf(Map.of("delta.logStore.s3.impl", ours)), "s3"));
    assertEquals("x.All", DeltaLogStores.resolve(conf(Map.of("spark.delta.logStore.class", "x.All",
        "spark.delta.logStore.s3a.impl", ours)), "s3a"));
    String line = DeltaLogStores.describe(conf(Map.of("spark.delta.logStore.s3a.impl", ours)), "glue",
        Optional.empty()).get(0);
    assertEquals("catalog glue: Delta commits to s3a:// locations use " + ours, line);
  }

  /** Spark 4.0's Hadoop 3.4.1: the advice is not the store that would refuse every commit, and that store warns. */
  @Test
  void whereS3ACannotRunTheConditionalStoreTheLogSaysSoInsteadOfAdvisingIt() {
    Optional<String> missing = Optional.of("S3A's conditional create, which it needs, came with Hadoop 3.4.2; this is "
        + "Hadoop 3.4.1");
    String single = DeltaLogStores.describe(conf(Map.of()), "glue", missing).get(0);
    assertTrue(single.contains("; it keeps apart only writers in this JVM") && single.contains(
        "io.gluecat.logstore.ConditionalLogStore, which keeps them apart, cannot run here (S3A's conditional create, "
        + "which it needs, came with Hadoop 3.4.2; this is Hadoop 3.4.1): keep to one writing application per table"),
        single);
    assertFalse(single.contains("Set spark.delta.logStore"), single);
    String ours = ConditionalLogStore.class.getName();
    assertEquals("catalog glue: Delta commits to s3a:// locations use " + ours + "; it refuses every commit on this "
        + "S3A (S3A's conditional create, which it needs, came with Hadoop 3.4.2; this is Hadoop 3.4.1; "
        + "docs/troubleshooting.md)",
        DeltaLogStores.describe(conf(Map.of("spark.delta.logStore.s3a.impl", ours)), "glue", missing).get(0));
  }
}
