package io.gluecat.it.trino;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.testkit.compat.CompatCase;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Writes from both engines to the same Delta tables on MiniStack's S3, one engine after the other (both at once:
 * {@link TrinoCompatConcurrentWritersIT}).
 */
class TrinoCompatS3IT extends TrinoS3CompatTest {

  @Test
  @CompatCase(id = "s3-trino-insert-into-gluecat-table", writer = "trino-delta", reader = "gluecat",
      title = "On S3: INSERT by Trino into a gluecat Delta table")
  void trinoInsertsIntoAGluecatTable() {
    run("CREATE TABLE " + t("orders") + " (id BIGINT, item STRING) USING delta");
    run("INSERT INTO " + t("orders") + " VALUES (1, 'spark')");
    assertTrue(glueTable(db, "orders").storageDescriptor().location().startsWith(dbLocation + "/orders"));

    trinoRun("INSERT INTO " + trinoName("orders") + " VALUES (2, 'trino'), (3, 'trino')");

    assertEquals(List.of("[1,spark]", "[2,trino]", "[3,trino]"),
        rows("SELECT id, item FROM " + t("orders") + " ORDER BY id"));
    assertEquals(List.of("[3]"), trinoRows("SELECT count(*) FROM " + trinoName("orders")));
  }

  @Test
  @CompatCase(id = "s3-gluecat-writes-trino-table", writer = "gluecat", reader = "trino-delta",
      title = "On S3: INSERT and ALTER TABLE ADD COLUMNS by gluecat on a Trino-created Delta table")
  void gluecatInsertsIntoAndAltersATrinoTable() {
    trinoRun("CREATE TABLE " + trinoName("made_by_trino") + " AS SELECT * FROM (VALUES (1, 'a')) AS v(id, code)");
    assertEquals("DELTA", glueTable(db, "made_by_trino").parameters().get("spark.sql.sources.provider"));

    run("INSERT INTO " + t("made_by_trino") + " VALUES (2, 'b')");
    run("ALTER TABLE " + t("made_by_trino") + " ADD COLUMNS (note STRING)");
    run("INSERT INTO " + t("made_by_trino") + " VALUES (3, 'c', 'added by gluecat')");

    assertEquals(List.of("[1, a, null]", "[2, b, null]", "[3, c, added by gluecat]"),
        trinoRows("SELECT id, code, note FROM " + trinoName("made_by_trino") + " ORDER BY id"));
    assertEquals(List.of("id", "code", "note"), trinoRows("DESCRIBE " + trinoName("made_by_trino")).stream()
        .map(r -> r.substring(1, r.indexOf(','))).toList());
  }

  /** Versions 0-3 of a table: 0 and 1 by gluecat, 2 by Trino, 3 by gluecat. */
  private void writeHistoryFromBothEngines(String table) {
    run("CREATE TABLE " + t(table) + " (id BIGINT, who STRING) USING delta");          // version 0
    run("INSERT INTO " + t(table) + " VALUES (1, 'spark')");                          // version 1
    trinoRun("INSERT INTO " + trinoName(table) + " VALUES (2, 'trino')");              // version 2
    run("INSERT INTO " + t(table) + " VALUES (3, 'spark')");                          // version 3
  }

  @Test
  @CompatCase(id = "s3-time-travel", writer = "gluecat", reader = "trino-delta",
      title = "On S3: time travel to table versions the other engine wrote (FOR VERSION AS OF / VERSION AS OF)")
  void trinoTravelsToVersionsGluecatWrote() {
    writeHistoryFromBothEngines("history");

    assertEquals(List.of("[1, spark]"),
        trinoRows("SELECT id, who FROM " + trinoName("history") + " FOR VERSION AS OF 1 ORDER BY id"));
    assertEquals(List.of("[1, spark]", "[2, trino]", "[3, spark]"),
        trinoRows("SELECT id, who FROM " + trinoName("history") + " FOR VERSION AS OF 3 ORDER BY id"));
    assertEquals(List.of("[0]", "[1]", "[2]", "[3]"), trinoRows("SELECT version FROM " + TRINO_S3 + "." + db
        + ".\"history$history\" ORDER BY version"));
  }

  @Test
  @CompatCase(id = "s3-time-travel", writer = "trino-delta", reader = "gluecat",
      title = "On S3: time travel to table versions the other engine wrote (FOR VERSION AS OF / VERSION AS OF)")
  void gluecatTravelsToVersionsTrinoWrote() {
    writeHistoryFromBothEngines("history");

    assertEquals(List.of("[1,spark]", "[2,trino]"),
        rows("SELECT id, who FROM " + t("history") + " VERSION AS OF 2 ORDER BY id"));
    assertEquals(List.of(), rows("SELECT * FROM " + t("history") + " VERSION AS OF 0"));
    assertEquals(List.of("[1,spark]", "[2,trino]", "[3,spark]"),
        rows("SELECT id, who FROM " + t("history") + " VERSION AS OF 3 ORDER BY id"));
  }
}
