package io.gluecat.entry;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;
import static io.gluecat.entry.Tables.*;
import static org.junit.jupiter.api.Assertions.*;

class EntryWriterTest {
  private static final String SPARK = "3.5.7";
  private final EntryWriter writer = new EntryWriter(SPARK, EntryFormat.DEFAULT_SCHEMA_THRESHOLD);

  @Test
  void deltaTable() {
    TableDefinition t = withComment(withProperties(
        table("delta", "id BIGINT NOT NULL COMMENT 'order id', amount DECIMAL(10,2), tags ARRAY<STRING>, "
            + "address STRUCT<city: STRING, zip: INT>, day DATE", List.of(), "s3://bucket/sales/orders"),
        Map.of("owner_team", "finance"), Map.of()), "All orders");
    Golden.assertMatches("delta-table", writer.newEntry(t, Optional.of("alice"), Optional.of("s3://bucket/sales")));
  }

  @Test
  void partitionedDeltaTableKeepsColumnOrderAndHasNoPartitionKeys() {
    TableDefinition t = table("delta", "day DATE, id BIGINT, region STRING", List.of("day", "region"),
        "s3://bucket/sales/orders");
    TableInput entry = writer.newEntry(t, Optional.empty(), Optional.empty());
    Golden.assertMatches("delta-partitioned", entry);
    assertEquals(List.of("day", "id", "region"), names(entry.storageDescriptor().columns()));
    assertTrue(entry.partitionKeys().isEmpty());
  }

  @Test
  void parquetIsWrittenInTheHiveCompatibleForm() {
    TableDefinition t = withProperties(table("parquet", "id BIGINT, name VARCHAR(20), day DATE, region STRING",
        List.of("day", "region"), "s3://bucket/sales/orders"), Map.of(), Map.of("compression", "zstd"));
    TableInput entry = writer.newEntry(t, Optional.empty(), Optional.of("s3://bucket/sales"));
    Golden.assertMatches("parquet-partitioned", entry);
    assertEquals(EntryWriter.Form.HIVE_COMPATIBLE, EntryWriter.formOf(t));
  }

  @Test
  void orcAndAvroAreHiveCompatibleCsvAndJsonAreNot() {
    assertEquals(EntryWriter.Form.HIVE_COMPATIBLE, EntryWriter.formOf(table("orc", "a INT", List.of(), "/t")));
    assertEquals(EntryWriter.Form.HIVE_COMPATIBLE, EntryWriter.formOf(table("avro", "a INT", List.of(), "/t")));
    assertEquals(EntryWriter.Form.SPARK_SPECIFIC, EntryWriter.formOf(table("csv", "a INT", List.of(), "/t")));
    assertEquals(EntryWriter.Form.SPARK_SPECIFIC, EntryWriter.formOf(table("json", "a INT", List.of(), "/t")));
    assertEquals(EntryWriter.Form.DELTA, EntryWriter.formOf(table("DELTA", "a INT", List.of(), "/t")));
  }

  @Test
  void csvIsWrittenInTheSparkSpecificFormWithAPlaceholderUnderTheDatabase() {
    TableDefinition t = withProperties(table("csv", "id BIGINT, name STRING, day DATE", List.of("day"),
        "s3://bucket/landing/orders_csv"), Map.of(), Map.of("header", "true", "sep", ";"));
    TableInput entry = writer.newEntry(t, Optional.empty(), Optional.of("s3://bucket/sales/"));
    Golden.assertMatches("csv-partitioned", entry);
    assertEquals("s3://bucket/sales/orders-__PLACEHOLDER__", entry.storageDescriptor().location());
  }

  @Test
  void placeholderSitsBesideTheTableWhenTheDatabaseHasNoLocation() {
    TableInput entry = writer.newEntry(table("json", "a INT", List.of(), "file:/data/landing/orders/"),
        Optional.empty(), Optional.empty());
    assertEquals("file:/data/landing/orders-__PLACEHOLDER__", entry.storageDescriptor().location());
    assertEquals("file:/data/landing/orders/", entry.storageDescriptor().serdeInfo().parameters().get("path"));
  }

  @Test
  void fileSourcePartitionColumnsGoLastInPartitionOrderAsSparkPutsThem() {
    TableInput entry = writer.newEntry(table("parquet", "id BIGINT, month STRING, amount DOUBLE, year STRING",
        List.of("YEAR", "month"), "/t"), Optional.empty(), Optional.empty());
    assertEquals(List.of("id", "amount"), names(entry.storageDescriptor().columns()));
    assertEquals(List.of("year", "month"), names(entry.partitionKeys()));
    assertEquals("year", entry.parameters().get(EntryFormat.SCHEMA_PART_COL_PREFIX + "0"));
    String schema = entry.parameters().get(EntryFormat.SCHEMA);
    assertTrue(schema.indexOf("\"amount\"") < schema.indexOf("\"year\"")
        && schema.indexOf("\"year\"") < schema.indexOf("\"month\""), schema);
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> table("csv", "id BIGINT", List.of("day"), "/t"));
    assertTrue(e.getMessage().contains("partition column day"), e.getMessage());
  }

  @Test
  void typesHiveCannotHoldForceTheSparkSpecificForm() {
    assertEquals(EntryWriter.Form.SPARK_SPECIFIC,
        EntryWriter.formOf(table("parquet", "a TIMESTAMP_NTZ", List.of(), "/t")));
    assertEquals(EntryWriter.Form.SPARK_SPECIFIC,
        EntryWriter.formOf(table("parquet", "a ARRAY<INTERVAL DAY TO SECOND>", List.of(), "/t")));
    assertEquals(EntryWriter.Form.HIVE_COMPATIBLE,
        EntryWriter.formOf(table("parquet", "a MAP<STRING, ARRAY<STRUCT<x: TIMESTAMP>>>", List.of(), "/t")));
  }

  @Test
  void aPartitionColumnHiveCannotHoldIsTypedAsEachSparkLineWritesIt() {
    TableInput entry = writer.newEntry(table("parquet", "id BIGINT, at TIMESTAMP_NTZ", List.of("at"), "/t"),
        Optional.empty(), Optional.empty());
    String expected = io.gluecat.compat.SparkCompat.INCOMPATIBLE_PARTITION_TYPE != null
        ? "<derived from deserializer>" : "timestamp_ntz";
    assertEquals(expected, entry.partitionKeys().get(0).type());
    assertTrue(entry.parameters().get(EntryFormat.SCHEMA).contains("timestamp_ntz"), "the schema JSON keeps the type");
  }

  @Test
  void structFieldNamesHiveWouldQuoteDecideTheFormAsEachSparkLineDoes() {
    EntryWriter.Form expected = io.gluecat.compat.SparkCompat.HIVE_NEEDS_PLAIN_STRUCT_FIELD_NAMES
        ? EntryWriter.Form.SPARK_SPECIFIC : EntryWriter.Form.HIVE_COMPATIBLE;
    assertEquals(expected, EntryWriter.formOf(table("parquet", "s STRUCT<`a-b`: INT>", List.of(), "/t")));
  }

  @Test
  void skipHiveMetadataOptionForcesTheSparkSpecificForm() {
    TableDefinition t = withProperties(table("parquet", "a INT", List.of(), "/t"), Map.of(),
        Map.of("skipHiveMetadata", "true"));
    assertEquals(EntryWriter.Form.SPARK_SPECIFIC, EntryWriter.formOf(t));
  }

  @Test
  void longSchemasAreSplitIntoNumberedParts() {
    EntryWriter small = new EntryWriter(SPARK, 50);
    TableDefinition t = table("delta", "id BIGINT, name STRING, day DATE", List.of("day"), "/data/orders");
    TableInput entry = small.newEntry(t, Optional.empty(), Optional.empty());
    Golden.assertMatches("delta-schema-in-parts", entry);
    Map<String, String> p = entry.parameters();
    assertFalse(p.containsKey(EntryFormat.SCHEMA));
    int parts = Integer.parseInt(p.get(EntryFormat.SCHEMA_NUM_PARTS));
    StringBuilder joined = new StringBuilder();
    for (int i = 0; i < parts; i++) {
      assertTrue(p.get(EntryFormat.SCHEMA_PART_PREFIX + i).length() <= 50);
      joined.append(p.get(EntryFormat.SCHEMA_PART_PREFIX + i));
    }
    assertEquals(t.schema().json(), joined.toString());
  }

  @Test
  void schemaJsonStoresCharAndVarcharAsStringButColumnsKeepThem() {
    TableInput entry = writer.newEntry(table("parquet", "c CHAR(3), v VARCHAR(10)", List.of(), "/t"),
        Optional.empty(), Optional.empty());
    String json = entry.parameters().get(EntryFormat.SCHEMA);
    org.apache.spark.sql.types.StructType stored =
        (org.apache.spark.sql.types.StructType) org.apache.spark.sql.types.DataType.fromJson(json);
    for (org.apache.spark.sql.types.StructField f : stored.fields()) {
      assertEquals(org.apache.spark.sql.types.DataTypes.StringType, f.dataType(), "plain string in the JSON: " + f);
    }
    assertTrue(json.contains("\"__CHAR_VARCHAR_TYPE_STRING\":\"varchar(10)\""), json);
    assertEquals(List.of("char(3)", "varchar(10)"), types(entry.storageDescriptor().columns()));
  }

  @Test
  void columnCommentsAreOneLineAndCutToGluesByteLimit() {
    String longComment = "é".repeat(200); // 400 bytes
    TableInput entry = writer.newEntry(table("delta",
        "a INT COMMENT 'first line\nsecond\tline', b INT COMMENT '" + longComment + "'", List.of(), "/t"),
        Optional.empty(), Optional.empty());
    List<Column> columns = entry.storageDescriptor().columns();
    assertEquals("first line second line", columns.get(0).comment());
    String cut = columns.get(1).comment();
    assertEquals(254, cut.getBytes(StandardCharsets.UTF_8).length, "a 2-byte character is never split");
    assertEquals("é".repeat(127), cut);
    // the schema JSON keeps the whole comment
    assertTrue(entry.parameters().get(EntryFormat.SCHEMA).contains(longComment));
  }

  @Test
  void descriptionIsCutTo2048BytesAndTheFullCommentIsKeptAsAParameter() {
    String comment = "x".repeat(3000);
    TableInput entry = writer.newEntry(withComment(table("parquet", "a INT", List.of(), "/t"), comment),
        Optional.empty(), Optional.empty());
    assertEquals(2048, entry.description().length());
    assertEquals(comment, entry.parameters().get(EntryFormat.COMMENT));
  }

  @Test
  void everyTableIsExternalWithHiveDefaults() {
    TableInput entry = writer.newEntry(table("delta", "a INT", List.of(), "/t"), Optional.empty(), Optional.empty());
    assertEquals("EXTERNAL_TABLE", entry.tableType());
    assertEquals("TRUE", entry.parameters().get("EXTERNAL"));
    assertEquals(0, entry.retention());
    StorageDescriptor sd = entry.storageDescriptor();
    assertFalse(sd.compressed());
    assertEquals(-1, sd.numberOfBuckets());
    assertFalse(sd.storedAsSubDirectories());
  }

  @Test
  void fileTablesCarryTheGlueCrawlersClassificationAndDeltaAndTextDoNot() {
    Map<String, String> expected = Map.of("parquet", "parquet", "orc", "orc", "csv", "csv", "json", "json",
        "avro", "avro", "org.apache.spark.sql.parquet", "parquet",
        "org.apache.spark.sql.execution.datasources.csv.CSVFileFormat", "csv", "com.databricks.spark.avro", "avro");
    expected.forEach((provider, classification) -> assertEquals(classification, writer.newEntry(
        table(provider, "a INT", List.of(), "/t"), Optional.empty(), Optional.empty()).parameters()
        .get(EntryFormat.CLASSIFICATION), provider));
    for (String provider : List.of("delta", "DELTA", "text", "org.apache.spark.sql.text")) {
      assertFalse(writer.newEntry(table(provider, "a INT", List.of(), "/t"), Optional.empty(), Optional.empty())
          .parameters().containsKey(EntryFormat.CLASSIFICATION), provider);
    }
  }

  @Test
  void classificationIsReservedOnFileTablesAndAUserPropertyElsewhere() {
    TableDefinition parquet = withProperties(table("parquet", "a INT", List.of(), "/t"),
        Map.of(EntryFormat.CLASSIFICATION, "csv"), Map.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> writer.newEntry(parquet, Optional.empty(), Optional.empty()));
    assertTrue(e.getMessage().contains(EntryFormat.CLASSIFICATION), e.getMessage());
    for (String provider : List.of("delta", "text")) {
      TableDefinition t = withProperties(table(provider, "a INT", List.of(), "/t"),
          Map.of(EntryFormat.CLASSIFICATION, "custom"), Map.of());
      assertEquals("custom", writer.newEntry(t, Optional.empty(), Optional.empty()).parameters()
          .get(EntryFormat.CLASSIFICATION), provider);
    }
  }

  @Test
  void everyUpdateOfAFileTableWritesItsClassification() {
    Table older = Table.builder().name("orders")
        .parameters(Map.of("EXTERNAL", "TRUE", EntryFormat.PROVIDER, "parquet", "trino_version", "476"))
        .storageDescriptor(StorageDescriptor.builder().location("/t").build()).build();
    TableInput updated = writer.updatedEntry(older, table("parquet", "a INT, b STRING", List.of(), "/t"), Set.of(),
        Optional.empty());
    assertEquals("parquet", updated.parameters().get(EntryFormat.CLASSIFICATION), "added to an entry without it");
    assertEquals("476", updated.parameters().get("trino_version"));

    Table wrong = older.toBuilder().parameters(Map.of(EntryFormat.PROVIDER, "parquet",
        EntryFormat.CLASSIFICATION, "PARQUET")).build();
    assertEquals("parquet", writer.updatedEntry(wrong, table("parquet", "a INT", List.of(), "/t"), Set.of(),
        Optional.empty()).parameters().get(EntryFormat.CLASSIFICATION), "the format owns the value");

    // a replace by another provider: the old provider's classification goes, the new one's is written
    Table json = older.toBuilder().parameters(Map.of(EntryFormat.PROVIDER, "json",
        EntryFormat.CLASSIFICATION, "json")).build();
    assertEquals("orc", writer.updatedEntry(json, table("orc", "a INT", List.of(), "/t"), Set.of(),
        Optional.empty()).parameters().get(EntryFormat.CLASSIFICATION));
    assertFalse(writer.updatedEntry(json, table("delta", "a INT", List.of(), "/t"), Set.of(), Optional.empty())
        .parameters().containsKey(EntryFormat.CLASSIFICATION), "a Delta entry carries none");

    // on a Delta entry the key is a user property like any other, kept by updates
    Table delta = older.toBuilder().parameters(Map.of(EntryFormat.PROVIDER, "delta",
        EntryFormat.CLASSIFICATION, "custom")).build();
    assertEquals("custom", writer.updatedEntry(delta, table("delta", "a INT", List.of(), "/t"), Set.of(),
        Optional.empty()).parameters().get(EntryFormat.CLASSIFICATION));
  }

  @Test
  void classifiedAddsTheClassificationAndChangesNothingElse() {
    TableInput entry = writer.newEntry(table("parquet", "a INT", List.of(), "/t"), Optional.of("bob"),
        Optional.empty());
    Map<String, String> withoutIt = new java.util.HashMap<>(entry.parameters());
    withoutIt.remove(EntryFormat.CLASSIFICATION);
    Table older = EntryReaderTest.stored(entry.toBuilder().parameters(withoutIt).build());
    TableInput repaired = EntryEdits.classified(older);
    assertEquals(entry.parameters(), repaired.parameters());
    assertEquals(EntryEdits.renamed(older, "orders").toBuilder().parameters(entry.parameters()).build(), repaired);

    Table delta = EntryReaderTest.stored(writer.newEntry(table("delta", "a INT", List.of(), "/t"), Optional.empty(),
        Optional.empty()));
    assertEquals(EntryEdits.renamed(delta, delta.name()), EntryEdits.classified(delta), "Delta takes none");
  }

  @Test
  void reservedPropertiesCannotBeSetByUsers() {
    TableDefinition t = withProperties(table("delta", "a INT", List.of(), "/t"),
        Map.of(EntryFormat.PROVIDER, "parquet"), Map.of());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> writer.newEntry(t, Optional.empty(), Optional.empty()));
    assertTrue(e.getMessage().contains("sales.orders"), e.getMessage());
    assertTrue(e.getMessage().contains(EntryFormat.PROVIDER), e.getMessage());
  }

  @Test
  void updatePreservesEveryKeyTheFormatDoesNotOwn() {
    Table existing = Table.builder()
        .name("orders").owner("bob")
        .parameters(Map.of(
            "EXTERNAL", "TRUE",
            EntryFormat.PROVIDER, "delta",
            EntryFormat.CREATE_VERSION, "3.4.1",
            EntryFormat.SCHEMA_NUM_PARTS, "1",
            EntryFormat.SCHEMA_PART_PREFIX + "0", "{\"type\":\"struct\",\"fields\":[]}",
            "trino_last_transaction_version", "7",
            "delta.lastUpdateVersion", "7",
            "stale_user_property", "x"))
        .storageDescriptor(StorageDescriptor.builder().location("/old")
            .serdeInfo(SerDeInfo.builder().parameters(Map.of("path", "/old", "custom.serde.key", "kept")).build())
            .build())
        .build();
    TableDefinition changed = withProperties(table("delta", "id BIGINT", List.of(), "/new"),
        Map.of("owner_team", "finance"), Map.of());

    TableInput entry = writer.updatedEntry(existing, changed, Set.of("stale_user_property"), Optional.empty());

    Golden.assertMatches("delta-updated", entry);
    Map<String, String> p = entry.parameters();
    assertEquals("7", p.get("trino_last_transaction_version"));
    assertEquals("7", p.get("delta.lastUpdateVersion"));
    assertEquals("3.4.1", p.get(EntryFormat.CREATE_VERSION), "the create version is the table's, not the updater's");
    assertFalse(p.containsKey("stale_user_property"));
    assertFalse(p.containsKey(EntryFormat.SCHEMA_NUM_PARTS), "old schema parts are replaced, not mixed in");
    assertEquals("finance", p.get("owner_team"));
    assertEquals("bob", entry.owner());
    Map<String, String> serde = entry.storageDescriptor().serdeInfo().parameters();
    assertEquals("kept", serde.get("custom.serde.key"));
    assertEquals("/new", serde.get("path"));
  }

  @Test
  void tableNamesAreLowerCase() {
    TableDefinition t = new TableDefinition(new TableName("Sales", "Orders"), "delta", schema("a INT"), List.of(),
        "/t", Optional.empty(), Map.of(), Map.of());
    assertEquals("orders", writer.newEntry(t, Optional.empty(), Optional.empty()).name());
  }

  private static List<String> names(List<Column> columns) {
    return columns.stream().map(Column::name).collect(java.util.stream.Collectors.toList());
  }

  private static List<String> types(List<Column> columns) {
    return columns.stream().map(Column::type).collect(java.util.stream.Collectors.toList());
  }
}
