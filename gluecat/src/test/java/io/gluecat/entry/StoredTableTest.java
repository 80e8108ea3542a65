package io.gluecat.entry;

import static io.gluecat.entry.Tables.table;
import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;
import software.amazon.awssdk.services.glue.model.TableIdentifier;

/** What code outside glue/ and entry/ reads of an entry (the tools), in gluecat's terms (issue #42). */
class StoredTableTest {
  private final EntryWriter writer = new EntryWriter("3.5.7", EntryFormat.DEFAULT_SCHEMA_THRESHOLD);

  private static StoredTable stored(TableInput in) {
    return new StoredTable(EntryReaderTest.stored(in));
  }

  @Test
  void aSparkSpecificEntryIsReadAtItsSerdePathNotItsPlaceholder() {
    TableInput in = writer.newEntry(table("csv", "id BIGINT COMMENT 'the id', day DATE", List.of("day"),
        "s3://bucket/sales/orders"), Optional.empty(), Optional.of("s3://bucket/sales"));
    StoredTable t = stored(in);

    assertEquals(Optional.of("s3://bucket/sales/orders"), t.serdePath());
    assertEquals(in.storageDescriptor().location(), t.storageLocation().orElseThrow());
    assertTrue(t.storageLocation().orElseThrow().endsWith(EntryFormat.PLACEHOLDER_SUFFIX), "the placeholder, as stored");
    assertEquals(Optional.empty(), t.realStorageLocation(), "a placeholder is no location");
    assertEquals(Optional.of("s3://bucket/sales/orders"), t.readLocation());
    assertEquals(List.of(new StoredColumn(EntryFormat.PLACEHOLDER_COLUMN, EntryFormat.PLACEHOLDER_COLUMN_TYPE,
        "from deserializer")), t.columns());
    assertEquals("csv", t.parameters().get(EntryFormat.PROVIDER));
    assertTrue(t.hasSerdeInfo());
    assertEquals(Optional.ofNullable(in.storageDescriptor().serdeInfo().serializationLibrary()),
        t.serializationLibrary());
    assertEquals(in.storageDescriptor().serdeInfo().parameters(), t.serdeParameters());
    assertEquals("orders", t.name());
    assertEquals("1", t.versionId());
    assertEquals(in.tableType(), t.tableType());
    assertFalse(t.isView());
    assertFalse(t.isResourceLink());
    assertEquals(Optional.empty(), t.resourceLinkTarget());
  }

  @Test
  void aHiveCompatibleEntryHasItsColumnsAndPartitionKeysWithComments() {
    StoredTable t = stored(writer.newEntry(table("parquet", "id BIGINT COMMENT 'the id', day DATE", List.of("day"),
        "s3://bucket/sales/orders"), Optional.empty(), Optional.empty()));
    assertEquals(List.of(new StoredColumn("id", "bigint", "the id")), t.columns());
    assertEquals(List.of(new StoredColumn("day", "date", null)), t.partitionKeys());
    assertTrue(t.isPartitioned());
    assertEquals(Optional.of("s3://bucket/sales/orders"), t.realStorageLocation());
    assertEquals(Optional.of("s3://bucket/sales/orders"), t.readLocation());
  }

  @Test
  void anEntryWithNothingButANameHasNoneOfIt() {
    StoredTable t = new StoredTable(Table.builder().name("bare").build());
    assertEquals(Map.of(), t.parameters());
    assertNull(t.description());
    assertNull(t.tableType());
    assertEquals(List.of(), t.columns());
    assertEquals(List.of(), t.partitionKeys());
    assertFalse(t.isPartitioned());
    assertFalse(t.hasSerdeInfo());
    assertEquals(Optional.empty(), t.serializationLibrary());
    assertEquals(Map.of(), t.serdeParameters());
    assertEquals(Optional.empty(), t.storageLocation());
    assertEquals(Optional.empty(), t.serdePath());
    assertEquals(Optional.empty(), t.readLocation());

    StoredTable noSerde = new StoredTable(Table.builder().name("t")
        .storageDescriptor(StorageDescriptor.builder().location("s3://b/t").build()).build());
    assertFalse(noSerde.hasSerdeInfo());
    assertEquals(Optional.of("s3://b/t"), noSerde.readLocation());
  }

  @Test
  void locationsAreTrimmedAndABlankSerdePathFallsBackToTheStorageLocation() {
    StoredTable t = new StoredTable(Table.builder().name("t").storageDescriptor(StorageDescriptor.builder()
        .location(" s3://b/sd ").serdeInfo(SerDeInfo.builder().parameters(Map.of(EntryFormat.PATH, "  ")).build())
        .columns(Column.builder().name("A").type("int").build()).build()).build());
    assertEquals(Optional.empty(), t.serdePath());
    assertEquals(Optional.of(" s3://b/sd "), t.storageLocation(), "as stored");
    assertEquals(Optional.of("s3://b/sd"), t.realStorageLocation());
    assertEquals(Optional.of("s3://b/sd"), t.readLocation());
    assertTrue(t.hasSerdeInfo());
    assertEquals(Optional.empty(), t.serializationLibrary());
    assertEquals(List.of(new StoredColumn("A", "int", null)), t.columns());

    StoredTable withPath = new StoredTable(t.sdkTable().toBuilder().storageDescriptor(t.sdkTable().storageDescriptor()
        .toBuilder().serdeInfo(SerDeInfo.builder().parameters(Map.of(EntryFormat.PATH, " s3://b/path ")).build())
        .build()).build());
    assertEquals(Optional.of("s3://b/path"), withPath.serdePath());
    assertEquals(Optional.of("s3://b/path"), withPath.readLocation(), "the SerDe path first");
  }

  @Test
  void viewsAndResourceLinksAreToldApart() {
    assertTrue(new StoredTable(Table.builder().name("v").tableType("VIRTUAL_VIEW").build()).isView());
    assertTrue(new StoredTable(Table.builder().name("v").tableType("MATERIALIZED_VIEW").build()).isView());
    StoredTable link = new StoredTable(Table.builder().name("l").targetTable(TableIdentifier.builder()
        .catalogId("123456789012").databaseName("other").name("orders").build()).build());
    assertTrue(link.isResourceLink());
    assertEquals(Optional.of("other.orders"), link.resourceLinkTarget());
    assertFalse(link.isView());
  }

  @Test
  void theColumnsANewEntryWouldHaveAreTheWritersColumns() {
    TableDefinition delta = table("delta", "id BIGINT COMMENT 'the id', day DATE", List.of("day"), "s3://b/t");
    assertEquals(List.of(new StoredColumn("id", "bigint", "the id"), new StoredColumn("day", "date", null)),
        writer.newEntryColumns(delta));
    assertEquals(stored(writer.newEntry(delta, Optional.empty(), Optional.empty())).columns(),
        writer.newEntryColumns(delta));
  }
}
