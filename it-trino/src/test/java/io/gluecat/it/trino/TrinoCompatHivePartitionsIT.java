package io.gluecat.it.trino;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.testkit.compat.CompatCase;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * gluecat writes partitioned parquet and orc tables; Trino's Hive connector, on the same Glue databases, reads
 * every row. It takes a Hive table's partitions from Glue's partition objects only (an entry without them reads
 * as empty, without an error), so this is what gluecat's partition sync is for (issue 16), after every write
 * of the session, SQL INSERT included (issue 36).
 */
class TrinoCompatHivePartitionsIT extends TrinoCompatTest {

  private String hiveName(String table) {
    return TRINO_HIVE + "." + db + "." + table;
  }

  @Test
  @CompatCase(id = "parquet-partitioned-read-by-hive", writer = "gluecat", reader = "trino-hive",
      title = "Partitioned parquet table (CTAS, then insertInto) read by Trino's Hive connector: every row")
  void trinoHiveReadsEveryRowOfAPartitionedParquetTable() {
    readsEveryRow("parquet");
  }

  @Test
  @CompatCase(id = "orc-partitioned-read-by-hive", writer = "gluecat", reader = "trino-hive",
      title = "Partitioned orc table (CTAS, then insertInto) read by Trino's Hive connector: every row")
  void trinoHiveReadsEveryRowOfAPartitionedOrcTable() {
    readsEveryRow("orc");
  }

  private void readsEveryRow(String provider) {
    String table = "sales_" + provider;
    run("CREATE TABLE " + t(table) + " USING " + provider + " PARTITIONED BY (region) AS "
        + "SELECT id, id * 1.5 AS amount, CASE WHEN id % 2 = 0 THEN 'eu' ELSE 'us' END AS region FROM range(6)");
    assertEquals(List.of("[eu, 3]", "[us, 3]"),
        trinoRows("SELECT region, count(*) FROM " + hiveName(table) + " GROUP BY region ORDER BY region"));

    // a later DataFrameWriter insertInto adds a partition, which gluecat adds to Glue in the same statement
    session.range(10, 12).selectExpr("id", "id * 1.5 AS amount", "'apac' AS region").write().insertInto(t(table));
    assertEquals(List.of("[0, 0.0, eu]", "[1, 1.5, us]", "[2, 3.0, eu]", "[3, 4.5, us]", "[4, 6.0, eu]",
        "[5, 7.5, us]", "[10, 15.0, apac]", "[11, 16.5, apac]"),
        trinoRows("SELECT id, amount, region FROM " + hiveName(table) + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "file-partitioned-sql-insert-read-by-hive", writer = "gluecat", reader = "trino-hive",
      title = "Partitioned parquet table written by SQL INSERT INTO and INSERT OVERWRITE (static and dynamic "
          + "partitions) read by Trino's Hive connector right after each statement: every row")
  void trinoHiveReadsEveryRowRightAfterSqlInserts() {
    run("CREATE TABLE " + t("visits") + " (id BIGINT, region STRING, day STRING) USING parquet "
        + "PARTITIONED BY (region, day)");
    run("INSERT INTO " + t("visits") + " VALUES (1, 'eu', 'd1'), (2, 'us', 'd2')");
    assertEquals(List.of("[1, eu, d1]", "[2, us, d2]"),
        trinoRows("SELECT id, region, day FROM " + hiveName("visits") + " ORDER BY id"));
    run("INSERT INTO " + t("visits") + " PARTITION (region = 'ap', day = 'd3') SELECT 3");
    run("INSERT OVERWRITE " + t("visits") + " PARTITION (region = 'us', day) SELECT 4, 'd4'");
    assertEquals(List.of("[1, eu, d1]", "[3, ap, d3]", "[4, us, d4]"),
        trinoRows("SELECT id, region, day FROM " + hiveName("visits") + " ORDER BY id"));
    session.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    try {
      run("INSERT OVERWRITE " + t("visits") + " VALUES (5, 'eu', 'd1'), (6, 'eu', 'd5')");
    } finally {
      session.conf().unset("spark.sql.sources.partitionOverwriteMode");
    }
    assertEquals(List.of("[3, ap, d3]", "[4, us, d4]", "[5, eu, d1]", "[6, eu, d5]"),
        trinoRows("SELECT id, region, day FROM " + hiveName("visits") + " ORDER BY id"));
  }
}
