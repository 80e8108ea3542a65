package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.MiniStackSparkTest;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;

/** Tables whose Glue entries were written with the SDK load by name and return their rows. */
class TableLoadIT extends MiniStackSparkTest {

  private static List<String> tables(String catalog, String db) {
    return sql("SHOW TABLES IN " + catalog + "." + db).stream().map(r -> r.getString(1)).sorted()
        .collect(Collectors.toList());
  }

  private static List<Long> ids(String query) {
    return sql(query).stream().map(r -> r.getLong(0)).collect(Collectors.toList());
  }

  @Test
  void aDeltaTableLoadsByNameAndReturnsItsRows() {
    String catalog = newCatalog();
    String db = newDatabase(newDirectory("db"));
    String location = newDirectory("orders");
    spark().range(0, 5).selectExpr("id", "concat('item-', id) AS item").write().format("delta").save(location);
    putEntry(db, "orders", "delta", new StructType().add("id", "long").add("item", "string"), List.of(),
        location, Map.of());

    assertEquals(List.of(0L, 1L, 2L, 3L, 4L), ids("SELECT id FROM " + catalog + "." + db + ".orders ORDER BY id"));
    assertEquals("item-3", sql("SELECT item FROM " + catalog + "." + db + ".orders WHERE id = 3").get(0).getString(0));
    assertEquals(List.of("orders"), tables(catalog, db));
    List<String> columns = sql("DESCRIBE TABLE " + catalog + "." + db + ".orders").stream()
        .map(r -> r.getString(0)).collect(Collectors.toList());
    assertEquals(List.of("id", "item"), columns.subList(0, 2));
    // the table is Delta's own: its history is there
    assertFalse(sql("DESCRIBE HISTORY " + catalog + "." + db + ".orders").isEmpty());
  }

  @Test
  void theDeltaEntrySparksHivePathWritesLoadsToo() {
    String catalog = newCatalog();
    String dbLocation = newDirectory("db");
    String db = newDatabase(dbLocation);
    String location = newDirectory("legacy");
    spark().range(0, 3).write().format("delta").save(location);
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name("legacy").tableType("EXTERNAL_TABLE")
        .storageDescriptor(sd -> sd
            .columns(Column.builder().name("col").type("array<string>").comment("from deserializer").build())
            .location(dbLocation + "legacy-__PLACEHOLDER__")
            .inputFormat("org.apache.hadoop.mapred.SequenceFileInputFormat")
            .outputFormat("org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat")
            .serdeInfo(s -> s.serializationLibrary("org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe")
                .parameters(Map.of("path", location, "serialization.format", "1"))))
        .parameters(Map.of("EXTERNAL", "TRUE", "spark.sql.sources.provider", "delta",
            "spark.sql.sources.schema", "{\"type\":\"struct\",\"fields\":[]}",
            "spark.sql.partitionProvider", "catalog", "spark.sql.create.version", "4.1.0"))));
    assertEquals(List.of(0L, 1L, 2L), ids("SELECT id FROM " + catalog + "." + db + ".legacy ORDER BY id"));
  }

  @Test
  void aPartitionedParquetTableLoadsWithPartitionColumnsLastAndPrunes() {
    String catalog = newCatalog();
    String db = newDatabase(newDirectory("db"));
    String location = newDirectory("events");
    spark().range(0, 6).selectExpr("CAST(id % 2 AS INT) AS part", "id", "concat('e', id) AS name")
        .write().mode("overwrite").partitionBy("part").parquet(location);
    putEntry(db, "events", "parquet",
        new StructType().add("part", "int").add("id", "long").add("name", "string"), List.of("part"),
        location, Map.of());

    String table = catalog + "." + db + ".events";
    assertEquals(List.of("id", "name", "part"),
        List.of(spark().table(table).schema().fieldNames()), "partition columns come last");
    assertEquals(List.of(1L, 3L, 5L), ids("SELECT id FROM " + table + " WHERE part = 1 ORDER BY id"));
    String plan = spark().sql("SELECT id FROM " + table + " WHERE part = 1").queryExecution().executedPlan().toString();
    assertTrue(plan.contains("PartitionFilters: [isnotnull(part") , plan);
  }

  @Test
  void aCsvTableInTheSparkSpecificFormLoadsWithItsOptions() throws Exception {
    String catalog = newCatalog();
    String db = newDatabase(newDirectory("db"));
    String location = newDirectory("people");
    Files.writeString(Paths.get(java.net.URI.create(location)).resolve("part-0.csv"), "id;name\n1;ann\n2;bob\n");
    putEntry(db, "people", "csv", new StructType().add("id", "int").add("name", "string"), List.of(), location,
        Map.of("header", "true", "sep", ";"));
    List<Row> rows = sql("SELECT id, name FROM " + catalog + "." + db + ".people ORDER BY id");
    assertEquals(2, rows.size());
    assertEquals(1, rows.get(0).getInt(0));
    assertEquals("bob", rows.get(1).getString(1));
  }

  @Test
  void trinoViewsAreNotListedAsTablesNorRun() {
    String catalog = newCatalog();
    String db = newDatabase(newDirectory("db"));
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name("v_orders").tableType("VIRTUAL_VIEW")
        .viewOriginalText("/* Presto View */").viewExpandedText("/* Presto View */")
        .parameters(Map.of("presto_view", "true"))));
    String location = newDirectory("t");
    spark().range(1).write().format("delta").save(location);
    putEntry(db, "t", "delta", new StructType().add("id", "long"), List.of(), location, Map.of());

    assertEquals(List.of("t"), tables(catalog, db));
    assertMessage(() -> sql("SELECT * FROM " + catalog + "." + db + ".v_orders"), catalog + "." + db + ".v_orders",
        "Trino/Athena");
  }

  @Test
  void listingsFollowGluesPagesToTheEnd() throws Exception {
    String catalog = newCatalog();
    String db = newDatabase(newDirectory("db"));
    List<String> expected = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      putEntry(db, "t" + i, "delta", new StructType().add("id", "long"), List.of(), newDirectory("t"), Map.of());
      expected.add("t" + i);
    }
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name("a_view").tableType("VIRTUAL_VIEW")));
    newDatabase(null); // at least three databases, so that two-entry pages need more than one call
    newDatabase(null);
    try (AutoCloseable paging = io.gluecat.testkit.GlueSemantics.pageListings(2)) {
      io.gluecat.testkit.GlueCallRecorder.clear();
      assertEquals(expected, tables(catalog, db));
      assertEquals(3, io.gluecat.testkit.GlueCallRecorder.callsOf("GetTables").size(), "six entries, three pages");
      List<String> namespaces = sql("SHOW NAMESPACES IN " + catalog).stream().map(r -> r.getString(0))
          .collect(Collectors.toList());
      assertTrue(namespaces.contains(db), namespaces.toString());
      assertTrue(io.gluecat.testkit.GlueCallRecorder.callsOf("GetDatabases").size() > 1, "databases paged too");
    }
  }

  @Test
  void withoutASessionCatalogDeltaTablesFailWithWhatToSet() {
    String db = newDatabase(newDirectory("db"));
    String location = newDirectory("orders");
    spark().range(2).write().format("delta").save(location);
    putEntry(db, "orders", "delta", new StructType().add("id", "long"), List.of(), location, Map.of());
    org.apache.spark.sql.SparkSession bare = spark().newSession();
    org.apache.spark.sql.SparkSession.setActiveSession(bare);
    try {
      bare.conf().unset("spark.sql.catalog.spark_catalog");
      String catalog = newCatalog(bare, ministackOptions());
      assertMessage(() -> bare.sql("SELECT * FROM " + catalog + "." + db + ".orders").collectAsList(),
          "gluecat catalog '" + catalog + "'", "spark.sql.catalog.spark_catalog=org.apache.spark.sql.delta.catalog.DeltaCatalog");
      bare.conf().set("spark.databricks.delta.requiredSparkConfsCheck.enabled", "false");
      assertEquals(2, bare.sql("SELECT * FROM " + catalog + "." + db + ".orders").collectAsList().size(),
          "with Delta's check turned off, named mode works without spark_catalog");
    } finally {
      org.apache.spark.sql.SparkSession.setActiveSession(spark());
    }
  }

  @Test
  void aMissingTableIsNotFound() {
    String catalog = newCatalog();
    String db = newDatabase(newDirectory("db"));
    Exception e = assertThrows(Exception.class, () -> sql("SELECT * FROM " + catalog + "." + db + ".nope"));
    assertTrue(e.getMessage().contains("TABLE_OR_VIEW_NOT_FOUND"), e.getMessage());
    assertFalse(spark().catalog().tableExists(catalog + "." + db + ".nope"));
  }

  @Test
  void entriesGluecatCannotServeFailWithAClearError() {
    String catalog = newCatalog();
    String db = newDatabase(newDirectory("db"));
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name("ice").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("table_type", "ICEBERG", "metadata_location", newDirectory("ice") + "/metadata/00001-a.metadata.json"))));
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name("hive_csv").tableType("EXTERNAL_TABLE")
        .storageDescriptor(sd -> sd.location("s3://b/hive_csv")
            .serdeInfo(s -> s.serializationLibrary("org.apache.hadoop.hive.serde2.OpenCSVSerde")))));
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name("broken").tableType("EXTERNAL_TABLE")
        .storageDescriptor(sd -> sd.location("s3://b/broken"))
        .parameters(Map.of("spark.sql.sources.provider", "parquet", "spark.sql.sources.schema", "{oops"))));

    // an Iceberg entry goes to Iceberg's catalog (IcebergTablesIT), whose failure to read its metadata names it;
    // without Iceberg's runtime (Spark 4.2) it is refused, naming it too
    assertMessage(() -> sql("SELECT * FROM " + catalog + "." + db + ".ice"),
        catalog + "." + db + ".ice", "Apache Iceberg");
    // a Hive-format entry is read when a Spark source reads its files as its SerDe does (HiveFormatTablesIT);
    // this one names no input format, which Hive takes for SequenceFile
    assertMessage(() -> sql("SELECT * FROM " + catalog + "." + db + ".hive_csv"),
        catalog + "." + db + ".hive_csv", "Hive-format table", "OpenCSVSerde", "input format");
    assertMessage(() -> sql("SELECT * FROM " + catalog + "." + db + ".broken"),
        catalog + "." + db + ".broken", "not valid schema JSON");
    // listing does not load entries, so one bad entry does not hide the others
    assertEquals(List.of("broken", "hive_csv", "ice"), tables(catalog, db));
  }

  @Test
  void dropTableRemovesTheEntryButNeverTheData() throws Exception {
    String catalog = newCatalog();
    String db = newDatabase(newDirectory("db"));
    String location = newDirectory("orders");
    spark().range(3).write().format("delta").save(location);
    putEntry(db, "orders", "delta", new StructType().add("id", "long"), List.of(), location, Map.of());

    assertMessage(() -> sql("DROP TABLE " + catalog + "." + db + ".orders PURGE"), "PURGE", db + ".orders",
        "never deletes data");
    assertNotNull(glueTable(db, "orders"), "a refused PURGE changes nothing");

    sql("DROP TABLE " + catalog + "." + db + ".orders");
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "orders"));
    assertEquals(3L, spark().read().format("delta").load(location).count(), "the data is still there");
    sql("DROP TABLE IF EXISTS " + catalog + "." + db + ".orders");
  }

  static void assertMessage(org.junit.jupiter.api.function.Executable statement, String... fragments) {
    Throwable e = assertThrows(Throwable.class, statement);
    String all = messages(e);
    for (String fragment : fragments) {
      assertTrue(all.contains(fragment), "expected '" + fragment + "' in: " + all);
    }
  }

  static String messages(Throwable e) {
    StringBuilder b = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause()) {
      b.append(t.getClass().getName()).append(": ").append(t.getMessage()).append('\n');
    }
    return b.toString();
  }
}
