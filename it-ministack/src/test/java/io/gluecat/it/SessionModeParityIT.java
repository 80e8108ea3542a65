package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gluecat.it.spark.SparkCatalogParityTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Session mode (gluecat as spark_catalog) against Spark's own catalog: functions, the options and properties
 * DESCRIBE and SHOW print, and error conditions. Names without braces run as they are on both sides.
 */
class SessionModeParityIT extends SparkCatalogParityTest {

  @Override
  protected boolean sessionMode() {
    return true;
  }

  /** Builtins, unknown names (Spark's UNRESOLVED_ROUTINE, not a missing ability) and SHOW/DESCRIBE FUNCTION. */
  @Test
  void builtinAndUnknownFunctions() {
    assertSameOutcome("SELECT abs(-1), upper('a')");
    assertSameOutcome("SELECT no_such_function(1)");
    assertSameOutcome("SELECT {db}.no_such_function(1)");
    assertSameOutcome("SHOW FUNCTIONS LIKE 'abs'");
    assertSameOutcome("DESCRIBE FUNCTION abs");
    assertSameOutcome("DESCRIBE FUNCTION no_such_function");
    assertSameOutcome("DROP FUNCTION no_such_function");
  }

  /**
   * SQL functions, temporary and persistent: persistent ones live in Spark's built-in catalog (its
   * {@code default} database here, which both sides' built-in catalog shares), as docs/how-it-works.md says.
   */
  @Test
  void sqlFunctions() {
    assumeTrue(!spark().version().startsWith("3."), "Spark 3.5 has no SQL functions (CREATE FUNCTION ... RETURN arrives in 4.0)");
    String temp = unique("tf");
    onBoth("CREATE TEMPORARY FUNCTION " + temp + "(x INT) RETURNS INT RETURN x + 1");
    assertSameOutcome("SELECT " + temp + "(1), system.builtin.abs(-2), builtin.abs(-3)");
    assertSameOutcome("DESCRIBE FUNCTION " + temp, SessionModeParityIT::sessionConfigDump);
    assertSameOutcome("SHOW USER FUNCTIONS LIKE '" + temp + "'");
    onBoth("DROP TEMPORARY FUNCTION " + temp);
    assertSameOutcome("SELECT " + temp + "(1)");

    String persistent = unique("pf");
    assertEquals(List.of(), rows("CREATE FUNCTION default." + persistent + "(x INT) RETURNS INT RETURN x * 2"));
    assertSameOutcome("SELECT default." + persistent + "(2), spark_catalog.default." + persistent + "(3), "
        + persistent + "(4)");
    assertSameOutcome("DESCRIBE FUNCTION default." + persistent, SessionModeParityIT::sessionConfigDump);
    assertSameOutcome("SHOW USER FUNCTIONS IN default LIKE '" + persistent + "'");
    assertEquals(List.of(), rows("DROP FUNCTION default." + persistent));
    assertSameOutcome("SELECT default." + persistent + "(2)");

    // Pinned limit (docs/how-it-works.md, "Functions in session mode"): Spark's built-in catalog, which keeps them, has no Glue database.
    Outcome inGlue = gluecat("CREATE FUNCTION {db}.f() RETURNS INT RETURN 1");
    assertEquals("SCHEMA_NOT_FOUND", inGlue.condition, inGlue::toString);
  }

  /**
   * Spark 4.1's DESCRIBE FUNCTION prints a SQL function's stored properties as JSON, among them the session's
   * settings at creation (spark_catalog's class, Delta's commit counter) and its creation time, which differ between
   * the two sessions whatever the catalog; the function's name and class rows are still compared.
   */
  private static boolean sessionConfigDump(String row) {
    return row.startsWith("[Usage: {");
  }

  /** The catalog's derived S3A region is the catalog's, never the table's. */
  @Test
  void derivedSettingsAreNotTableOptions() {
    onBoth("CREATE TABLE {t} (id INT, k STRING) USING parquet OPTIONS ('compression' = 'snappy') "
        + "TBLPROPERTIES ('owner_team' = 'x')");
    for (String statement : List.of("SHOW CREATE TABLE {t}", "SHOW TBLPROPERTIES {t}", "DESCRIBE EXTENDED {t}")) {
      Outcome gluecat = gluecat(statement);
      assertFalse(gluecat.failed(), () -> statement + ": " + gluecat);
      assertFalse(gluecat.rows.toString().contains("fs.s3a"), () -> statement + " shows a catalog setting: " + gluecat);
      assertFalse(gluecat.rows.toString().contains("fs.s3a.gluecat"), statement);
    }
    assertSameOutcome("SHOW TBLPROPERTIES {t} ('option.fs.s3a.endpoint.region')");
  }

  /**
   * Missing and existing tables and schemas, and names Glue cannot hold: Spark's conditions, SQLSTATEs and wording,
   * which differ by line (Spark 3.5 names a missing schema without the catalog; 3.5, 4.0 and 4.1 refuse a nested
   * name naming its namespace only), so every line compares them all.
   */
  @Test
  void errorsAreSparks() {
    onBoth("CREATE TABLE {t} (id INT) USING parquet");
    String missingDb = unique("nodb");
    List<String> statements = new java.util.ArrayList<>(List.of("SELECT * FROM {missing}", "DROP TABLE {missing}",
        "DESCRIBE {missing}", "ALTER TABLE {missing} ADD COLUMNS (x INT)", "SHOW TBLPROPERTIES {missing}",
        "SHOW CREATE TABLE {missing}", "INSERT INTO {missing} VALUES (1)", "CREATE TABLE {t} (id INT) USING parquet",
        "DROP DATABASE " + missingDb));
    statements.addAll(List.of("SHOW TABLES IN " + missingDb, "SELECT * FROM " + missingDb + ".x",
        "CREATE TABLE " + missingDb + ".x (id INT) USING parquet", "SELECT * FROM {db}.a.b",
        "CREATE TABLE {db}.a.b (id INT) USING parquet"));
    assertAll(statements.stream().map(statement -> () -> assertSameOutcome(statement)));
  }
}
