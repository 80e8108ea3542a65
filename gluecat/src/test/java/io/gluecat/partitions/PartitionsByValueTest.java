package io.gluecat.partitions;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.Partition;

/** The GetPartitions expressions a write asks Glue for the partitions it touched with, and what they select. */
class PartitionsByValueTest {
  private static final List<PartitionsByValue.Key> KEYS = PartitionsByValue.keys(List.of(
      Column.builder().name("region").type("string").build(), Column.builder().name("day").type("date").build(),
      Column.builder().name("shard").type("int").build()));

  private static Map<String, String> full(String region, String day, String shard) {
    return PartitionsByValue.spec(KEYS, List.of(region, day, shard));
  }

  private static Optional<List<String>> of(List<Map<String, String>> specs) {
    return PartitionsByValue.expressions(KEYS, specs);
  }

  @Test
  void namesEachPartitionByAllItsKeys() {
    assertEquals(Optional.of(List.of("(region = 'eu' AND day = '2026-12-01' AND shard = 7)")),
        of(List.of(full("eu", "2026-12-01", "7"))));
    assertEquals(Optional.of(List.of("(region = 'eu' AND day = '2026-12-01' AND shard = 7) OR "
        + "(region = 'us' AND day = '2026-12-02' AND shard = -1)")),
        of(List.of(full("eu", "2026-12-01", "7"), full("us", "2026-12-02", "-1"))));
    PartitionsByValue.Key one = new PartitionsByValue.Key("P", "STRING");
    assertEquals(Optional.of(List.of("p = 'x' OR p = 'y'")),
        PartitionsByValue.expressions(List.of(one), List.of(Map.of("P", "x"), Map.of("P", "y"))));
  }

  /** A static overwrite's values name some keys: every partition with those values is selected. */
  @Test
  void aPartialSpecNamesItsKeysOnly() {
    assertEquals(Optional.of(List.of("region = 'eu'")), of(List.of(Map.of("region", "eu"))));
    assertEquals(Optional.of(List.of("(region = 'eu' AND shard = 3)")),
        of(List.of(Map.of("shard", "3", "region", "eu"))));
  }

  @Test
  void manyPartitionsTakeSeveralExpressionsEachWithinGluesLimit() {
    List<Map<String, String>> specs = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      specs.add(full("region" + i, "2026-01-01", String.valueOf(i)));
    }
    List<String> expressions = of(specs).orElseThrow();
    assertTrue(expressions.size() > 1, expressions.toString());
    expressions.forEach(e -> assertTrue(e.getBytes(StandardCharsets.UTF_8).length <= 2048, e));
    assertEquals(200, expressions.stream().mapToInt(e -> e.split(" OR ").length).sum());
    assertTrue(String.join(" OR ", expressions).startsWith("(region = 'region0' AND day = '2026-01-01' AND shard = 0)"));
  }

  /** Where Glue's grammar cannot name the partitions, there is no expression: the caller lists them all. */
  @Test
  void whatGlueCannotSayListsEverything() {
    assertEquals(Optional.empty(), of(List.of()));
    assertEquals(Optional.empty(), of(List.of(Map.of())), "a spec of no key selects every partition");
    assertEquals(Optional.empty(), of(List.of(full("__HIVE_DEFAULT_PARTITION__", "2026-12-01", "1"))));
    assertEquals(Optional.empty(), of(List.of(full("o'brien", "2026-12-01", "1"))));
    assertEquals(Optional.empty(), of(List.of(full("a\\b", "2026-12-01", "1"))));
    assertEquals(Optional.empty(), of(List.of(full("eu", "2026-12-01", "x"))), "not an int");
    assertEquals(Optional.empty(), of(List.of(full("eu", "Dec 1", "1"))), "not a date");
    assertEquals(Optional.empty(), PartitionsByValue.expressions(List.of(new PartitionsByValue.Key("at", "timestamp")),
        List.of(Map.of("at", "2026-12-01 00:00:00"))));
    assertEquals(Optional.empty(), PartitionsByValue.expressions(List.of(new PartitionsByValue.Key("end", "string")),
        List.of(Map.of("end", "x"))), "a word of Glue's parser");
    assertEquals(Optional.empty(), PartitionsByValue.expressions(List.of(new PartitionsByValue.Key("a-b", "string")),
        List.of(Map.of("a-b", "x"))));
    assertEquals(Optional.empty(), of(List.of(full("x".repeat(2100), "2026-12-01", "1"))), "past Glue's limit");
    assertTrue(PartitionsByValue.isReserved("Select"));
    assertFalse(PartitionsByValue.isReserved("region"));
  }

  @Test
  void selectsThePartitionsOfTheSpecsOnly() {
    Partition eu = Partition.builder().values("eu", "2026-12-01", "7").build();
    Partition us = Partition.builder().values("us", "2026-12-01", "7").build();
    assertTrue(PartitionsByValue.selected(eu, KEYS, List.of(full("eu", "2026-12-01", "7"))));
    assertFalse(PartitionsByValue.selected(us, KEYS, List.of(full("eu", "2026-12-01", "7"))));
    assertTrue(PartitionsByValue.selected(us, KEYS, List.of(Map.of("day", "2026-12-01"))));
    assertFalse(PartitionsByValue.selected(eu, KEYS, List.of(Map.of("shard", "07"))), "values compare as Glue keeps them");
    assertFalse(PartitionsByValue.selected(Partition.builder().values("eu").build(), KEYS, List.of(Map.of("region", "eu"))));
  }
}
