package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.GlueCatalog;
import io.gluecat.it.spark.MiniStackSparkTest;
import java.io.File;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Database;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;

/** Glue databases through SQL: create, describe, alter, list and drop. */
class NamespaceIT extends MiniStackSparkTest {

  private static Database glueDatabase(String name) {
    return GLUE.getDatabase(r -> r.name(name)).database();
  }

  private static Map<String, String> describe(String catalog, String db) {
    return sql("DESCRIBE NAMESPACE EXTENDED " + catalog + "." + db).stream()
        .collect(Collectors.toMap(r -> r.getString(0), r -> r.getString(1)));
  }

  @Test
  void createDescribeAlterListAndDrop() {
    String catalog = newCatalog();
    String db = unique("sales");
    String location = newDirectory("sales_db");
    sql("CREATE NAMESPACE " + catalog + "." + db + " COMMENT 'Sales data' LOCATION '" + location
        + "' WITH DBPROPERTIES ('team' = 'finance')");

    Database created = glueDatabase(db);
    assertEquals("Sales data", created.description());
    assertEquals(location, created.locationUri());
    assertEquals("finance", created.parameters().get("team"));

    Map<String, String> described = describe(catalog, db);
    assertEquals(db, described.get("Namespace Name"));
    assertEquals("Sales data", described.get("Comment"));
    assertTrue(described.get("Properties").contains("(team,finance)"), described.toString());

    String moved = newDirectory("sales_db_moved");
    sql("ALTER NAMESPACE " + catalog + "." + db + " SET DBPROPERTIES ('stage' = 'prod')");
    sql("ALTER NAMESPACE " + catalog + "." + db + " SET LOCATION '" + moved + "'");
    Database altered = glueDatabase(db);
    assertEquals("prod", altered.parameters().get("stage"));
    assertEquals("finance", altered.parameters().get("team"), "properties the change did not name are kept");
    assertEquals("Sales data", altered.description(), "the comment is kept");
    assertEquals(moved, altered.locationUri());

    List<String> listed = sql("SHOW NAMESPACES IN " + catalog).stream().map(r -> r.getString(0))
        .collect(Collectors.toList());
    assertTrue(listed.contains(db), listed.toString());

    sql("DROP NAMESPACE " + catalog + "." + db);
    assertThrows(EntityNotFoundException.class, () -> glueDatabase(db));
    assertFalse(sql("SHOW NAMESPACES IN " + catalog).stream().anyMatch(r -> r.getString(0).equals(db)));
  }

  @Test
  void removingAPropertyKeepsTheRest() throws Exception {
    String catalog = newCatalog();
    String db = unique("props");
    sql("CREATE NAMESPACE " + catalog + "." + db + " WITH DBPROPERTIES ('a' = '1', 'b' = '2')");
    GlueCatalog plugin = new GlueCatalog();
    plugin.initialize(catalog, new CaseInsensitiveStringMap(ministackOptions()));
    plugin.alterNamespace(new String[] {db}, NamespaceChange.removeProperty("a"));
    Map<String, String> parameters = glueDatabase(db).parameters();
    assertFalse(parameters.containsKey("a"));
    assertEquals("2", parameters.get("b"));
  }

  @Test
  void namesAreLowerCasedAsGlueDoes() {
    String catalog = newCatalog();
    String db = unique("MixedCase");
    sql("CREATE NAMESPACE " + catalog + ".`" + db + "`");
    assertEquals(db.toLowerCase(), glueDatabase(db.toLowerCase()).name());
    assertTrue(sql("SHOW NAMESPACES IN " + catalog).stream().anyMatch(r -> r.getString(0).equals(db.toLowerCase())));
    // the same database, whatever case the statement uses
    assertFalse(describe(catalog, db.toUpperCase()).isEmpty());
  }

  @Test
  void aDatabaseWithoutLocationGetsOneUnderTheWarehouseOrNone() {
    String warehouse = newDirectory("warehouse");
    Map<String, String> options = ministackOptions();
    options.put("warehouse", warehouse);
    String withWarehouse = newCatalog(options);
    String db = unique("wh");
    sql("CREATE NAMESPACE " + withWarehouse + "." + db);
    assertEquals(warehouse + "/" + db + ".db", glueDatabase(db).locationUri());

    String noWarehouse = newCatalog();
    String bare = unique("bare");
    sql("CREATE NAMESPACE " + noWarehouse + "." + bare);
    assertNull(glueDatabase(bare).locationUri(), "no warehouse: no location is invented");
  }

  @Test
  void creatingAnExistingDatabaseFails() {
    String catalog = newCatalog();
    String db = unique("dup");
    sql("CREATE NAMESPACE " + catalog + "." + db);
    Exception e = assertThrows(Exception.class, () -> sql("CREATE NAMESPACE " + catalog + "." + db));
    assertTrue(e.getClass().getSimpleName().contains("NamespaceAlreadyExists"), e.toString());
    sql("CREATE NAMESPACE IF NOT EXISTS " + catalog + "." + db);
  }

  @Test
  void aNonEmptyDatabaseIsOnlyDroppedWithCascadeAndItsDataStays() throws Exception {
    String catalog = newCatalog();
    String db = unique("full");
    sql("CREATE NAMESPACE " + catalog + "." + db);
    String location = newDirectory("orders");
    spark().range(3).write().format("delta").mode("overwrite").save(location);
    putEntry(db, "orders", "delta", new StructType().add("id", "long"), List.of(), location, Map.of());

    Exception refused = assertThrows(Exception.class, () -> sql("DROP NAMESPACE " + catalog + "." + db));
    assertTrue(refused.getClass().getSimpleName().contains("NonEmptyNamespace")
        || refused.getMessage().contains("not empty") || refused.getMessage().contains("SCHEMA_NOT_EMPTY"),
        refused.toString());
    assertNotNull(glueDatabase(db));

    sql("DROP NAMESPACE " + catalog + "." + db + " CASCADE");
    assertThrows(EntityNotFoundException.class, () -> glueDatabase(db));
    File log = Paths.get(java.net.URI.create(location)).resolve("_delta_log").toFile();
    assertTrue(log.isDirectory() && Files.list(log.toPath()).findAny().isPresent(), "the table's data is untouched");
  }

  @Test
  void missingDatabasesReportNoSuchNamespace() {
    String catalog = newCatalog();
    Exception e = assertThrows(Exception.class, () -> sql("DESCRIBE NAMESPACE " + catalog + ".nope_" + unique("x")));
    assertTrue(e.getClass().getSimpleName().contains("NoSuchNamespace")
        || e.getClass().getSimpleName().contains("NoSuchDatabase"), e.toString());
    Exception tables = assertThrows(Exception.class, () -> sql("SHOW TABLES IN " + catalog + ".nope_" + unique("x")));
    assertTrue(tables.getClass().getSimpleName().contains("NoSuch"), tables.toString());
    List<Row> none = sql("DROP NAMESPACE IF EXISTS " + catalog + ".nope_" + unique("x"));
    assertTrue(none.isEmpty());
  }
}
