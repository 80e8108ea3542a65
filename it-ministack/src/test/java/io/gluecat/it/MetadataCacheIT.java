package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * The cache across statements (catalog option {@code cache.ttl}): off by default, so every statement reads
 * Glue; on, a later statement is served from it, the catalog's own writes and REFRESH TABLE make the next
 * statement read Glue again, and a change by another engine is not seen until then (what the option trades).
 */
class MetadataCacheIT extends MiniStackSparkTest {

  private static List<String> glueCalls(Runnable statement) {
    GlueCallRecorder.clear();
    statement.run();
    return GlueCallRecorder.calls().stream().map(GlueCall::operation).collect(Collectors.toList());
  }

  /** Another engine sets a table property on the entry (as Trino or a script would), at the entry's VersionId. */
  private static void setPropertyElsewhere(String db, String table, String key, String value) {
    Table entry = glueTable(db, table);
    Map<String, String> parameters = new java.util.LinkedHashMap<>(entry.parameters());
    parameters.put(key, value);
    TableInput input = TableInput.builder().name(entry.name()).tableType(entry.tableType()).parameters(parameters)
        .partitionKeys(entry.partitionKeys()).storageDescriptor(entry.storageDescriptor()).build();
    GLUE.updateTable(r -> r.databaseName(db).tableInput(input).versionId(entry.versionId()));
  }

  /** A table property as the catalog serves it (SHOW TBLPROPERTIES reads the loaded table, not a cached relation). */
  private static String property(String table, String key) {
    return sql("SHOW TBLPROPERTIES " + table).stream().filter(r -> r.getString(0).equals(key))
        .map(r -> r.getString(1)).findFirst().orElse(null);
  }

  @Test
  void offByDefaultEveryStatementReadsGlue() {
    String c = newCatalog();
    String db = newDatabase(newDirectory("nocache"));
    String t = c + "." + db + ".t";
    sql("CREATE TABLE " + t + " (id BIGINT) USING parquet");
    assertEquals(List.of("GetTable"), glueCalls(() -> sql("SELECT * FROM " + t)));
    assertEquals(List.of("GetTable"), glueCalls(() -> sql("SELECT * FROM " + t)));
    setPropertyElsewhere(db, "t", "note", "set elsewhere");
    assertEquals("set elsewhere", property(t, "note"), "another engine's change is seen by the next statement");
  }

  @Test
  void onLaterStatementsAreServedUntilWritesOrRefresh() {
    Map<String, String> options = ministackOptions();
    options.put("cache.ttl", "10m");
    options.put("cache.max-entries", "100");
    String c = newCatalog(options);
    String db = newDatabase(newDirectory("cache"));
    String t = c + "." + db + ".t";
    sql("CREATE TABLE " + t + " (id BIGINT) USING parquet");
    sql("INSERT INTO " + t + " VALUES (1)");

    glueCalls(() -> sql("SELECT * FROM " + t)); // read once (the create's copy is never kept across statements)
    assertEquals(List.of(), glueCalls(() -> assertEquals(1, sql("SELECT * FROM " + t).size())),
        "a later statement is served from the cache");

    setPropertyElsewhere(db, "t", "note", "set elsewhere");
    assertEquals(null, property(t, "note"), "the trade: another engine's change is not seen while the entry is cached");

    sql("REFRESH TABLE " + t);
    assertEquals(List.of("GetTable"), glueCalls(() -> sql("SELECT * FROM " + t)),
        "after REFRESH TABLE, the next statement reads Glue");
    assertEquals("set elsewhere", property(t, "note"));

    sql("ALTER TABLE " + t + " ADD COLUMNS (x INT)");
    List<String> after = glueCalls(() -> sql("SELECT * FROM " + t));
    assertEquals(List.of("GetTable"), after, "the catalog's own write makes the next statement read Glue");
    assertEquals(List.of("id", "x"), List.of(spark().table(t).schema().fieldNames()));
    assertEquals("set elsewhere", property(t, "note"), "the write kept the other engine's property");

    sql("DROP TABLE " + t);
    assertTrue(glueCalls(() -> assertEquals(List.<Row>of(), sql("SHOW TABLES IN " + c + "." + db))).contains("GetTables"));
    assertEquals(false, spark().catalog().tableExists(t), "a dropped table is not served from the cache");
  }

  /**
   * Spark's {@code Catalog.listTables} resolves each listed table from the listing it just made (CallCountsIT
   * counts it); what it listed serves that call only: the next statement, and the next listTables, read Glue.
   */
  @Test
  void aListingServesItsOwnCatalogCallOnly() throws Exception {
    String c = newCatalog();
    String db = newDatabase(newDirectory("listing"));
    String kept = c + "." + db + ".kept";
    sql("CREATE TABLE " + kept + " (id BIGINT) USING parquet COMMENT 'first'");
    sql("CREATE TABLE " + c + "." + db + ".gone (id BIGINT) USING parquet");
    List<org.apache.spark.sql.catalog.Table> first = listTables(c + "." + db);
    assertEquals(List.of("gone", "kept"), first.stream().map(org.apache.spark.sql.catalog.Table::name).sorted()
        .collect(Collectors.toList()));
    assertEquals("first", first.stream().filter(t -> t.name().equals("kept")).findFirst().get().description());

    setPropertyElsewhere(db, "kept", "note", "set elsewhere");
    GLUE.deleteTable(r -> r.databaseName(db).name("gone"));
    assertEquals(List.of("GetTable"), glueCalls(() -> assertEquals("set elsewhere", property(kept, "note"))),
        "the statement after the listing reads Glue");
    assertEquals(false, spark().catalog().tableExists(c + "." + db + ".gone"));

    setPropertyElsewhere(db, "kept", "comment", "second");
    List<org.apache.spark.sql.catalog.Table> second = listTables(c + "." + db);
    assertEquals(List.of("kept"), second.stream().map(org.apache.spark.sql.catalog.Table::name)
        .collect(Collectors.toList()), "the next listTables lists Glue again");
    assertEquals("second", second.get(0).description());
  }
}
