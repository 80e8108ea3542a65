package io.gluecat.entry;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.InvalidGlueEntryException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

class ViewFormatTest {
  private static final int THRESHOLD = EntryFormat.DEFAULT_SCHEMA_THRESHOLD;

  private static ViewEntry salesView() {
    return ViewEntry.builder("sales", "Big_Orders", "SELECT id, amount FROM orders WHERE amount > 100")
        .schema(StructType.fromDDL("order_id BIGINT COMMENT 'the order', amount DECIMAL(10,2)"))
        .comment("Orders over 100")
        .owner("alice")
        .currentCatalog("glue")
        .currentNamespace(List.of("sales"))
        .sqlConfigs(Map.of("spark.sql.ansi.enabled", "true"))
        .schemaMode("BINDING")
        .queryColumnNames(List.of("id", "amount"))
        .properties(Map.of("team", "finance"))
        .build();
  }

  /** Turns what gluecat sends into what Glue gives back on GetTable. */
  private static Table stored(TableInput input) {
    return Table.builder().name(input.name()).description(input.description()).owner(input.owner())
        .storageDescriptor(input.storageDescriptor()).partitionKeys(input.partitionKeys())
        .viewOriginalText(input.viewOriginalText()).viewExpandedText(input.viewExpandedText())
        .tableType(input.tableType()).parameters(input.parameters()).build();
  }

  @Test
  void sparkViewIsWrittenAsSparksHivePathWritesIt() {
    TableInput entry = ViewFormat.newEntry(salesView(), "4.2.0", THRESHOLD);
    Golden.assertMatches("view", entry);
    assertEquals("VIRTUAL_VIEW", entry.tableType());
    assertEquals("big_orders", entry.name());
    assertEquals(entry.viewOriginalText(), entry.viewExpandedText());
    assertNull(entry.storageDescriptor().location(), "a view has no location");
    assertFalse(entry.parameters().containsKey(EntryFormat.PROVIDER), "a view is not a data source table");
    assertFalse(entry.parameters().containsKey(EntryFormat.EXTERNAL));
    assertEquals(List.of("order_id", "amount"),
        entry.storageDescriptor().columns().stream().map(Column::name).toList());
    assertEquals("glue", entry.parameters().get("view.catalogAndNamespace.part.0"));
    assertEquals("true", entry.parameters().get("view.sqlConfig.spark.sql.ansi.enabled"));
  }

  @Test
  void readingTheWrittenEntryGivesTheViewBack() {
    ViewEntry view = salesView();
    ViewEntry read = ViewFormat.read("glue", "sales", stored(ViewFormat.newEntry(view, "4.2.0", THRESHOLD)));
    assertEquals(view.toBuilder().createVersion("4.2.0").build(), read);
  }

  @Test
  void wideSchemaIsStoredInPartsAndReadBack() {
    StringBuilder ddl = new StringBuilder();
    for (int i = 0; i < 200; i++) {
      ddl.append(i == 0 ? "" : ", ").append("a_rather_long_column_name_").append(i).append(" STRING");
    }
    ViewEntry view = ViewEntry.builder("db", "wide", "SELECT * FROM t").schema(StructType.fromDDL(ddl.toString()))
        .build();
    TableInput entry = ViewFormat.newEntry(view, "4.2.0", THRESHOLD);
    assertFalse(entry.parameters().containsKey(EntryFormat.SCHEMA));
    assertTrue(Integer.parseInt(entry.parameters().get(EntryFormat.SCHEMA_NUM_PARTS)) > 1);
    assertEquals(view.schema(), ViewFormat.read("glue", "db", stored(entry)).schema());
  }

  /** The entry Spark 3.5's Hive path (HiveExternalCatalog through the Glue client) leaves for a view. */
  @Test
  void readsAViewSparksHivePathWrote() {
    Map<String, String> parameters = new LinkedHashMap<>();
    parameters.put("spark.sql.create.version", "3.5.1");
    parameters.put("spark.sql.sources.schema", StructType.fromDDL("id BIGINT, Name STRING").json());
    parameters.put("view.catalogAndNamespace.numParts", "2");
    parameters.put("view.catalogAndNamespace.part.0", "spark_catalog");
    parameters.put("view.catalogAndNamespace.part.1", "shop");
    parameters.put("view.query.out.numCols", "2");
    parameters.put("view.query.out.col.0", "id");
    parameters.put("view.query.out.col.1", "name");
    parameters.put("view.sqlConfig.spark.sql.session.timeZone", "UTC");
    parameters.put("transient_lastDdlTime", "1700000000");
    parameters.put("owner_team", "web");
    Table hivePath = Table.builder().name("v").tableType("VIRTUAL_VIEW").owner("bob")
        .viewOriginalText("SELECT id, name FROM customers").viewExpandedText("SELECT id, name FROM customers")
        .storageDescriptor(StorageDescriptor.builder().columns(Column.builder().name("id").type("bigint").build(),
            Column.builder().name("name").type("string").build()).build())
        .parameters(parameters).build();

    ViewEntry view = ViewFormat.read("glue", "shop", hivePath);
    assertEquals("SELECT id, name FROM customers", view.sql());
    assertEquals(StructType.fromDDL("id BIGINT, Name STRING"), view.schema(), "the schema property keeps the case");
    assertEquals("glue", view.currentCatalog().orElseThrow(),
        "the Hive path's spark_catalog is the Glue catalog that holds the view: the reading catalog");
    assertEquals(List.of("shop"), view.currentNamespace());
    assertEquals(List.of("id", "name"), view.queryColumnNames());
    assertEquals(Map.of("spark.sql.session.timeZone", "UTC"), view.sqlConfigs());
    assertEquals(Map.of("owner_team", "web"), view.properties(), "no bookkeeping among the properties");
    assertEquals("3.5.1", view.createVersion());
    assertEquals("bob", view.owner().orElseThrow());
    assertTrue(view.schemaMode().isEmpty());
    assertEquals(ViewEntry.Dialect.SPARK, view.dialect());
  }

  @Test
  void theHoldingCatalogIsRecordedAsSparkCatalogAndReadBackAsTheReader() {
    ViewEntry home = ViewEntry.builder("sales", "v", "SELECT * FROM orders").schema(StructType.fromDDL("id BIGINT"))
        .currentCatalog("Glue").currentNamespace(List.of("sales")).build();
    TableInput entry = ViewFormat.newEntry(ViewFormat.recordedIn(home, "glue"), "4.2.0", THRESHOLD);
    assertEquals("spark_catalog", entry.parameters().get("view.catalogAndNamespace.part.0"));
    assertEquals("prod", ViewFormat.read("prod", "sales", stored(entry)).currentCatalog().orElseThrow(),
        "any catalog over the same Glue catalog resolves the view's names in itself");
    assertEquals("spark_catalog", ViewFormat.read("spark_catalog", "sales", stored(entry)).currentCatalog()
        .orElseThrow());

    ViewEntry elsewhere = home.toBuilder().currentCatalog("other").build();
    TableInput other = ViewFormat.newEntry(ViewFormat.recordedIn(elsewhere, "glue"), "4.2.0", THRESHOLD);
    assertEquals("other", other.parameters().get("view.catalogAndNamespace.part.0"),
        "another catalog's name is kept as written");
    assertEquals("other", ViewFormat.read("glue", "sales", stored(other)).currentCatalog().orElseThrow());
  }

  @Test
  void spark2ViewsNameTheirDatabaseInTheSessionCatalog() {
    Table old = Table.builder().name("v").tableType("VIRTUAL_VIEW").viewOriginalText("SELECT 1 AS x")
        .viewExpandedText("SELECT 1 AS `x`").parameters(Map.of("view.default.database", "legacy")).build();
    ViewEntry view = ViewFormat.read("glue", "legacy", old);
    assertEquals("glue", view.currentCatalog().orElseThrow());
    assertEquals(List.of("legacy"), view.currentNamespace());
    assertEquals("SELECT 1 AS `x`", view.sql(), "Spark runs the expanded text");
  }

  @Test
  void aViewHiveWroteTakesItsSchemaFromTheGlueColumns() {
    Table hive = Table.builder().name("v").tableType("VIRTUAL_VIEW").viewOriginalText("select * from t")
        .viewExpandedText("select `t`.`a`, `t`.`b` from `db`.`t`")
        .storageDescriptor(StorageDescriptor.builder().columns(
            Column.builder().name("a").type("int").comment("first").build(),
            Column.builder().name("b").type("map<string,array<decimal(5,2)>>").build()).build())
        .build();
    ViewEntry view = ViewFormat.read("glue", "db", hive);
    assertEquals(StructType.fromDDL("a INT COMMENT 'first', b MAP<STRING, ARRAY<DECIMAL(5,2)>>"), view.schema());
    assertEquals("select `t`.`a`, `t`.`b` from `db`.`t`", view.sql());
  }

  @Test
  void trinoAndAthenaViewsAreRecognizedByParameterOrText() {
    Table trino = Table.builder().name("tv").tableType("VIRTUAL_VIEW").owner("trino-user")
        .viewOriginalText("/* Presto View: eyJvcmlnaW5hbFNxbCI6IlNFTEVDVCAxIn0= */").viewExpandedText("/* Presto View */")
        .parameters(Map.of("presto_view", "true", "comment", "Presto View")).build();
    Table athenaWithoutParameter = trino.toBuilder().parameters(Map.of()).build();
    assertTrue(ViewFormat.isTrinoView(trino));
    assertTrue(ViewFormat.isTrinoView(athenaWithoutParameter));
    ViewEntry view = ViewFormat.read("glue", "db", trino);
    assertEquals(ViewEntry.Dialect.TRINO, view.dialect());
    assertFalse(view.properties().containsKey("presto_view"));
    assertThrows(IllegalArgumentException.class, () -> ViewFormat.newEntry(view, "4.2.0", THRESHOLD),
        "gluecat never writes a Trino view");
    assertFalse(ViewFormat.isTrinoView(stored(ViewFormat.newEntry(salesView(), "4.2.0", THRESHOLD))));
  }

  @Test
  void anUpdateKeepsWhatItDoesNotOwn() {
    Map<String, String> parameters = new LinkedHashMap<>(
        ViewFormat.newEntry(salesView(), "3.5.1", THRESHOLD).parameters());
    parameters.put("transient_lastDdlTime", "1700000000");
    parameters.put("view.sqlConfig.spark.sql.legacy.x", "old");
    parameters.put("spark.sql.statistics.totalSize", "10");
    Table existing = stored(ViewFormat.newEntry(salesView(), "3.5.1", THRESHOLD)).toBuilder()
        .parameters(parameters).owner("alice").build();

    ViewEntry replaced = ViewEntry.builder("sales", "big_orders", "SELECT id AS order_id FROM orders")
        .schema(StructType.fromDDL("order_id BIGINT")).currentCatalog("glue").currentNamespace(List.of("sales"))
        .properties(Map.of("stage", "gold")).build();
    assertEquals(java.util.Set.of("team"), ViewFormat.removedProperties(existing, replaced));
    TableInput updated = ViewFormat.updatedEntry(existing, replaced, java.util.Set.of("team"), THRESHOLD);
    Map<String, String> p = updated.parameters();
    assertEquals("1700000000", p.get("transient_lastDdlTime"));
    assertEquals("10", p.get("spark.sql.statistics.totalSize"));
    assertEquals("3.5.1", p.get("spark.sql.create.version"), "the creating version stays");
    assertEquals("alice", updated.owner(), "the owner stays");
    assertEquals("gold", p.get("stage"));
    assertFalse(p.containsKey("team"), "a removed property is removed");
    assertEquals("gold", ViewFormat.updatedEntry(existing, replaced, java.util.Set.of(), THRESHOLD).parameters()
        .get("stage"));
    assertEquals("finance", ViewFormat.updatedEntry(existing, replaced, java.util.Set.of(), THRESHOLD).parameters()
        .get("team"), "a property no statement removed stays");
    assertFalse(p.containsKey("view.sqlConfig.spark.sql.legacy.x"), "view keys are rewritten whole");
    assertFalse(p.containsKey("comment"));
    assertFalse(p.containsKey("view.schemaMode"));
    assertEquals("SELECT id AS order_id FROM orders", updated.viewOriginalText());
  }

  @Test
  void sparksReservedPropertiesBecomeFieldsAndFormatKeysAreRefused() {
    Map<String, String> spark = new LinkedHashMap<>();
    spark.put("comment", "c");
    spark.put("owner", "o");
    spark.put("table_type", "VIEW");
    spark.put("k", "v");
    ViewEntry view = ViewFormat.fromSpark("glue", "db", "v", "SELECT 1", new StructType(), spark, "glue",
        List.of("db"), Map.of(), "UNSUPPORTED", List.of());
    assertEquals(Map.of("k", "v"), view.properties());
    assertEquals("c", view.comment().orElseThrow());
    assertEquals("o", view.owner().orElseThrow());
    assertTrue(view.schemaMode().isEmpty(), "Spark's 'no schema mode' is not stored");
    assertEquals(Map.of("k", "v", "comment", "c", "owner", "o"), ViewFormat.sparkProperties(view));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ViewFormat.fromSpark("glue",
        "db", "v", "SELECT 1", new StructType(), Map.of("view.query.out.numCols", "9"), null, List.of(), Map.of(),
        null, List.of()));
    assertTrue(e.getMessage().contains("glue.db.v") && e.getMessage().contains("view.query.out.numCols"),
        e.getMessage());
  }

  @Test
  void brokenPartsAreRefusedNamingTheView() {
    Table broken = Table.builder().name("v").tableType("VIRTUAL_VIEW").viewOriginalText("SELECT 1")
        .parameters(Map.of("view.catalogAndNamespace.numParts", "2", "view.catalogAndNamespace.part.0", "glue"))
        .build();
    InvalidGlueEntryException e = assertThrows(InvalidGlueEntryException.class,
        () -> ViewFormat.read("glue", "db", broken));
    assertTrue(e.getMessage().contains("glue.db.v") && e.getMessage().contains("view.catalogAndNamespace.part.1"),
        e.getMessage());
    Table noText = Table.builder().name("v").tableType("VIRTUAL_VIEW").build();
    assertTrue(assertThrows(InvalidGlueEntryException.class, () -> ViewFormat.read("glue", "db", noText))
        .getMessage().contains("glue.db.v"));
  }

  @Test
  void spark35And41GetTheViewKeysAsTheirCatalogTableProperties() {
    Map<String, String> properties = ViewFormat.catalogTableProperties(salesView());
    assertEquals("finance", properties.get("team"));
    assertEquals("2", properties.get("view.catalogAndNamespace.numParts"));
    assertEquals("glue", properties.get("view.catalogAndNamespace.part.0"));
    assertEquals("sales", properties.get("view.catalogAndNamespace.part.1"));
    assertEquals("amount", properties.get("view.query.out.col.1"));
    assertEquals("true", properties.get("view.sqlConfig.spark.sql.ansi.enabled"));
    assertTrue(properties.keySet().stream().noneMatch(k -> k.startsWith("spark.sql.") || k.equals("comment")),
        properties.toString());
  }
}
