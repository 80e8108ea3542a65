package io.gluecat.it.trino;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.testkit.compat.CompatCase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * Trino's Delta Lake connector creates tables in a Glue database on its native local file system, which stores
 * {@code local:///...} locations; gluecat, with {@code location.map = local:///=file:<local.location>/}, lists,
 * loads and reads them. Named mode here; the session-mode subclass runs the same cases with gluecat as
 * spark_catalog.
 */
class TrinoCompatTrinoToGluecatIT extends TrinoCompatTest {

  @Test
  @CompatCase(id = "trino-created-delta-read", writer = "trino-delta", reader = "gluecat",
      title = "Delta table created by Trino (provider DELTA), listed, loaded and read")
  void gluecatReadsATableTrinoCreated() {
    trinoRun("CREATE TABLE " + trinoName("made_by_trino") + " (id BIGINT, name VARCHAR, price DOUBLE)");

    Table entry = glueTable(db, "made_by_trino");
    assertEquals("DELTA", entry.parameters().get("spark.sql.sources.provider"));
    assertTrue(entry.storageDescriptor().location().startsWith("local:///data/" + db + "/made_by_trino"),
        entry.storageDescriptor().location());

    assertTrue(rows("SHOW TABLES IN " + database()).stream().anyMatch(r -> r.contains("made_by_trino")));
    assertEquals(List.of(), rows("SELECT * FROM " + t("made_by_trino")));
    assertEquals(List.of("id", "name", "price"), List.of(session.table(t("made_by_trino")).schema().fieldNames()));
  }

  @Test
  @CompatCase(id = "trino-ctas-rows-read", writer = "trino-delta", reader = "gluecat",
      title = "Partitioned Delta table Trino wrote rows into with CREATE TABLE AS SELECT")
  void gluecatReadsRowsTrinoWrote() {
    trinoRun("CREATE TABLE " + trinoName("trino_rows") + " WITH (partitioned_by = ARRAY['region']) AS "
        + "SELECT * FROM (VALUES (1, 'north', 'a'), (2, 'south', 'b'), (3, 'north', 'c')) AS v(id, code, region)");

    assertEquals(List.of("[1,north,a]", "[2,south,b]", "[3,north,c]"),
        rows("SELECT id, code, region FROM " + t("trino_rows") + " ORDER BY id"));
    assertEquals(List.of("[2]"), rows("SELECT count(*) FROM " + t("trino_rows") + " WHERE code = 'north'"));
  }

  @Test
  @CompatCase(id = "trino-params-survive-gluecat-update", writer = "trino-delta", reader = "trino-delta",
      title = "Trino-created table after a gluecat ALTER TABLE ADD COLUMNS: Trino's parameters and location kept")
  void trinoParametersSurviveAGluecatUpdate() {
    trinoRun("CREATE TABLE " + trinoName("shared") + " AS SELECT * FROM (VALUES (1, 'x')) AS v(id, tag)");
    Table created = glueTable(db, "shared");
    Map<String, String> before = created.parameters();
    String location = created.storageDescriptor().location();
    assertEquals("MANAGED_TABLE", created.tableType());

    run("ALTER TABLE " + t("shared") + " ADD COLUMNS (note STRING)");

    // What gluecat sent (MiniStack merges an update into the stored entry; AWS Glue replaces it).
    // Every update gluecat sent must keep them. Usually that is one; a re-sync of the entry from the log may
    // send another (a failed CI run saw two, once in about a dozen runs): where from is printed for the next look.
    List<TableInput> sent = SentTableInputs.updatesOf(db, "shared");
    assertFalse(sent.isEmpty(), "the ALTER updated the entry");
    if (sent.size() > 1) {
      System.err.println("[trino-params-survive-gluecat-update] " + sent.size() + " UpdateTable requests for "
          + db + ".shared, sent from: " + SentTableInputs.sendersOf(db, "shared"));
    }
    assertTrue(before.keySet().stream().anyMatch(k -> k.startsWith("trino_")), "Trino wrote trino_* keys: " + before);
    for (TableInput input : sent) {
      before.forEach((k, v) -> {
        if (k.startsWith("trino_") || k.equals("location")) {
          assertEquals(v, input.parameters().get(k), "Trino's parameter " + k + " in gluecat's update: " + input);
        }
      });
      // gluecat writes back the location Trino stored, not the path it opened
      assertEquals(location, input.storageDescriptor().location());
    }
    Table after = glueTable(db, "shared");
    assertEquals(List.of("id", "tag", "note"), after.storageDescriptor().columns().stream().map(c -> c.name()).toList());
    assertEquals(location, after.storageDescriptor().location());
    // gluecat's entries are all EXTERNAL_TABLE (it never deletes data): from now on a Trino DROP TABLE keeps the files
    assertEquals("EXTERNAL_TABLE", after.tableType());
    assertEquals(List.of("[1, x, null]"), trinoRows("SELECT id, tag, note FROM " + trinoName("shared")));
    assertEquals(List.of("[1,x,null]"), rows("SELECT id, tag, note FROM " + t("shared")));
  }

  @Test
  @CompatCase(id = "trino-insert-local", writer = "trino-delta", reader = "gluecat",
      title = "INSERT by Trino into a gluecat Delta table on Trino's native local file system",
      limit = "Trino 476 refuses INSERT (and every other write to an existing Delta table) on its native local file "
          + "system, even with delta.enable-non-concurrent-writes: it has a Delta log writer only for object stores "
          + "and HDFS. CREATE TABLE and CREATE TABLE AS SELECT work there; for writes from both engines use S3.")
  void trinoCannotInsertOnItsLocalFileSystem() {
    run("CREATE TABLE " + t("local_target") + " (id BIGINT, name STRING) USING delta");
    run("INSERT INTO " + t("local_target") + " VALUES (1, 'from-spark')");

    TrinoQueryException e = assertThrows(TrinoQueryException.class,
        () -> trinoRun("INSERT INTO " + trinoName("local_target") + " VALUES (2, 'from-trino')"));
    assertTrue(e.getMessage().contains("Writes are not enabled on the local filesystem"), e.getMessage());
    assertEquals(List.of("[1,from-spark]"), rows("SELECT id, name FROM " + t("local_target")));
    assertEquals(List.of("[1, from-spark]"), trinoRows("SELECT id, name FROM " + trinoName("local_target")));
  }
}
