package io.gluecat.it.trino;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.entries.HostileEntries;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.glue.model.Table;
import org.junit.jupiter.api.Test;

/**
 * gluecat writes Delta tables into Glue; Trino's Delta Lake connector, on the same Glue databases, reads them by
 * name. Named mode here; {@link TrinoCompatSessionModeIT} runs every case again with gluecat as spark_catalog.
 */
class TrinoCompatGluecatToTrinoIT extends TrinoCompatTest {

  @Test
  @CompatCase(id = "delta-read-by-name", writer = "gluecat", reader = "trino-delta",
      title = "Delta table read by name: rows, SHOW TABLES, DESCRIBE with the real columns")
  void trinoReadsAGluecatDeltaTableByName() {
    run("CREATE TABLE " + t("orders") + " (id BIGINT, item STRING, amount DOUBLE) USING delta");
    run("INSERT INTO " + t("orders") + " VALUES (1, 'apple', 1.5), (2, 'pear', 2.25)");
    // location.map: gluecat wrote the table under the directory it opens, and stored it as Trino names it
    String location = glueTable(db, "orders").storageDescriptor().location();
    assertTrue(location.startsWith("local:///data/" + db + "/orders"), location);

    assertEquals(List.of("[1, apple, 1.5]", "[2, pear, 2.25]"),
        trinoRows("SELECT id, item, amount FROM " + trinoName("orders") + " ORDER BY id"));
    assertTrue(trinoRows("SHOW TABLES FROM " + TRINO_LOCAL + "." + db).contains("[orders]"));
    assertEquals(List.of("[id, bigint]", "[item, varchar]", "[amount, double]"),
        trinoRows("SELECT column_name, data_type FROM " + TRINO_LOCAL + ".information_schema.columns WHERE table_schema = '"
            + db + "' AND table_name = 'orders' ORDER BY ordinal_position"));
    assertEquals(List.of("id", "item", "amount"), trinoRows("DESCRIBE " + trinoName("orders")).stream()
        .map(r -> r.substring(1, r.indexOf(','))).toList());
  }

  @Test
  @CompatCase(id = "delta-later-appends", writer = "gluecat", reader = "trino-delta",
      title = "Rows appended after the reader first read the table")
  void trinoSeesRowsGluecatAddsLater() {
    run("CREATE TABLE " + t("events") + " USING delta AS SELECT id, concat('e', id) AS name FROM range(3)");
    assertEquals(List.of("[3]"), trinoRows("SELECT count(*) FROM " + trinoName("events")));

    run("INSERT INTO " + t("events") + " VALUES (10, 'late')");
    assertEquals(List.of("[4]"), trinoRows("SELECT count(*) FROM " + trinoName("events")));
    assertEquals(List.of("[10, late]"), trinoRows("SELECT id, name FROM " + trinoName("events") + " WHERE id = 10"));
  }

  @Test
  @CompatCase(id = "delta-partitioned-ctas", writer = "gluecat", reader = "trino-delta",
      title = "Partitioned Delta table created with CTAS")
  void trinoReadsAPartitionedCtas() {
    run("CREATE TABLE " + t("daily") + " USING delta PARTITIONED BY (day) AS "
        + "SELECT id, CASE WHEN id < 2 THEN 'd1' ELSE 'd2' END AS day FROM range(5)");

    assertEquals(List.of("[0, d1]", "[1, d1]"),
        trinoRows("SELECT id, day FROM " + trinoName("daily") + " WHERE day = 'd1' ORDER BY id"));
    assertEquals(List.of("[d1, 2]", "[d2, 3]"),
        trinoRows("SELECT day, count(*) FROM " + trinoName("daily") + " GROUP BY day ORDER BY day"));
    String ddl = trinoRows("SHOW CREATE TABLE " + trinoName("daily")).get(0);
    assertTrue(ddl.contains("partitioned_by = ARRAY['day']"), ddl);
  }

  @Test
  @CompatCase(id = "delta-converted", writer = "gluecat", reader = "trino-delta",
      title = "Partitioned parquet table after CONVERT TO DELTA (gluecat's session extension)")
  void trinoReadsAConvertedTable() {
    run("CREATE TABLE " + t("legacy") + " (id BIGINT, day STRING) USING parquet PARTITIONED BY (day)");
    run("INSERT INTO " + t("legacy") + " VALUES (1, 'd1'), (2, 'd2'), (3, 'd2')");
    run("CONVERT TO DELTA " + t("legacy"));

    assertEquals(List.of("[d1, 1]", "[d2, 2]"),
        trinoRows("SELECT day, count(*) FROM " + trinoName("legacy") + " GROUP BY day ORDER BY day"));
    String ddl = trinoRows("SHOW CREATE TABLE " + trinoName("legacy")).get(0);
    assertTrue(ddl.contains("partitioned_by = ARRAY['day']"), ddl);
  }

  @Test
  @CompatCase(id = "delta-after-replace", writer = "gluecat", reader = "trino-delta",
      title = "Delta table after CREATE OR REPLACE TABLE ... AS SELECT with a new schema")
  void trinoReadsAfterReplace() {
    run("CREATE TABLE " + t("swap") + " USING delta AS SELECT id FROM range(3)");
    assertEquals(List.of("[3]"), trinoRows("SELECT count(*) FROM " + trinoName("swap")));

    run("CREATE OR REPLACE TABLE " + t("swap") + " USING delta AS SELECT 'x' AS code, 7 AS n");
    assertEquals(List.of("[x, 7]"), trinoRows("SELECT * FROM " + trinoName("swap")));
    assertEquals(List.of("code", "n"), trinoRows("DESCRIBE " + trinoName("swap")).stream()
        .map(r -> r.substring(1, r.indexOf(','))).toList());
  }

  @Test
  @CompatCase(id = "delta-after-add-columns", writer = "gluecat", reader = "trino-delta",
      title = "Delta table after ALTER TABLE ADD COLUMNS")
  void trinoReadsAfterAddColumns() {
    run("CREATE TABLE " + t("grow") + " (id BIGINT) USING delta");
    run("INSERT INTO " + t("grow") + " VALUES (1)");
    assertEquals(List.of("[1]"), trinoRows("SELECT * FROM " + trinoName("grow")));

    run("ALTER TABLE " + t("grow") + " ADD COLUMNS (note STRING)");
    run("INSERT INTO " + t("grow") + " VALUES (2, 'two')");
    assertEquals(List.of("[1, null]", "[2, two]"), trinoRows("SELECT id, note FROM " + trinoName("grow") + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "view-read-by-trino-hive", writer = "gluecat", reader = "trino-hive",
      title = "gluecat view over a parquet table, its table named <database>.<table>, read by Trino's Hive "
          + "connector with hive.hive-views.enabled")
  void trinoHiveReadsAGluecatView() {
    createViewOverSales("big_sales", db + ".sales");
    assertEquals(List.of("[2, 20]", "[3, 30]"),
        trinoRows("SELECT id, amount FROM " + TRINO_HIVE + "." + db + ".big_sales ORDER BY id"));
  }

  @Test
  @CompatCase(id = "view-unqualified-read-by-trino-hive", writer = "gluecat", reader = "trino-hive",
      title = "gluecat view whose table name has no database, read by Trino's Hive connector",
      limit = "Trino translates a Hive view's text without Spark's recorded catalog and namespace: a table named "
          + "without its database is looked up in database default. Name a view's tables <database>.<table> for "
          + "Trino (Spark, gluecat and Spark's Hive path resolve either form)")
  void trinoHiveResolvesAViewsUnqualifiedNamesInDefault() {
    createViewOverSales("big_sales", "sales");
    TrinoQueryException e = assertThrows(TrinoQueryException.class,
        () -> trinoRows("SELECT id, amount FROM " + TRINO_HIVE + "." + db + ".big_sales"));
    assertTrue(e.getMessage().contains("Failed to translate Hive view") && e.getMessage().contains("'default'"),
        e.getMessage());
  }

  /** A parquet table {@code sales} (id, amount = id * 10 for ids 0 to 3) and a view of its rows with amount >= 20. */
  private void createViewOverSales(String view, String salesName) {
    run("CREATE TABLE " + t("sales") + " USING parquet AS SELECT id, id * 10 AS amount FROM range(4)");
    run("USE " + database());
    try {
      run("CREATE VIEW " + view + " AS SELECT id, amount FROM " + salesName + " WHERE amount >= 20");
    } finally {
      if (!sessionMode()) {
        run("USE spark_catalog.default"); // the shared session's; a session-mode session is the test's own
      }
    }
    assertEquals(List.of("[2,20]", "[3,30]"), rows("SELECT id, amount FROM " + t(view) + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "hive-delta-repaired", writer = "spark-hive-path", reader = "trino-delta",
      title = "Delta CTAS entry of the Hive path (placeholder location and columns) after gluecat repair")
  void trinoReadsAHivePathEntryAfterRepair() {
    run("CREATE TABLE " + t("legacy") + " USING delta AS SELECT id, concat('n', id) AS name FROM range(3)");
    String location = glueTable(db, "legacy").storageDescriptor().location();
    // the entry as Spark's Hive path leaves a Delta CTAS with LOCATION
    GLUE.deleteTable(r -> r.databaseName(db).name("legacy"));
    GLUE.createTable(r -> r.databaseName(db).tableInput(HostileEntries.base(HostileEntries.Base.HIVE_PATH_DELTA_CTAS,
        "legacy", new HostileEntries.Locations(location, location, location, dbLocation))));

    List<String> args = new ArrayList<>(List.of("repair", db, "legacy"));
    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    options.put("location.map", "local:///=file:" + localRoot() + "/");
    options.forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    assertEquals(0, io.gluecat.tools.Main.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), System.err),
        out.toString(StandardCharsets.UTF_8));

    Table repaired = glueTable(db, "legacy");
    assertEquals("DELTA", repaired.parameters().get("table_type"));
    assertEquals(location, repaired.storageDescriptor().location());
    assertEquals(List.of("[0, n0]", "[1, n1]", "[2, n2]"),
        trinoRows("SELECT id, name FROM " + trinoName("legacy") + " ORDER BY id"));
    assertEquals(List.of("[id, bigint]", "[name, varchar]"),
        trinoRows("SELECT column_name, data_type FROM " + TRINO_LOCAL + ".information_schema.columns WHERE table_schema = '"
            + db + "' AND table_name = 'legacy' ORDER BY ordinal_position"));
  }
}
