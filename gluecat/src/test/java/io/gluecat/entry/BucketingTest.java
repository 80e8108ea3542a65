package io.gluecat.entry;

import static io.gluecat.entry.Tables.schema;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.InvalidGlueEntryException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.LogicalExpressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.Transform;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/** A bucketed file source table's entry, both ways, as Spark's Hive path stores one (docs/entry-format.md). */
class BucketingTest {
  private final EntryWriter writer = new EntryWriter("3.5.7", EntryFormat.DEFAULT_SCHEMA_THRESHOLD);

  private static TableDefinition bucketed(String provider, Bucketing bucketing) {
    return new TableDefinition(new TableName("sales", "orders"), provider, schema("id BIGINT, name STRING, day DATE"),
        List.of("day"), "s3://b/sales/orders", Optional.empty(), Map.of(), Map.of(), Optional.of(bucketing));
  }

  @Test
  void theSpecIsInTheParametersOnlyNeverInHivesBucketFields() {
    TableInput entry = writer.newEntry(bucketed("parquet", new Bucketing(4, List.of("id"), List.of("name", "id"))),
        Optional.empty(), Optional.empty());
    Map<String, String> p = entry.parameters();
    assertEquals("4", p.get("spark.sql.sources.schema.numBuckets"));
    assertEquals("1", p.get("spark.sql.sources.schema.numBucketCols"));
    assertEquals("id", p.get("spark.sql.sources.schema.bucketCol.0"));
    assertEquals("2", p.get("spark.sql.sources.schema.numSortCols"));
    assertEquals("name", p.get("spark.sql.sources.schema.sortCol.0"));
    assertEquals("id", p.get("spark.sql.sources.schema.sortCol.1"));
    // Hive-compatible as any parquet table, and unbucketed to Hive's readers: Spark's hash is not Hive's
    assertEquals(EntryWriter.Form.HIVE_COMPATIBLE, EntryWriter.formOf(bucketed("parquet",
        new Bucketing(4, List.of("id"), List.of()))));
    assertEquals(-1, entry.storageDescriptor().numberOfBuckets());
    assertEquals(List.of(), entry.storageDescriptor().bucketColumns());
    assertEquals(List.of(), entry.storageDescriptor().sortColumns());

    Map<String, String> unsorted = writer.newEntry(bucketed("csv", new Bucketing(8, List.of("name", "id"), List.of())),
        Optional.empty(), Optional.empty()).parameters();
    assertEquals("2", unsorted.get("spark.sql.sources.schema.numBucketCols"));
    assertFalse(unsorted.keySet().stream().anyMatch(k -> k.contains("Sort") || k.contains("sortCol")),
        unsorted::toString);
  }

  @Test
  void readBackAndKeptByAnUpdate() {
    Bucketing spec = new Bucketing(4, List.of("id"), List.of("name"));
    TableInput entry = writer.newEntry(bucketed("parquet", spec), Optional.empty(), Optional.empty());
    GlueEntry read = EntryReaderTest.read(EntryReaderTest.stored(entry));
    assertEquals(Optional.of(spec), read.bucketing());
    assertFalse(read.properties().keySet().stream().anyMatch(k -> k.startsWith("spark.sql.")), "not user properties");
    Table updated = EntryReaderTest.stored(writer.updatedEntry(EntryReaderTest.stored(entry),
        bucketed("parquet", spec), java.util.Set.of(), Optional.empty()));
    assertEquals(Optional.of(spec), EntryReaderTest.read(updated).bucketing());
    assertEquals(Optional.empty(), EntryReaderTest.read(EntryReaderTest.stored(writer.newEntry(
        Tables.table("parquet", "id BIGINT", List.of(), "s3://b/t"), Optional.empty(), Optional.empty()))).bucketing());
  }

  @Test
  void brokenSpecsNameTheTable() {
    TableInput entry = writer.newEntry(bucketed("parquet", new Bucketing(4, List.of("id"), List.of())),
        Optional.empty(), Optional.empty());
    for (Map<String, String> change : List.of(Map.of("spark.sql.sources.schema.numBuckets", "four"),
        Map.of("spark.sql.sources.schema.bucketCol.0", "nope"), Map.of("spark.sql.sources.schema.numBucketCols", "2"))) {
      Map<String, String> parameters = new LinkedHashMap<>(entry.parameters());
      parameters.putAll(change);
      Table broken = EntryReaderTest.stored(entry.toBuilder().parameters(parameters).build());
      InvalidGlueEntryException e = assertThrows(InvalidGlueEntryException.class, () -> EntryReaderTest.read(broken));
      assertTrue(e.getMessage().contains("glue.sales.orders"), e::getMessage);
    }
  }

  @Test
  void fromTheCreatesTransformsInTheTablesCase() {
    NamedReference[] id = {Expressions.column("ID")};
    Transform[] sorted = {Expressions.identity("day"), LogicalExpressions.bucket(4, id,
        new NamedReference[] {Expressions.column("Name")})};
    assertEquals(Optional.of(new Bucketing(4, List.of("id"), List.of("name"))),
        Bucketing.of("glue.sales.orders", sorted, schema("id BIGINT, name STRING, day DATE"), List.of("day")));
    assertEquals(Optional.of(new Bucketing(2, List.of("id"), List.of())), Bucketing.of("glue.sales.orders",
        new Transform[] {LogicalExpressions.bucket(2, id)}, schema("id BIGINT"), List.of()));
    assertEquals(Optional.empty(), Bucketing.of("glue.sales.orders", new Transform[] {Expressions.identity("id")},
        schema("id BIGINT"), List.of("id")));
    IllegalArgumentException partition = assertThrows(IllegalArgumentException.class, () -> Bucketing.of(
        "glue.sales.orders", new Transform[] {LogicalExpressions.bucket(2, new NamedReference[] {
            Expressions.column("day")})}, schema("id BIGINT, day DATE"), List.of("day")));
    assertTrue(partition.getMessage().contains("glue.sales.orders") && partition.getMessage().contains("partition"),
        partition::getMessage);
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> Bucketing.of(
        "glue.sales.orders", new Transform[] {LogicalExpressions.bucket(2, new NamedReference[] {
            Expressions.column("nope")})}, schema("id BIGINT"), List.of()));
    assertTrue(missing.getMessage().contains("nope"), missing::getMessage);
    assertEquals("CLUSTERED BY (id) SORTED BY (name) INTO 4 BUCKETS",
        new Bucketing(4, List.of("id"), List.of("name")).sql());
  }
}
