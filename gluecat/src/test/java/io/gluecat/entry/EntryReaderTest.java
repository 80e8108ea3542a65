package io.gluecat.entry;

import static io.gluecat.entry.Tables.*;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.InvalidGlueEntryException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

class EntryReaderTest {
  private final EntryWriter writer = new EntryWriter("3.5.7", EntryFormat.DEFAULT_SCHEMA_THRESHOLD);

  /** A Glue Table as GetTable returns what CreateTable stored. */
  static Table stored(TableInput in) {
    return Table.builder().name(in.name()).databaseName("sales").description(in.description()).owner(in.owner())
        .retention(in.retention()).storageDescriptor(in.storageDescriptor()).partitionKeys(in.partitionKeys())
        .tableType(in.tableType()).parameters(in.parameters()).versionId("1").build();
  }

  static GlueEntry read(Table t) {
    return EntryReader.read("glue", "sales", t);
  }

  // ---- gluecat's own entries round-trip ----

  @Test
  void deltaEntryRoundTrips() {
    TableDefinition t = withComment(withProperties(table("delta", "id BIGINT COMMENT 'pk', day DATE",
        List.of("day"), "s3://b/sales/orders"), Map.of("team", "finance"), Map.of()), "All orders");
    GlueEntry e = read(stored(writer.newEntry(t, Optional.of("alice"), Optional.empty())));
    assertTrue(e.isDelta());
    assertEquals("s3://b/sales/orders", e.location());
    assertEquals(t.schema(), e.schema(), "Delta keeps the stored column order");
    assertEquals(List.of("day"), e.partitionColumns());
    assertEquals(Optional.of("All orders"), e.comment());
    assertEquals(Map.of("team", "finance"), e.properties());
    assertEquals(Map.of(), e.storageProperties());
    assertEquals("3.5.7", e.createVersion());
    assertEquals(Optional.of("alice"), e.owner());
  }

  @Test
  void nonDeltaEntriesRoundTripInBothForms() {
    for (String provider : List.of("parquet", "csv")) {
      TableDefinition t = withProperties(table(provider, "id BIGINT, day DATE, name STRING", List.of("day"),
          "s3://b/sales/orders"), Map.of(), Map.of("compression", "snappy"));
      GlueEntry e = read(stored(writer.newEntry(t, Optional.empty(), Optional.of("s3://b/sales"))));
      assertEquals(provider, e.provider());
      assertEquals("s3://b/sales/orders", e.location(), provider);
      assertEquals(schema("id BIGINT, name STRING, day DATE"), e.schema(), "partition columns last: " + provider);
      assertEquals(Map.of("compression", "snappy"), e.storageProperties(), provider);
    }
  }

  @Test
  void classificationIsTheFormatsOnFileTablesAndAPropertyOnDelta() {
    TableDefinition parquet = withProperties(table("parquet", "id BIGINT", List.of(), "s3://b/sales/orders"),
        Map.of("team", "finance"), Map.of());
    TableInput entry = writer.newEntry(parquet, Optional.empty(), Optional.empty());
    assertEquals("parquet", entry.parameters().get(EntryFormat.CLASSIFICATION));
    GlueEntry e = read(stored(entry));
    assertEquals(Map.of("team", "finance"), e.properties(), "not a table property, as table_type is not");
    // the entry read back is written again unchanged: the update owns the key and writes the same value
    TableDefinition again = new TableDefinition(e.name(), e.provider(), e.schema(), e.partitionColumns(),
        e.location(), e.comment(), e.properties(), e.storageProperties());
    assertEquals(entry.parameters(), writer.updatedEntry(stored(entry), again, java.util.Set.of(), Optional.empty())
        .parameters());

    TableDefinition delta = withProperties(table("delta", "id BIGINT", List.of(), "s3://b/sales/d"),
        Map.of(EntryFormat.CLASSIFICATION, "custom"), Map.of());
    assertEquals(Map.of(EntryFormat.CLASSIFICATION, "custom"),
        read(stored(writer.newEntry(delta, Optional.empty(), Optional.empty()))).properties());
  }

  // ---- what other writers leave ----

  @Test
  void readsTheDeltaCtasEntryOfSparksHivePath() {
    Table t = Table.builder().name("orders").tableType("EXTERNAL_TABLE")
        .storageDescriptor(StorageDescriptor.builder()
            .columns(Column.builder().name("col").type("array<string>").comment("from deserializer").build())
            .location("s3://b/sales/orders-__PLACEHOLDER__")
            .inputFormat(EntryFormat.SEQUENCE_FILE_INPUT).outputFormat(EntryFormat.HIVE_SEQUENCE_FILE_OUTPUT)
            .serdeInfo(SerDeInfo.builder().serializationLibrary(EntryFormat.LAZY_SIMPLE_SERDE)
                .parameters(Map.of("path", "s3://b/warehouse/orders", "serialization.format", "1")).build())
            .build())
        .parameters(Map.of("EXTERNAL", "TRUE", "spark.sql.sources.provider", "delta",
            "spark.sql.sources.schema", "{\"type\":\"struct\",\"fields\":[]}",
            "spark.sql.partitionProvider", "catalog", "spark.sql.create.version", "4.1.0"))
        .build();
    GlueEntry e = read(t);
    assertTrue(e.isDelta());
    assertEquals("s3://b/warehouse/orders", e.location());
    assertEquals(0, e.schema().fields().length);
    assertEquals(Map.of(), e.properties());
  }

  @Test
  void readsAnEntryDeltasCatalogHookRewrote() {
    Map<String, String> params = new HashMap<>(Map.of("EXTERNAL", "TRUE", "spark.sql.sources.provider", "delta",
        "delta.lastUpdateVersion", "3", "delta.lastCommitTimestamp", "1700000000000",
        "delta.minReaderVersion", "1", "delta.minWriterVersion", "2"));
    Table t = Table.builder().name("orders")
        .storageDescriptor(StorageDescriptor.builder()
            .columns(Column.builder().name("id").type("bigint").build(), Column.builder().name("v").type("string").build())
            .location("s3://b/sales/orders-__PLACEHOLDER__")
            .serdeInfo(SerDeInfo.builder().parameters(Map.of("path", "s3://b/sales/orders")).build()).build())
        .parameters(params).build();
    GlueEntry e = read(t);
    assertEquals("s3://b/sales/orders", e.location());
    assertEquals("3", e.properties().get("delta.lastUpdateVersion"));
    assertEquals("2", e.properties().get("delta.minWriterVersion"));
  }

  @Test
  void readsTrinosDeltaEntryWithAnUpperCaseProvider() {
    Table t = Table.builder().name("orders").tableType("EXTERNAL_TABLE")
        .storageDescriptor(StorageDescriptor.builder().location("file:/data/orders")
            .serdeInfo(SerDeInfo.builder().parameters(Map.of()).build()).build())
        .parameters(Map.of("spark.sql.sources.provider", "DELTA", "table_type", "DELTA",
            "trino_query_id", "20261130_000000_00000_abcde"))
        .build();
    GlueEntry e = read(t);
    assertEquals("delta", e.provider());
    assertEquals("file:/data/orders", e.location());
    assertEquals("20261130_000000_00000_abcde", e.properties().get("trino_query_id"));
  }

  @Test
  void readsSchemasStoredInParts() {
    String json = schema("id BIGINT, name STRING").json();
    int half = json.length() / 2;
    Table one = entry("parquet", Map.of("spark.sql.sources.schema.numParts", "1",
        "spark.sql.sources.schema.part.0", json));
    Table two = entry("parquet", Map.of("spark.sql.sources.schema.numParts", "2",
        "spark.sql.sources.schema.part.0", json.substring(0, half),
        "spark.sql.sources.schema.part.1", json.substring(half)));
    assertEquals(schema("id BIGINT, name STRING"), read(one).schema());
    assertEquals(schema("id BIGINT, name STRING"), read(two).schema());
  }

  @Test
  void theSerdePathTakesPrecedenceOverTheStorageLocation() {
    Table both = Table.builder().name("orders").parameters(Map.of("spark.sql.sources.provider", "delta"))
        .storageDescriptor(StorageDescriptor.builder().location("s3://b/other")
            .serdeInfo(SerDeInfo.builder().parameters(Map.of("path", "s3://b/real")).build()).build()).build();
    Table sdOnly = Table.builder().name("orders").parameters(Map.of("spark.sql.sources.provider", "delta"))
        .storageDescriptor(StorageDescriptor.builder().location("s3://b/real").build()).build();
    assertEquals("s3://b/real", read(both).location());
    assertEquals("s3://b/real", read(sdOnly).location());
  }

  @Test
  void readsHivePathNonDeltaTablesInBothFormsWithPartitionColumnsLastInPartitionOrder() {
    String json = schema("region STRING, id BIGINT, day DATE, name STRING").json();
    Map<String, String> params = Map.of("spark.sql.sources.provider", "parquet", "spark.sql.sources.schema", json,
        "spark.sql.sources.schema.numPartCols", "2", "spark.sql.sources.schema.partCol.0", "day",
        "spark.sql.sources.schema.partCol.1", "region", "spark.sql.partitionProvider", "catalog");
    Table hiveCompatible = Table.builder().name("orders").parameters(params)
        .storageDescriptor(StorageDescriptor.builder().location("s3://b/orders")
            .serdeInfo(SerDeInfo.builder().parameters(Map.of("path", "s3://b/orders", "serialization.format", "1"))
                .build()).build()).build();
    Table sparkSpecific = Table.builder().name("orders").parameters(params)
        .storageDescriptor(StorageDescriptor.builder().location("s3://b/db/orders-__PLACEHOLDER__")
            .serdeInfo(SerDeInfo.builder().parameters(Map.of("path", "s3://b/orders")).build()).build()).build();
    for (Table t : List.of(hiveCompatible, sparkSpecific)) {
      GlueEntry e = read(t);
      assertEquals(schema("id BIGINT, name STRING, day DATE, region STRING"), e.schema());
      assertEquals(List.of("day", "region"), e.partitionColumns());
      assertEquals("s3://b/orders", e.location());
      assertEquals(Map.of(), e.storageProperties());
    }
  }

  @Test
  void viewsAreRecognised() {
    assertTrue(EntryReader.isView(Table.builder().name("v").tableType("VIRTUAL_VIEW").build()));
    assertFalse(EntryReader.isView(Table.builder().name("t").tableType("EXTERNAL_TABLE").build()));
  }

  // ---- entries gluecat refuses, each naming the table and the problem ----

  @Test
  void icebergTablesPointToIcebergsCatalog() {
    Table t = Table.builder().name("orders").parameters(Map.of("table_type", "ICEBERG",
        "metadata_location", "s3://b/orders/metadata/00001.metadata.json")).build();
    assertRefused(t, "glue.sales.orders", "Iceberg", "org.apache.iceberg.aws.glue.GlueCatalog");
  }

  @Test
  void hiveSerdeTablesWithoutAProviderAreRefused() {
    Table t = Table.builder().name("orders").parameters(Map.of("EXTERNAL", "TRUE"))
        .storageDescriptor(StorageDescriptor.builder().location("s3://b/orders").build()).build();
    assertRefused(t, "glue.sales.orders", "Hive SerDe table", "spark.sql.sources.provider");
  }

  @Test
  void malformedEntriesNameTheTableAndTheProblem() {
    assertRefused(entry("parquet", Map.of("spark.sql.sources.schema", "{not json")), "glue.sales.orders",
        "not valid schema JSON");
    assertRefused(entry("parquet", Map.of("spark.sql.sources.schema", "\"string\"")), "not a struct");
    assertRefused(Table.builder().name("orders").parameters(Map.of("spark.sql.sources.provider", "delta")).build(),
        "glue.sales.orders", "has no location");
    assertRefused(Table.builder().name("orders").parameters(Map.of("spark.sql.sources.provider", "delta"))
        .storageDescriptor(StorageDescriptor.builder().location("s3://b/orders-__PLACEHOLDER__").build()).build(),
        "has no location", "PLACEHOLDER");
    String json = schema("id BIGINT").json();
    assertRefused(entry("parquet", Map.of("spark.sql.sources.schema.numParts", "2",
        "spark.sql.sources.schema.part.0", json)), "glue.sales.orders", "missing schema part", "part.1");
    assertRefused(entry("parquet", Map.of("spark.sql.sources.schema.numParts", "1",
        "spark.sql.sources.schema.part.0", json, "spark.sql.sources.schema.part.1", "}")),
        "part count does not match");
    assertRefused(entry("parquet", Map.of("spark.sql.sources.schema.part.0", json)), "no spark.sql.sources.schema.numParts");
    assertRefused(entry("parquet", Map.of("spark.sql.sources.schema.numParts", "x")), "not a positive number");
    assertRefused(entry("parquet", Map.of("spark.sql.sources.schema", json,
        "spark.sql.sources.schema.numPartCols", "1", "spark.sql.sources.schema.partCol.0", "day")),
        "glue.sales.orders", "partition column 'day'", "not in its schema");
    assertRefused(entry("parquet", Map.of("spark.sql.sources.schema", json,
        "spark.sql.sources.schema.numPartCols", "2", "spark.sql.sources.schema.partCol.0", "id")),
        "missing partition column", "partCol.1");
  }

  @Test
  void aDeltaEntryMayNamePartitionColumnsItsGlueSchemaLacks() {
    // Delta reads its schema from the log; the Glue copy may be empty or stale.
    Table t = entry("delta", Map.of("spark.sql.sources.schema.numPartCols", "1",
        "spark.sql.sources.schema.partCol.0", "day"));
    assertEquals(List.of("day"), read(t).partitionColumns());
  }

  private static Table entry(String provider, Map<String, String> extra) {
    Map<String, String> params = new HashMap<>(extra);
    params.put("spark.sql.sources.provider", provider);
    return Table.builder().name("orders").parameters(params)
        .storageDescriptor(StorageDescriptor.builder().location("s3://b/orders").build()).build();
  }

  private static void assertRefused(Table t, String... fragments) {
    InvalidGlueEntryException e = assertThrows(InvalidGlueEntryException.class, () -> read(t));
    for (String fragment : fragments) {
      assertTrue(e.getMessage().contains(fragment), "expected '" + fragment + "' in: " + e.getMessage());
    }
  }
}
