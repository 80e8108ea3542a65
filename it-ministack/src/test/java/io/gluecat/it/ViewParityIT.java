package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gluecat.it.spark.SparkCatalogParityTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * Views through gluecat against the same statements on Spark's own catalog (named mode here, session mode in
 * {@link SessionModeViewParityIT}): collation, schema binding and its write-back, analysis before anything is
 * written, and how DESCRIBE, SHOW CREATE TABLE and SHOW VIEWS present a view.
 */
class ViewParityIT extends SparkCatalogParityTest {

  private void assumeSpark4(String what) {
    assumeTrue(!spark().version().startsWith("3."), "Spark 3.5 has no " + what);
  }

  @Test
  void collationIsKeptAndBackOnRead() {
    assumeSpark4("collations");
    onBoth("CREATE TABLE {t} (c1 STRING COLLATE UTF8_LCASE, n INT) USING parquet",
        "INSERT INTO {t} VALUES ('a', 1), ('A', 2), ('b', 3)",
        "CREATE VIEW {v} DEFAULT COLLATION UTF8_LCASE AS SELECT c1, n, 'X' AS lit FROM {t}",
        "CREATE VIEW {w} AS SELECT * FROM {t} WHERE c1 = 'a'");
    assertSameOutcome("SELECT COUNT(*) FROM {w}");
    assertSameOutcome("SELECT COLLATION(c1), COLLATION(lit), COUNT(*) FROM {v} WHERE lit = 'x' "
        + "GROUP BY 1, 2");
    if (spark().version().startsWith("4.0") || spark().version().startsWith("4.1")) {
      // Spark 4.0's and 4.1's own catalog prints no DEFAULT COLLATION clause; gluecat prints it, so the DDL remakes
      // the view.
      Outcome[] both = both("SHOW CREATE TABLE {v}");
      assertEquals(both[0].seen(), both[1].seen().replace("DEFAULT COLLATION UTF8_LCASE\n", ""), both[1]::toString);
      assertTrue(both[1].seen().contains("DEFAULT COLLATION UTF8_LCASE"), both[1]::toString);
    } else {
      assertSameOutcome("SHOW CREATE TABLE {v}");
    }
    Table entry = glueTable(db, "v");
    assertEquals("UTF8_LCASE", entry.parameters().get("collation"), "the view's default collation");
    assertEquals("string collate utf8_lcase", entry.storageDescriptor().columns().get(0).type().toLowerCase(),
        "a collated column keeps its collation in the Glue column type");
  }

  @Test
  void schemaModesAreStoredAndEvolutionWritesTheNewSchemaBack() {
    assumeSpark4("view schema modes");
    onBoth("CREATE TABLE {t} (id INT, s STRING) USING parquet",
        "INSERT INTO {t} VALUES (1, 'a')",
        "CREATE VIEW {ev} WITH SCHEMA EVOLUTION AS SELECT * FROM {t}",
        "CREATE VIEW {te} WITH SCHEMA TYPE EVOLUTION AS SELECT id FROM {t}",
        "CREATE VIEW {bi} WITH SCHEMA BINDING AS SELECT id FROM {t}");
    assertEquals("EVOLUTION", glueTable(db, "ev").parameters().get("view.schemaMode"));
    assertEquals("TYPE EVOLUTION", glueTable(db, "te").parameters().get("view.schemaMode"));
    onBoth("DROP TABLE {t}", "CREATE TABLE {t} (id BIGINT, s STRING, extra DOUBLE) USING parquet",
        "INSERT INTO {t} VALUES (7, 'b', 0.5)");
    assertSameOutcome("SELECT * FROM {ev}");
    assertSameOutcome("SELECT * FROM {te}");
    assertSameOutcome("SELECT * FROM {bi}");
    assertSameOutcome("DESCRIBE {ev}");
    assertSameOutcome("DESCRIBE {te}");
    assertEquals("bigint", glueTable(db, "te").storageDescriptor().columns().get(0).type(),
        "the evolved type written back to Glue");
    assertEquals(3, glueTable(db, "ev").storageDescriptor().columns().size(), "the evolved columns written back");

    onBoth("ALTER VIEW {bi} WITH SCHEMA EVOLUTION");
    assertEquals("EVOLUTION", glueTable(db, "bi").parameters().get("view.schemaMode"));
    assertSameOutcome("SELECT * FROM {bi}");
    assertSameOutcome("SHOW CREATE TABLE {bi}");
    assertSameOutcome("SHOW CREATE TABLE {te}");
  }

  @Test
  void aQueryThatDoesNotAnalyzeWritesNothing() {
    onBoth("CREATE TABLE {t} (key INT, value STRING) USING parquet",
        "CREATE VIEW {ok} AS SELECT key FROM {t}");
    assertSameCondition("CREATE VIEW {bad} AS SELECT * FROM {t} GROUP BY key");
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "bad"));
    assertSameCondition("CREATE OR REPLACE VIEW {bad} AS SELECT nope FROM {t}");
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "bad"));
    assertSameCondition("ALTER VIEW {ok} AS SELECT * FROM {t} GROUP BY key");
    assertEquals("SELECT key FROM " + t("t"), glueTable(db, "ok").viewOriginalText(), "the view is unchanged");
  }

  /**
   * SHOW TABLE EXTENDED's rows without what differs for every gluecat entry (as DESCRIBE's rows in FileTableParityIT):
   * Glue keeps an owner where Spark's in-memory catalog keeps none, the creation times differ, and a named catalog's
   * name stands where Spark's catalog has spark_catalog.
   */
  private List<String> pinnedText(Outcome shown) {
    assertTrue(!shown.failed(), shown::toString);
    return shown.rows.stream().map(row -> row.replace("Catalog: " + catalog + "\n", "Catalog: spark_catalog\n")
        .replace("Namespace: " + catalog + ".", "Namespace: spark_catalog.")
        .replaceAll("\nOwner: [^\n]*", "").replaceAll("\nCreated Time: [^\n]*", "\nCreated Time: <pinned>"))
        .collect(java.util.stream.Collectors.toList());
  }

  @Test
  void describeShowCreateAndListingsAreSparks() {
    onBoth("CREATE TABLE {t} (id INT COMMENT 'the id', name STRING) USING parquet",
        "CREATE VIEW {v} (vid COMMENT 'view id', vname) COMMENT 'a view' TBLPROPERTIES ('team' = 'x') "
            + "AS SELECT id, name FROM {t}");
    assertSameOutcome("DESCRIBE {v}");
    assertSameOutcome("DESCRIBE {v} vid");
    if (sessionMode() || spark().version().startsWith("4.2")) {
      assertSameOutcome("DESC FORMATTED {v} vname");
    } else {
      // A limit (how-it-works.md, "Limits"): a named catalog's view column is described by Spark's v2 command on
      // 3.5 to 4.1, which prints the name, type and comment and none of the statistic rows Spark's own catalog adds
      // (all NULL for a view, which has no statistics).
      Outcome[] both = both("DESC FORMATTED {v} vname");
      assertEquals(both[0].rows.subList(0, 3), both[1].rows, () -> both[0] + " / " + both[1]);
      assertEquals(List.of("min", "max", "num_nulls", "distinct_count", "avg_col_len", "max_col_len", "histogram"),
          both[0].rows.subList(3, both[0].rows.size()).stream()
              .map(row -> row.endsWith(",NULL]") ? row.substring(1, row.indexOf(',')) : row)
              .collect(java.util.stream.Collectors.toList()));
    }
    assertSameOutcome("SHOW CREATE TABLE {v}");
    assertSameOutcome("SHOW CREATE TABLE {v} AS SERDE");
    if (sessionMode()) { // a named catalog's view is described by Spark's own v2 rendering
      assertSameOutcome("DESCRIBE EXTENDED {v}", row -> row.matches("\\[(Created Time|Last Access|Created By|"
        + "Owner|View Catalog and Namespace|View Query Output Columns|Table Properties).*"));
    }
    // gluecat's extension prints Spark's V1 text for a Glue view too (Spark 4's V2 command found none, 3.5's refused)
    Outcome[] extended = both("SHOW TABLE EXTENDED IN {db} LIKE 'v'");
    assertEquals(pinnedText(extended[0]), pinnedText(extended[1]), "SHOW TABLE EXTENDED of a view through gluecat ("
        + catalogMode() + " mode)");
    assertTrue(extended[1].rows.get(0).contains("\nCreated Time: ") && !extended[1].rows.get(0).contains(" 1970\n"),
        "the view's creation time is Glue's: " + extended[1]);
    if (!sessionMode()) {
      return; // SHOW VIEWS of a named catalog lists its views only: temporary views belong to spark_catalog
    }
    onBoth("CREATE OR REPLACE TEMPORARY VIEW parity_tmp AS SELECT 1 AS one");
    try {
      // The two sides are two sessions of one shared Spark: other suites' temporary views are the control's only.
      java.util.function.Predicate<String> othersTemporary = row -> row.endsWith(",true]") && !row.contains("parity_tmp");
      assertSameOutcome("SHOW VIEWS IN {db}", othersTemporary);
      assertSameOutcome("SHOW TABLES IN {db}", othersTemporary);
      assertSameOutcome("SHOW TABLES IN {db} LIKE 'v*|t'", othersTemporary);
    } finally {
      onSpark(() -> spark().sql("DROP VIEW IF EXISTS parity_tmp").collectAsList());
      session().sql("DROP VIEW IF EXISTS parity_tmp").collectAsList();
    }
  }
}
