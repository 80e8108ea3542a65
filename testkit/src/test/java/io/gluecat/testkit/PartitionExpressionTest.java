package io.gluecat.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Glue's expression grammar as the recorder's emulation reads it, on partitions of three typed keys. */
class PartitionExpressionTest {
  static final List<Map.Entry<String, String>> KEYS =
      List.of(Map.entry("region", "string"), Map.entry("year", "int"), Map.entry("day", "date"));
  static final List<List<String>> PARTITIONS = List.of(
      List.of("eu", "9", "2024-01-01"),
      List.of("eu", "10", "2024-01-02"),
      List.of("us", "2024", "2024-02-01"),
      List.of("us-west", "__HIVE_DEFAULT_PARTITION__", "2023-12-31"));

  /** The indexes of the partitions the expression selects. */
  static List<Integer> selected(String expression) {
    PartitionExpression e = PartitionExpression.parse(expression, KEYS);
    return java.util.stream.IntStream.range(0, PARTITIONS.size()).filter(i -> e.matches(PARTITIONS.get(i)))
        .boxed().toList();
  }

  @Test
  void comparisonsReadLiteralsAsTheKeysTypes() {
    assertEquals(List.of(0), selected("year < 10"), "ints compare as numbers, not as text");
    assertEquals(List.of(0), selected("year < '10'"), "a quoted int literal is an int too");
    assertEquals(List.of(1, 2), selected("year >= 10"));
    assertEquals(List.of(0, 1, 3), selected("day <= '2024-01-02'"));
    assertEquals(List.of(2, 3), selected("day > '2024-01-02' OR day < '2024-01-01'"));
    assertEquals(List.of(2), selected("region = 'us'"));
    assertEquals(List.of(2, 3), selected("region > 'eu'"));
    assertEquals(List.of(0, 1), selected("REGION <> 'us' AND region != 'us-west'"), "keys ignore case");
    assertEquals(List.of(0), selected("10 > year"), "a literal on the left");
  }

  @Test
  void betweenInAndOrNotAndParentheses() {
    assertEquals(List.of(1, 2), selected("year BETWEEN 10 AND 2024"));
    assertEquals(List.of(0), selected("year NOT BETWEEN 10 AND 2024"), "unknown values match neither");
    assertEquals(List.of(0, 2), selected("year IN (9, 2024)"));
    assertEquals(List.of(0, 2), selected("day IN ('2024-01-01', '2024-02-01')"));
    assertEquals(List.of(1, 3), selected("(region = 'eu' AND year = 10) OR (region = 'us-west')"));
    assertEquals(List.of(1), selected("region NOT IN ('us', 'us-west') AND NOT (year = 9)"));
    assertEquals(List.of(1), selected("(region = 'eu') AND ((year = 10) OR (year = 2024))"));
    assertEquals(List.of(2), selected("NOT region = 'eu' AND year > 0"));
    assertEquals(List.of(0, 1), selected("region LIKE 'e%'"));
    assertEquals(List.of(2, 3), selected("region like 'u_%'"));
    assertEquals(List.of(), selected("region IS NULL"));
    assertEquals(List.of(0, 1, 2, 3), selected("region IS NOT NULL"));
    assertEquals(List.of(3), selected("region = 'us-west' AND day = '2023-12-31'"));
  }

  @Test
  void whatGlueRefusesIsInvalidInputNamingTheProblem() {
    for (String[] bad : new String[][] {
        {"region = 'eu", "unterminated"},
        {"region = 'eu' AND", "end"},
        {"region == 'eu'", "'='"},
        {"(region = 'eu'", "expected )"},
        {"city = 'x'", "'city' is not a partition key"},
        {"year = 'abc'", "'abc' is not a int"},
        {"day < '2024-13-01'", "is not a date"},
        {"region = year", "literal"},
        {"year LIKE '1%'", "LIKE"},
        {"region ; DROP", "unexpected character ';'"}}) {
      PartitionExpression.Invalid e = assertThrows(PartitionExpression.Invalid.class,
          () -> PartitionExpression.parse(bad[0], KEYS), bad[0]);
      assertTrue(e.getMessage().contains(bad[1]) && e.getMessage().contains(bad[0]), e.getMessage());
    }
    assertThrows(PartitionExpression.Invalid.class,
        () -> PartitionExpression.parse("f = 1.5", List.of(Map.entry("f", "double"))), "a key type Glue does not compare");
  }
}
