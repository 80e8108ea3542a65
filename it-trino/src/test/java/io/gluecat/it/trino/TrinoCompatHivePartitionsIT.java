package io.gluecat.it.trino;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.partitions.PartitionSync;
import io.gluecat.testkit.compat.CompatCase;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * gluecat writes partitioned parquet and orc tables; Trino's Hive connector, on the same Glue databases, reads
 * every row. It takes a Hive table's partitions from Glue's partition objects only (an entry without them reads
 * as empty, without an error), so this is what gluecat's partition sync is for (issue 16).
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
  @CompatCase(id = "file-partitioned-sql-insert-then-sync", writer = "gluecat", reader = "trino-hive",
      title = "Partitions added by Spark SQL INSERT reach Trino's Hive connector after PartitionSync.sync",
      limit = "Spark's SQL INSERT into a non-Delta table writes without telling the catalog: its new partitions "
          + "are read by Trino's Hive connector and Athena only after the on-demand sync")
  void sqlInsertedPartitionsReachTrinoAfterTheSync() throws Exception {
    run("CREATE TABLE " + t("visits") + " (id BIGINT, day STRING) USING parquet PARTITIONED BY (day)");
    run("INSERT INTO " + t("visits") + " VALUES (1, 'd1'), (2, 'd2')");
    assertEquals(List.of("[0]"), trinoRows("SELECT count(*) FROM " + hiveName("visits")));
    assertEquals(2, PartitionSync.sync(catalog, db + ".visits").created());
    assertEquals(List.of("[1, d1]", "[2, d2]"), trinoRows("SELECT id, day FROM " + hiveName("visits") + " ORDER BY id"));
  }
}
