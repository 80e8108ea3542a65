package io.gluecat.entry;

import static io.gluecat.entry.EntryFormat.*;

import io.gluecat.compat.Scala;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.spark.sql.catalyst.catalog.CatalogColumnStat;
import org.apache.spark.sql.catalyst.catalog.CatalogColumnStat$;
import org.apache.spark.sql.catalyst.catalog.CatalogStatistics;
import scala.math.BigInt;

/**
 * Table and partition statistics in the shape Spark's Hive path stores them ({@code spark.sql.statistics.*}
 * parameters, docs/entry-format.md), both ways, as pure functions, so that Spark's Glue Hive client and gluecat
 * read each other's. Each column's own keys are Spark's ({@code CatalogColumnStat.toMap}/{@code fromMap}).
 */
public final class EntryStatistics {
  private EntryStatistics() {}

  /** Whether a parameter is one of the statistics. */
  public static boolean isStatistic(String key) {
    return key.startsWith(STATISTICS_PREFIX);
  }

  /** The statistics among an entry's (or a partition's) parameters; empty when it has no size. */
  public static Optional<CatalogStatistics> read(String table, Map<String, String> parameters) {
    String size = parameters.get(STATISTICS_TOTAL_SIZE);
    if (size == null) {
      return Optional.empty();
    }
    try {
      Map<String, String> columnKeys = new TreeMap<>();
      parameters.forEach((k, v) -> {
        if (k.startsWith(STATISTICS_COL_STATS_PREFIX)) {
          columnKeys.put(k.substring(STATISTICS_COL_STATS_PREFIX.length()), v);
        }
      });
      scala.collection.immutable.Map<String, String> keys = io.gluecat.compat.SparkCompat.scalaMap(columnKeys);
      Map<String, CatalogColumnStat> columns = new LinkedHashMap<>();
      String version = "." + CatalogColumnStat$.MODULE$.KEY_VERSION();
      for (String key : columnKeys.keySet()) {
        if (key.endsWith(version)) { // each column's stats end with their version, as Spark finds them
          String column = key.substring(0, key.length() - version.length());
          scala.Option<CatalogColumnStat> stat = CatalogColumnStat$.MODULE$.fromMap(table, column, keys);
          if (stat.isDefined()) {
            columns.put(column, stat.get());
          }
        }
      }
      String rows = parameters.get(STATISTICS_NUM_ROWS);
      return Optional.of(new CatalogStatistics(BigInt.apply(size.trim()),
          rows == null ? scala.Option.empty() : scala.Option.apply(BigInt.apply(rows.trim())),
          io.gluecat.compat.SparkCompat.scalaMap(columns)));
    } catch (NumberFormatException e) {
      return Optional.empty(); // a size another writer left unreadable: no statistics, as if none were stored
    }
  }

  /** The parameters that hold {@code stats}, as Spark's Hive path writes them. */
  public static Map<String, String> parameters(CatalogStatistics stats) {
    Map<String, String> out = new TreeMap<>();
    out.put(STATISTICS_TOTAL_SIZE, stats.sizeInBytes().toString());
    if (stats.rowCount().isDefined()) {
      out.put(STATISTICS_NUM_ROWS, stats.rowCount().get().toString());
    }
    Scala.javaMap(stats.colStats()).forEach((column, stat) -> Scala.javaMap(stat.toMap(column))
        .forEach((k, v) -> out.put(STATISTICS_COL_STATS_PREFIX + k, v)));
    return out;
  }

  /** {@code parameters} with their statistics replaced by {@code statistics} (none: every statistic removed). */
  public static Map<String, String> replaced(Map<String, String> parameters, Map<String, String> statistics) {
    Map<String, String> out = new LinkedHashMap<>();
    parameters.forEach((k, v) -> {
      if (!isStatistic(k)) {
        out.put(k, v);
      }
    });
    out.putAll(statistics);
    return out;
  }
}
