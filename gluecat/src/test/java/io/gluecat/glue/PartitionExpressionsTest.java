package io.gluecat.glue;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;

/**
 * Glue's expression grammar as gluecat writes it: its rules, and the expressions that select partitions by value
 * (a write's, SHOW PARTITIONS', partition DDL's). A scan's filters reach it through hive.PartitionFiltersTest.
 */
class PartitionExpressionsTest {
  private static final List<PartitionExpressions.Key> KEYS = PartitionExpressions.keys(List.of(
      Column.builder().name("region").type("string").build(), Column.builder().name("day").type("date").build(),
      Column.builder().name("shard").type("int").build()));

  private static Map<String, String> full(String region, String day, String shard) {
    return PartitionExpressions.spec(KEYS, List.of(region, day, shard));
  }

  private static Optional<List<String>> of(List<Map<String, String>> specs) {
    return PartitionExpressions.selecting(KEYS, specs);
  }

  @Test
  void namesEachPartitionByAllItsKeys() {
    assertEquals(Optional.of(List.of("(region = 'eu' AND day = '2026-12-01' AND shard = 7)")),
        of(List.of(full("eu", "2026-12-01", "7"))));
    assertEquals(Optional.of(List.of("(region = 'eu' AND day = '2026-12-01' AND shard = 7) OR "
        + "(region = 'us' AND day = '2026-12-02' AND shard = -1)")),
        of(List.of(full("eu", "2026-12-01", "7"), full("us", "2026-12-02", "-1"))));
    PartitionExpressions.Key one = new PartitionExpressions.Key("P", "STRING");
    assertEquals(Optional.of(List.of("p = 'x' OR p = 'y'")),
        PartitionExpressions.selecting(List.of(one), List.of(Map.of("P", "x"), Map.of("P", "y"))));
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
    assertEquals(Optional.empty(), PartitionExpressions.selecting(List.of(new PartitionExpressions.Key("at", "timestamp")),
        List.of(Map.of("at", "2026-12-01 00:00:00"))));
    assertEquals(Optional.empty(), PartitionExpressions.selecting(List.of(new PartitionExpressions.Key("end", "string")),
        List.of(Map.of("end", "x"))), "a word of Glue's parser");
    assertEquals(Optional.empty(), PartitionExpressions.selecting(List.of(new PartitionExpressions.Key("a-b", "string")),
        List.of(Map.of("a-b", "x"))));
    assertEquals(Optional.empty(), of(List.of(full("x".repeat(2100), "2026-12-01", "1"))), "past Glue's limit");
    assertTrue(PartitionExpressions.isReserved("Select"));
    assertFalse(PartitionExpressions.isReserved("region"));
  }

  @Test
  void selectsThePartitionsOfTheSpecsOnly() {
    List<String> eu = List.of("eu", "2026-12-01", "7");
    List<String> us = List.of("us", "2026-12-01", "7");
    assertTrue(PartitionExpressions.selected(eu, KEYS, List.of(full("eu", "2026-12-01", "7"))));
    assertFalse(PartitionExpressions.selected(us, KEYS, List.of(full("eu", "2026-12-01", "7"))));
    assertTrue(PartitionExpressions.selected(us, KEYS, List.of(Map.of("day", "2026-12-01"))));
    assertFalse(PartitionExpressions.selected(eu, KEYS, List.of(Map.of("shard", "07"))), "values compare as Glue keeps them");
    assertFalse(PartitionExpressions.selected(List.of("eu"), KEYS, List.of(Map.of("region", "eu"))));
  }

  @Test
  void glueComparesStringsDatesAndIntegersOnly() {
    for (String type : List.of("string", "int", "bigint", "smallint", "tinyint", "date", " STRING ")) {
      assertTrue(PartitionExpressions.isComparable(type), type);
    }
    for (String type : List.of("timestamp", "decimal(10,2)", "double", "boolean", "char(3)", "varchar(5)", "")) {
      assertFalse(PartitionExpressions.isComparable(type), type);
    }
    assertFalse(PartitionExpressions.isComparable(null));
  }

  @Test
  void aKeyIsNamedInLowerCaseWhenTheGrammarCanNameIt() {
    assertEquals(Optional.of("region"), PartitionExpressions.name(new PartitionExpressions.Key("Region", "string")));
    assertEquals(Optional.of("_k1"), PartitionExpressions.name(new PartitionExpressions.Key("_k1", "int")));
    assertEquals(Optional.empty(), PartitionExpressions.name(new PartitionExpressions.Key("END", "string")));
    assertEquals(Optional.empty(), PartitionExpressions.name(new PartitionExpressions.Key("1st", "string")));
    assertEquals(Optional.empty(), PartitionExpressions.name(new PartitionExpressions.Key("a b", "string")));
    assertEquals(Optional.empty(), PartitionExpressions.name(new PartitionExpressions.Key("at", "timestamp")));
  }

  /** Strings and dates quoted, integers bare; what a literal would have to escape has none. */
  @Test
  void literalsAreWrittenByTheKeysType() {
    PartitionExpressions.Key region = new PartitionExpressions.Key("region", "string");
    PartitionExpressions.Key day = new PartitionExpressions.Key("day", "date");
    PartitionExpressions.Key n = new PartitionExpressions.Key("n", "bigint");
    assertEquals(Optional.of("'eu'"), PartitionExpressions.literal(region, "eu"));
    assertEquals(Optional.of("'7'"), PartitionExpressions.literal(region, "7"));
    assertEquals(Optional.of("''"), PartitionExpressions.literal(region, ""));
    assertEquals(Optional.of("'2024-03-01'"), PartitionExpressions.literal(day, "2024-03-01"));
    assertEquals(Optional.of("-5000000000"), PartitionExpressions.literal(n, "-5000000000"));
    for (String bad : List.of("o'hare", "a\\b")) {
      assertEquals(Optional.empty(), PartitionExpressions.literal(region, bad), bad);
    }
    assertEquals(Optional.empty(), PartitionExpressions.literal(region, null));
    assertEquals(Optional.empty(), PartitionExpressions.literal(day, "+10000-01-01"));
    assertEquals(Optional.empty(), PartitionExpressions.literal(n, "1.5"));
    assertEquals(Optional.empty(), PartitionExpressions.literal(new PartitionExpressions.Key("at", "timestamp"),
        "2024-03-01 00:00:00"));
  }

  @Test
  void comparisonsListsAndTheirCombinations() {
    PartitionExpressions.Key region = new PartitionExpressions.Key("region", "string");
    PartitionExpressions.Key year = new PartitionExpressions.Key("year", "int");
    assertEquals(Optional.of("year >= 2020"), PartitionExpressions.comparison(year, ">=", "2020"));
    assertEquals(Optional.empty(), PartitionExpressions.comparison(year, "<>", "2020"),
        "not an operator gluecat writes");
    assertEquals(Optional.empty(),
        PartitionExpressions.comparison(new PartitionExpressions.Key("in", "int"), "=", "1"));
    assertEquals(Optional.of("region IN ('eu', 'us')"), PartitionExpressions.in(region, List.of("eu", "us")));
    assertEquals(Optional.empty(), PartitionExpressions.in(region, List.of()));
    assertEquals(Optional.empty(), PartitionExpressions.in(region, List.of("eu", "o'hare")));
    assertEquals("a = 1", PartitionExpressions.and(List.of("a = 1")));
    assertEquals("(a = 1) AND (b = 2 OR c = 3)", PartitionExpressions.and(List.of("a = 1", "b = 2 OR c = 3")));
    assertEquals("(a = 1) OR (b = 2)", PartitionExpressions.or("a = 1", "b = 2"));
  }

  /** Glue's limit counts UTF-8 bytes, not characters. */
  @Test
  void theLimitIsInBytes() {
    assertTrue(PartitionExpressions.fits("x".repeat(2048)));
    assertFalse(PartitionExpressions.fits("x".repeat(2049)));
    assertFalse(PartitionExpressions.fits("\u00e9".repeat(1025)));
    List<Map<String, String>> wide = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      wide.add(full("\u00e9".repeat(20) + i, "2026-01-01", "1"));
    }
    of(wide).orElseThrow().forEach(e -> assertTrue(PartitionExpressions.fits(e), e));
  }
}
