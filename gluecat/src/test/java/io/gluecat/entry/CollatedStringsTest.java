package io.gluecat.entry;

import static io.gluecat.entry.Tables.table;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * A string with a collation other than UTF8_BINARY is not a Hive type (HiveExternalCatalog). Collations came
 * with Spark 4: on older lines these DDL strings do not parse, so the tests are skipped there.
 */
class CollatedStringsTest {
  private static final String SPARK = org.apache.spark.package$.MODULE$.SPARK_VERSION();

  @BeforeEach
  void collationsExist() {
    assumeTrue(Integer.parseInt(SPARK.substring(0, SPARK.indexOf('.'))) >= 4, "Spark " + SPARK + " has no collations");
  }

  @Test
  void aCollatedStringForcesTheSparkSpecificForm() {
    assertEquals(EntryWriter.Form.SPARK_SPECIFIC,
        EntryWriter.formOf(table("parquet", "id BIGINT, name STRING COLLATE UTF8_LCASE", List.of(), "/t")));
    assertEquals(EntryWriter.Form.SPARK_SPECIFIC,
        EntryWriter.formOf(table("parquet", "tags ARRAY<STRING COLLATE UNICODE_CI>", List.of(), "/t")));
    assertEquals(EntryWriter.Form.HIVE_COMPATIBLE,
        EntryWriter.formOf(table("parquet", "id BIGINT, name STRING COLLATE UTF8_BINARY", List.of(), "/t")));
  }

  @Test
  void aCollatedPartitionColumnIsDerivedFromTheDeserializerAndTheSchemaKeepsTheCollation() {
    TableInput entry = new EntryWriter(SPARK, EntryFormat.DEFAULT_SCHEMA_THRESHOLD).newEntry(
        table("parquet", "id BIGINT, region STRING COLLATE UTF8_LCASE", List.of("region"), "/t"),
        Optional.empty(), Optional.empty());
    assertEquals("<derived from deserializer>", entry.partitionKeys().get(0).type());
    assertTrue(entry.parameters().get(EntryFormat.SCHEMA).contains("UTF8_LCASE"),
        entry.parameters().get(EntryFormat.SCHEMA));
  }

  @Test
  void aStringNamingTheDefaultCollationIsAPlainHiveStringInGlue() {
    TableInput entry = new EntryWriter(SPARK, EntryFormat.DEFAULT_SCHEMA_THRESHOLD).newEntry(
        table("parquet", "name STRING COLLATE UTF8_BINARY, tags ARRAY<STRING COLLATE UTF8_BINARY>, c CHAR(2), "
            + "region STRING COLLATE UTF8_BINARY", List.of("region"), "/t"), Optional.empty(), Optional.empty());
    assertEquals(List.of("name string", "tags array<string>", "c char(2)"), entry.storageDescriptor().columns()
        .stream().map(c -> c.name() + " " + c.type()).toList());
    assertEquals("string", entry.partitionKeys().get(0).type());
  }
}
