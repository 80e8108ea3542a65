package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.assertMessage;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.entry.EntryFormat;
import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.entry.ViewEntry;
import io.gluecat.entry.ViewFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * Views in Glue, every statement on every line, here in named mode (SessionModeViewsIT: gluecat as spark_catalog).
 * Spark 4.2 sends view statements of a named catalog to gluecat's RelationCatalog; on 3.5 and 4.1, and in session
 * mode on every line, gluecat's session extension (listed in the shared session, as docs/extensions.md says) runs
 * them. Reads of Glue views need no extension.
 */
class ViewsIT extends CatalogModeTest {

  @BeforeEach
  void ordersTable() {
    run("CREATE TABLE " + t("orders") + " (id BIGINT, amount INT) USING parquet");
    run("INSERT INTO " + t("orders") + " VALUES (1, 5), (2, 50), (3, 500)");
  }

  @AfterEach
  void backToTheSessionCatalog() {
    if (!sessionMode()) {
      run("USE spark_catalog.default"); // the shared session's; a session-mode session is the test's own
    }
  }

  private List<String> names(String statement, int column) {
    return run(statement).stream().map(r -> r.getString(column)).sorted().collect(Collectors.toList());
  }

  private static TableInput asInput(Table t) {
    return TableInput.builder().name(t.name()).description(t.description()).owner(t.owner())
        .storageDescriptor(t.storageDescriptor()).partitionKeys(t.partitionKeys()).tableType(t.tableType())
        .viewOriginalText(t.viewOriginalText()).viewExpandedText(t.viewExpandedText()).parameters(t.parameters())
        .build();
  }

  /** Adds a parameter to an entry with the SDK, as another tool would. */
  private void putForeignParameter(String table, String key, String value) {
    Table entry = glueTable(db, table);
    Map<String, String> parameters = new HashMap<>(entry.parameters());
    parameters.put(key, value);
    GLUE.updateTable(r -> r.databaseName(db).tableInput(asInput(entry).toBuilder().parameters(parameters).build()));
  }

  @Test
  void createAndSelectResolveNamesWhereTheViewWasCreated() {
    run("USE " + catalog + "." + db);
    run("CREATE VIEW big_orders (order_id COMMENT 'the order', amount) COMMENT 'Orders over 10' "
        + "TBLPROPERTIES ('team' = 'finance') AS SELECT id, amount FROM orders WHERE amount > 10");
    assertEquals(List.of("big_orders"), names("SHOW VIEWS", 1), "SHOW VIEWS lists the current database's");
    if (!sessionMode()) {
      run("USE spark_catalog.default");
    }

    assertEquals(List.of("[2,50]", "[3,500]"), rows("SELECT * FROM " + t("big_orders") + " ORDER BY order_id"),
        "the unqualified 'orders' is the table of the view's own catalog and database");

    Table entry = glueTable(db, "big_orders");
    assertEquals("VIRTUAL_VIEW", entry.tableType());
    assertEquals("SELECT id, amount FROM orders WHERE amount > 10", entry.viewOriginalText());
    assertEquals(entry.viewOriginalText(), entry.viewExpandedText());
    assertEquals("2", entry.parameters().get("view.catalogAndNamespace.numParts"));
    assertEquals("spark_catalog", entry.parameters().get("view.catalogAndNamespace.part.0"),
        "the Glue catalog holding the view, recorded as Spark's Hive path records it");
    assertEquals(db, entry.parameters().get("view.catalogAndNamespace.part.1"));
    assertEquals("id", entry.parameters().get("view.query.out.col.0"));
    assertEquals("finance", entry.parameters().get("team"));
    assertEquals("Orders over 10", entry.description());
    assertEquals(spark().version(), entry.parameters().get(EntryFormat.CREATE_VERSION));
    assertNotNull(entry.parameters().get("view.sqlConfig.spark.sql.session.timeZone"), "the SQL settings in force");
    assertEquals(spark().version().startsWith("3.") ? null : "COMPENSATION", entry.parameters().get("view.schemaMode"),
        "Spark 4's default schema binding of a new view");
    assertNull(entry.parameters().get(EntryFormat.PROVIDER));
    assertEquals(List.of("order_id bigint the order", "amount int null"), entry.storageDescriptor().columns()
        .stream().map(c -> c.name() + " " + c.type() + " " + c.comment()).collect(Collectors.toList()));

    GlueCallRecorder.clear();
    run("SELECT * FROM " + t("big_orders"));
    assertEquals(Map.of("GetTable", 2L), GlueCallRecorder.calls().stream()
        .collect(Collectors.groupingBy(GlueCall::operation, Collectors.counting())),
        "one GetTable for the view, one for the table it reads");
    assertEquals("finance", run("SHOW TBLPROPERTIES " + t("big_orders") + " ('team')").get(0).getString(1));

    assertEquals(List.of("big_orders"), names("SHOW VIEWS IN " + database(), 1));
    assertEquals(sessionMode() ? List.of("big_orders", "orders") : List.of("orders"),
        names("SHOW TABLES IN " + database(), 1),
        "SHOW TABLES lists tables only in a named catalog, views too in session mode (as Spark's own catalog)");
    String describe = String.join("\n", rows("DESCRIBE TABLE EXTENDED " + t("big_orders")));
    assertTrue(describe.contains("order_id,bigint,the order") && describe.contains("Orders over 10"), describe);
    String ddl = run("SHOW CREATE TABLE " + t("big_orders")).get(0).getString(0);
    assertTrue(ddl.contains("VIEW") && ddl.contains("SELECT id, amount FROM orders WHERE amount > 10")
        && ddl.contains("'team' = 'finance'"), ddl);
  }

  @Test
  void alterAndReplaceRewriteTheDefinitionAndKeepWhatTheyDoNotOwn() {
    run("CREATE VIEW " + t("v") + " TBLPROPERTIES ('team' = 'finance', 'stage' = 'raw') AS SELECT id FROM "
        + t("orders"));
    putForeignParameter("v", "trino_owner_note", "kept");

    run("CREATE VIEW IF NOT EXISTS " + t("v") + " AS SELECT amount FROM " + t("orders"));
    assertEquals("SELECT id FROM " + t("orders"), glueTable(db, "v").viewOriginalText(), "IF NOT EXISTS is a no-op");

    run("ALTER VIEW " + t("v") + " SET TBLPROPERTIES ('stage' = 'gold', 'quality' = 'high')");
    run("ALTER VIEW " + t("v") + " UNSET TBLPROPERTIES ('team')");
    Table altered = glueTable(db, "v");
    assertEquals("gold", altered.parameters().get("stage"));
    assertEquals("high", altered.parameters().get("quality"));
    assertFalse(altered.parameters().containsKey("team"));
    assertEquals("kept", altered.parameters().get("trino_owner_note"));

    run("ALTER VIEW " + t("v") + " AS SELECT id, amount * 2 AS doubled FROM " + t("orders"));
    assertEquals(List.of("[1,10]", "[2,100]", "[3,1000]"), rows("SELECT * FROM " + t("v") + " ORDER BY id"));
    assertEquals("gold", glueTable(db, "v").parameters().get("stage"), "ALTER VIEW AS keeps the properties");

    run("CREATE OR REPLACE VIEW " + t("v") + " AS SELECT count(*) AS n FROM " + t("orders"));
    Table replaced = glueTable(db, "v");
    assertEquals("SELECT count(*) AS n FROM " + t("orders"), replaced.viewOriginalText());
    assertEquals("kept", replaced.parameters().get("trino_owner_note"), "a replace keeps another tool's keys");
    assertEquals(List.of("n"), replaced.storageDescriptor().columns().stream().map(c -> c.name())
        .collect(Collectors.toList()));
    assertEquals(List.of("[3]"), rows("SELECT * FROM " + t("v")));
  }

  @Test
  void renameDropAndTheWrongKindOfObject() {
    run("CREATE VIEW " + t("v") + " AS SELECT id FROM " + t("orders"));
    run("ALTER VIEW " + t("v") + " RENAME TO " + db + ".w");
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "v"));
    assertEquals(3, run("SELECT * FROM " + t("w")).size());

    assertMessage(() -> run("DROP TABLE " + t("w")), "DROP VIEW");
    assertMessage(() -> run("DROP VIEW " + t("orders")), "DROP TABLE");
    assertMessage(() -> run("CREATE VIEW " + t("orders") + " AS SELECT 1 AS x"), "orders");
    assertMessage(() -> run("CREATE OR REPLACE VIEW " + t("orders") + " AS SELECT 1 AS x"), "orders");
    assertEquals("EXTERNAL_TABLE", glueTable(db, "orders").tableType(), "the table is untouched");
    assertEquals(3, run("SELECT * FROM " + t("orders")).size());

    run("CREATE TABLE " + t("dropped_src") + " (id BIGINT) USING parquet");
    run("CREATE VIEW " + t("over_gone") + " AS SELECT id FROM " + t("dropped_src"));
    run("DROP TABLE " + t("dropped_src"));
    if (spark().version().startsWith("3.")) {
      // Spark 3.5 names only the missing table; Spark 4 adds the view whose query failed
      assertMessage(() -> run("SELECT * FROM " + t("over_gone")), "dropped_src");
    } else {
      assertMessage(() -> run("SELECT * FROM " + t("over_gone")), "dropped_src", "over_gone");
    }

    run("DROP VIEW " + t("w"));
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "w"));
    run("DROP VIEW IF EXISTS " + t("w"));
    assertThrows(Exception.class, () -> run("DROP VIEW " + t("w")));
    assertEquals(List.of("over_gone"), names("SHOW VIEWS IN " + database(), 1));
  }

  @Test
  void badDefinitionsAreRefusedAndTemporaryViewsStaySparks() {
    assertMessage(() -> run("CREATE VIEW " + t("two") + " (a, b, c) AS SELECT id, amount FROM " + t("orders")),
        "two");
    run("CREATE TEMPORARY VIEW tmp_orders AS SELECT id FROM " + t("orders"));
    run("CREATE GLOBAL TEMPORARY VIEW gtmp_orders AS SELECT id FROM " + t("orders"));
    try {
      // the shared session may hold other suites' temporary views too
      assertEquals(List.of("gtmp_orders", "tmp_orders"), names("SHOW VIEWS IN global_temp", 1).stream()
          .filter(n -> n.endsWith("tmp_orders")).toList(), "Spark's temporary views, global and local");
      assertMessage(() -> run("CREATE VIEW " + t("over_tmp") + " AS SELECT * FROM tmp_orders"), "tmp_orders");
      run("ALTER VIEW tmp_orders AS SELECT amount FROM " + t("orders"));
      assertEquals(List.of("[5]", "[50]", "[500]"), rows("SELECT * FROM tmp_orders ORDER BY amount"));
    } finally {
      run("DROP VIEW tmp_orders");
      run("DROP VIEW global_temp.gtmp_orders");
    }
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "two"));
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "over_tmp"));

    run("CREATE VIEW " + t("v") + " AS SELECT id FROM " + t("orders"));
    if (sessionMode() || !spark().version().startsWith("4.2")) {
      // as Spark's own catalog; Spark 4.2's view path for a named catalog ignores a missing key (Spark's choice)
      assertMessage(() -> run("ALTER VIEW " + t("v") + " UNSET TBLPROPERTIES ('nope')"), "nope");
    }
    run("ALTER VIEW " + t("v") + " UNSET TBLPROPERTIES IF EXISTS ('nope')");
    assertMessage(() -> run("ALTER VIEW " + t("orders") + " AS SELECT 1 AS x"), "orders");
    assertEquals("EXTERNAL_TABLE", glueTable(db, "orders").tableType(), "the table is untouched");
  }

  @Test
  void trinoViewsAreListedButNeverRunOrRewritten() {
    GLUE.createTable(r -> r.databaseName(db).tableInput(TableInput.builder().name("tv").tableType("VIRTUAL_VIEW")
        .viewOriginalText("/* Presto View: eyJvcmlnaW5hbFNxbCI6IlNFTEVDVCAxIn0= */")
        .viewExpandedText("/* Presto View */").parameters(Map.of("presto_view", "true", "comment", "Presto View"))
        .build()));
    assertMessage(() -> run("SELECT * FROM " + t("tv")), catalog + "." + db + ".tv", "Trino/Athena");
    assertEquals(List.of("tv"), names("SHOW VIEWS IN " + database(), 1));
    assertMessage(() -> run("CREATE OR REPLACE VIEW " + t("tv") + " AS SELECT 1 AS x"), db + ".tv",
        "does not rewrite");
    assertEquals("true", glueTable(db, "tv").parameters().get("presto_view"), "the Trino view is untouched");
  }

  @Test
  void aViewWhoseTextNoLongerParsesFailsNamingTheView() {
    run("CREATE VIEW " + t("broken") + " AS SELECT id FROM " + t("orders"));
    Table entry = glueTable(db, "broken");
    GLUE.updateTable(r -> r.databaseName(db).tableInput(asInput(entry).toBuilder()
        .viewOriginalText("SELEC id FROM orders").viewExpandedText("SELEC id FROM orders").build()));
    assertMessage(() -> run("SELECT * FROM " + t("broken")), db, "broken", "SELEC");
    run("DROP VIEW " + t("broken"));
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "broken"), "a broken view can still be dropped");
  }

  /** The entry Spark's Hive path (HiveExternalCatalog on the Glue client) writes for a view, read by gluecat. */
  @Test
  void readsAViewSparksHivePathWrote() {
    ViewEntry hivePath = ViewEntry.builder(db, "hv", "SELECT id FROM orders WHERE amount < 100")
        .schema(StructType.fromDDL("id BIGINT")).currentCatalog(catalog).currentNamespace(List.of(db))
        .queryColumnNames(List.of("id")).build();
    Map<String, String> parameters = new HashMap<>(ViewFormat.newEntry(hivePath, "3.5.1", 4000).parameters());
    parameters.put("transient_lastDdlTime", "1700000000");
    GLUE.createTable(r -> r.databaseName(db).tableInput(ViewFormat.newEntry(hivePath, "3.5.1", 4000).toBuilder()
        .parameters(parameters).build()));

    assertEquals(sessionMode() ? List.of("hv", "orders") : List.of("orders"), names("SHOW TABLES IN " + database(), 1),
        "on every line, SHOW TABLES of a named catalog leaves views out; in session mode it lists them");
    assertEquals(List.of("[1]", "[2]"), rows("SELECT * FROM " + t("hv") + " ORDER BY id"));
  }

  @Test
  void concurrentCreateOrReplaceEndsInOneWholeDefinition() throws Exception {
    String a = "SELECT id AS a FROM " + t("orders");
    String b = "SELECT amount AS b1, id AS b2 FROM " + t("orders");
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      List<Future<?>> writes = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        writes.add(pool.submit(() -> run("CREATE OR REPLACE VIEW " + t("race") + " AS " + a)));
        writes.add(pool.submit(() -> run("CREATE OR REPLACE VIEW " + t("race") + " AS " + b)));
      }
      for (Future<?> w : writes) {
        w.get(2, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    Table entry = glueTable(db, "race");
    List<String> columns = entry.storageDescriptor().columns().stream().map(c -> c.name())
        .collect(Collectors.toList());
    if (entry.viewOriginalText().equals(a)) {
      assertEquals(List.of("a"), columns);
    } else {
      assertEquals(b, entry.viewOriginalText());
      assertEquals(List.of("b1", "b2"), columns);
    }
  }
}
