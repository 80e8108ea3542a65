package io.gluecat.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.compat.SparkCompat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.catalog.CatalogColumnStat;
import org.apache.spark.sql.catalyst.catalog.CatalogStatistics;
import org.junit.jupiter.api.Test;
import scala.Option;
import scala.math.BigInt;

/** Statistics in the entry's parameters, in the keys Spark's Hive path (HiveExternalCatalog) writes and reads. */
class EntryStatisticsTest {
  private static CatalogStatistics analyzed() {
    CatalogColumnStat a = new CatalogColumnStat(Option.apply(BigInt.apply(3)), Option.apply("1"), Option.apply("3"),
        Option.apply(BigInt.apply(0)), Option.<Object>apply(4L), Option.<Object>apply(4L), Option.empty(), 2);
    return new CatalogStatistics(BigInt.apply(1961), Option.apply(BigInt.apply(3)),
        SparkCompat.scalaMap(Map.of("a", a)));
  }

  @Test
  void writesSparksKeys() {
    assertEquals(new TreeMap<>(Map.of(
        "spark.sql.statistics.totalSize", "1961",
        "spark.sql.statistics.numRows", "3",
        "spark.sql.statistics.colStats.a.version", "2",
        "spark.sql.statistics.colStats.a.distinctCount", "3",
        "spark.sql.statistics.colStats.a.min", "1",
        "spark.sql.statistics.colStats.a.max", "3",
        "spark.sql.statistics.colStats.a.nullCount", "0",
        "spark.sql.statistics.colStats.a.avgLen", "4",
        "spark.sql.statistics.colStats.a.maxLen", "4")), EntryStatistics.parameters(analyzed()));
  }

  @Test
  void readsWhatItWrites() {
    Map<String, String> parameters = new TreeMap<>(EntryStatistics.parameters(analyzed()));
    parameters.put("spark.sql.sources.provider", "parquet");
    assertEquals(Optional.of(analyzed()), EntryStatistics.read("t", parameters));
  }

  @Test
  void aSizeAloneIsNoscansStatistics() {
    CatalogStatistics read = EntryStatistics.read("t", Map.of("spark.sql.statistics.totalSize", "10")).orElseThrow();
    assertEquals(BigInt.apply(10), read.sizeInBytes());
    assertTrue(read.rowCount().isEmpty() && read.colStats().isEmpty(), read::toString);
  }

  @Test
  void noSizeOrAnUnreadableOneIsNoStatistics() {
    assertEquals(Optional.empty(), EntryStatistics.read("t", Map.of("spark.sql.statistics.numRows", "3")));
    assertEquals(Optional.empty(), EntryStatistics.read("t", Map.of("spark.sql.statistics.totalSize", "many")));
  }

  @Test
  void replacingDropsEveryOldStatisticAndKeepsTheRest() {
    Map<String, String> before = Map.of("spark.sql.statistics.totalSize", "1", "spark.sql.statistics.colStats.b.version",
        "2", "trino_x", "kept");
    assertEquals(Map.of("trino_x", "kept", "spark.sql.statistics.totalSize", "5"),
        EntryStatistics.replaced(before, Map.of("spark.sql.statistics.totalSize", "5")));
    assertEquals(Map.of("trino_x", "kept"), EntryStatistics.replaced(before, Map.of()));
  }
}
