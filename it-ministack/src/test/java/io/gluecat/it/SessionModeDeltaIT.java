package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/**
 * The Delta lifecycle tests again, in session mode: gluecat is spark_catalog, so two-part names
 * (database.table) reach Glue. Each test gets a session of its own (newSession) whose spark_catalog is a
 * gluecat catalog on MiniStack. Tests whose statements take the same path in both modes
 * (CatalogModeTest.namedModeOnly) report skipped here.
 */
class SessionModeDeltaIT extends DeltaLifecycleIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }

  @Test
  void bareNamesResolveToTheDefaultDatabase() {
    if (GLUE.getDatabasesPaginator(r -> { }).stream().flatMap(p -> p.databaseList().stream()).noneMatch(d -> d.name().equals("default"))) {
      GLUE.createDatabase(r -> r.databaseInput(d -> d.name("default").locationUri(newDirectory("default_db"))));
    }
    String table = unique("bare");
    run("CREATE TABLE " + table + " USING delta AS SELECT id FROM range(2)");
    assertEquals(2, run("SELECT * FROM " + table).size());
    assertEquals("delta", glueTable("default", table).parameters().get("spark.sql.sources.provider"));
    run("DROP TABLE " + table);
  }

  /**
   * Spark runs CREATE VIEW against its built-in catalog even when spark_catalog is replaced; gluecat's session
   * extension (on in this session, docs/extensions.md) takes it over, so the view is a Glue entry beside the table.
   */
  @Test
  void createViewReachesGlueThroughTheExtension() {
    run("CREATE TABLE " + t("base") + " USING delta AS SELECT id FROM range(2)");
    run("CREATE VIEW " + t("v") + " AS SELECT * FROM " + t("base"));
    assertEquals("VIRTUAL_VIEW", glueTable(db, "v").tableType());
    assertEquals(2, run("SELECT * FROM " + t("v")).size());
  }
}
