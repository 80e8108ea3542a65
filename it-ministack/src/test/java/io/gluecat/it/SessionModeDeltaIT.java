package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.messages;
import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;

/**
 * Every Delta lifecycle test again, in session mode: gluecat is spark_catalog, so two-part names
 * (database.table) reach Glue. Each test gets a session of its own (newSession) whose spark_catalog is a
 * gluecat catalog on MiniStack.
 */
class SessionModeDeltaIT extends DeltaLifecycleIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }

  @Test
  void bareNamesResolveToTheDefaultDatabase() {
    if (!GLUE.getDatabases(r -> { }).databaseList().stream().anyMatch(d -> d.name().equals("default"))) {
      GLUE.createDatabase(r -> r.databaseInput(d -> d.name("default").locationUri(newDirectory("default_db"))));
    }
    String table = unique("bare");
    run("CREATE TABLE " + table + " USING delta AS SELECT id FROM range(2)");
    assertEquals(2, run("SELECT * FROM " + table).size());
    assertEquals("delta", glueTable("default", table).parameters().get("spark.sql.sources.provider"));
    run("DROP TABLE " + table);
  }

  /**
   * Spark runs CREATE VIEW against its built-in catalog even when spark_catalog is replaced. For a Glue
   * database that catalog does not know, the statement fails and nothing reaches Glue.
   */
  @Test
  void createViewIsRoutedAroundGluecatAndFailsWithoutWritingAnything() {
    run("CREATE TABLE " + t("base") + " USING delta AS SELECT id FROM range(2)");
    Throwable e = assertThrows(Throwable.class, () -> run("CREATE VIEW " + t("v") + " AS SELECT * FROM " + t("base")));
    String all = messages(e);
    assertTrue(all.contains("SCHEMA_NOT_FOUND") || all.contains(db), all);
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "v"));
  }
}
