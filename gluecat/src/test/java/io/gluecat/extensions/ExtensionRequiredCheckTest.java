package io.gluecat.extensions;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A session that does not list gluecat's extension: Spark loads {@link ExtensionRequiredCheck} from the jar's
 * service file by itself, and view statements that only the extension runs fail naming the setting, before any
 * catalog is asked (the Glue endpoint here answers nothing: a statement that reached Glue would fail otherwise).
 */
class ExtensionRequiredCheckTest {
  private static SparkSession spark;

  @BeforeAll
  static void startSession() {
    SparkSession.Builder builder = SparkSession.builder().master("local[1]").appName("extension-required-check")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.catalog.spark_catalog", "io.gluecat.GlueCatalog")
        .config("spark.sql.catalog.glue", "io.gluecat.GlueCatalog");
    for (String catalog : List.of("spark_catalog", "glue")) {
      builder.config("spark.sql.catalog." + catalog + ".region", "us-east-1")
          .config("spark.sql.catalog." + catalog + ".glue.endpoint", "http://127.0.0.1:9");
    }
    spark = builder.getOrCreate();
  }

  @AfterAll
  static void stopSession() {
    spark.stop();
  }

  private static boolean viewsInNamedCatalogs() {
    return spark.version().startsWith("4.2");
  }

  private static void assertNeedsTheExtension(String statement, String named) {
    Executable run = () -> spark.sql(statement);
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, run, statement);
    assertTrue(e.getMessage().startsWith(named + ":"), e.getMessage());
    assertTrue(e.getMessage().contains("spark.sql.extensions=io.gluecat.extensions.GlueCatalogExtensions,"
        + "io.delta.sql.DeltaSparkSessionExtension"), e.getMessage());
    assertTrue(e.getMessage().endsWith("Nothing was written."), e.getMessage());
  }

  @Test
  void sessionModeViewStatementsNameTheSettingOnEveryLine() {
    assertNeedsTheExtension("CREATE VIEW sales.v AS SELECT 1 AS x", "CREATE VIEW spark_catalog.sales.v");
    assertNeedsTheExtension("CREATE OR REPLACE VIEW v AS SELECT 1 AS x", "CREATE VIEW spark_catalog.default.v");
    assertNeedsTheExtension("ALTER VIEW sales.v AS SELECT 2 AS x", "ALTER VIEW .. AS spark_catalog.sales.v");
    assertNeedsTheExtension("ALTER VIEW sales.v SET TBLPROPERTIES ('a' = 'b')",
        "ALTER VIEW .. SET TBLPROPERTIES spark_catalog.sales.v");
    assertNeedsTheExtension("ALTER VIEW sales.v UNSET TBLPROPERTIES ('a')",
        "ALTER VIEW .. UNSET TBLPROPERTIES spark_catalog.sales.v");
    assertNeedsTheExtension("ALTER VIEW sales.v RENAME TO sales.w", "ALTER VIEW .. RENAME TO spark_catalog.sales.v");
    assertNeedsTheExtension("DROP VIEW IF EXISTS sales.v", "DROP VIEW spark_catalog.sales.v");
  }

  @Test
  void namedCatalogViewStatementsNameTheSettingBeforeSpark42() {
    if (viewsInNamedCatalogs()) {
      return; // Spark 4.2 sends them to the catalog itself (RelationCatalog): nothing to refuse there
    }
    assertNeedsTheExtension("CREATE VIEW glue.sales.v AS SELECT 1 AS x", "CREATE VIEW glue.sales.v");
    assertNeedsTheExtension("DROP VIEW glue.sales.v", "DROP VIEW glue.sales.v");
  }

  @Test
  void temporaryViewsAndOtherStatementsAreLeftToSpark() {
    spark.sql("CREATE TEMPORARY VIEW tmp_v AS SELECT 1 AS x");
    assertEquals(1, spark.sql("SELECT * FROM tmp_v").count());
    spark.sql("ALTER VIEW tmp_v AS SELECT 2 AS x");
    spark.sql("DROP VIEW tmp_v");
    assertFalse(spark.sessionState().catalog().getTempView("tmp_v").isDefined());
  }

  @Test
  void aSessionListingTheExtensionIsNotWrapped() {
    assertTrue(ExtensionRequiredCheck.listsTheExtension(
        " io.gluecat.extensions.GlueCatalogExtensions , io.delta.sql.DeltaSparkSessionExtension"));
    assertFalse(ExtensionRequiredCheck.listsTheExtension("io.delta.sql.DeltaSparkSessionExtension"));
    assertFalse(ExtensionRequiredCheck.listsTheExtension(""));
  }
}
