package io.gluecat.catalog;

import static io.gluecat.catalog.InMemoryCatalogs.CATALOG;
import static io.gluecat.catalog.InMemoryCatalogs.DATABASE;
import static io.gluecat.catalog.InMemoryCatalogs.table;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.entry.EntryFormat;
import io.gluecat.files.FileTable;
import io.gluecat.glue.InMemoryGlue;
import io.gluecat.hive.HiveTable;
import io.gluecat.entry.ViewEntry;
import io.gluecat.entry.ViewFormat;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.catalog.CatalogTableType;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.V1Table;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * Which kind of table a Glue entry loads as (issue #42): the catalog routes by what the entry is, and an entry it
 * cannot serve is refused naming the table, never loaded as something else.
 */
class LoadRoutingTest {
  private static final StructType SCHEMA = StructType.fromDDL("id BIGINT, amount DOUBLE");
  private static SparkSession spark;

  @TempDir
  Path warehouse;
  private InMemoryGlue glue;
  private AbstractGlueCatalog catalog;

  @BeforeAll
  static void startSession() {
    spark = InMemoryCatalogs.startSession("load-routing");
  }

  @AfterAll
  static void stopSession() {
    spark.stop();
  }

  @BeforeEach
  void catalog() {
    glue = InMemoryCatalogs.glueWithDatabase(warehouse);
    catalog = InMemoryCatalogs.catalog(glue);
  }

  private TableInput sparkEntry(String name, String provider) {
    return InMemoryCatalogs.fileEntry(warehouse, name, provider, SCHEMA);
  }

  private TableInput withParameter(TableInput entry, String key, String value) {
    Map<String, String> parameters = new HashMap<>(entry.parameters());
    parameters.put(key, value);
    return entry.toBuilder().parameters(parameters).build();
  }

  @Test
  void aParquetEntryLoadsAsAFileTableWithItsSchema() throws Exception {
    glue.entry(DATABASE, sparkEntry("orders", "parquet"));

    Table loaded = catalog.loadTable(table("orders"));

    assertInstanceOf(FileTable.class, loaded);
    assertEquals(SCHEMA, loaded.schema());
    assertEquals("parquet", ((V1Table) loaded).v1Table().provider().get());
    assertTrue(glue.callNames().stream().allMatch(c -> c.startsWith("GetTable ")), "a load only reads: "
        + glue.callNames());
  }

  @Test
  void aHiveFormatEntryLoadsAsAHiveTable() throws Exception {
    // as a crawler catalogs parquet files: no Spark provider, Hive's SerDe and formats
    glue.entry(DATABASE, TableInput.builder().name("crawled").tableType(EntryFormat.GLUE_EXTERNAL_TABLE)
        .parameters(Map.of("classification", "parquet"))
        .storageDescriptor(sd -> sd.location(warehouse.resolve("crawled").toUri().toString())
            .inputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat")
            .outputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat")
            .columns(Column.builder().name("id").type("bigint").build(),
                Column.builder().name("amount").type("double").build())
            .serdeInfo(s -> s.serializationLibrary("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe")))
        .build());

    Table loaded = catalog.loadTable(table("crawled"));

    assertInstanceOf(HiveTable.class, loaded);
    assertEquals(SCHEMA, loaded.schema());
  }

  @Test
  void aViewIsNoTable() throws Exception {
    ViewEntry view = ViewEntry.builder(DATABASE, "big_orders", "SELECT 1 AS id").schema(StructType.fromDDL("id INT"))
        .currentCatalog(CATALOG).currentNamespace(List.of(DATABASE)).queryColumnNames(List.of("id")).build();
    glue.entry(DATABASE, ViewFormat.newEntry(view, spark.version(), EntryFormat.DEFAULT_SCHEMA_THRESHOLD));

    assertFalse(catalog.tableExists(table("big_orders")));
    if (catalog.viewsAsTables()) {
      // Spark 3.5 and 4.1 read a catalog's views only as a V1Table of type VIEW, which they expand themselves
      Table loaded = catalog.loadTable(table("big_orders"));
      assertEquals(CatalogTableType.VIEW(), ((V1Table) loaded).v1Table().tableType());
    } else {
      assertThrows(NoSuchTableException.class, () -> catalog.loadTable(table("big_orders")));
    }
  }

  @Test
  void anEntryOfAProviderTheCatalogDoesNotServeIsRefusedByName() {
    // a jdbc entry carries the URL Spark would connect to: never served unless providers.extra allows it
    glue.entry(DATABASE, sparkEntry("remote", "jdbc"));

    InvalidGlueEntryException e = assertThrows(InvalidGlueEntryException.class,
        () -> catalog.loadTable(table("remote")));

    assertTrue(e.getMessage().contains("glue.sales.remote") && e.getMessage().contains("'jdbc'"), e.getMessage());
  }

  @Test
  void aMalformedEntryIsRefusedByName() {
    glue.entry(DATABASE, withParameter(sparkEntry("broken", "parquet"), EntryFormat.SCHEMA, "{not json"));

    InvalidGlueEntryException e = assertThrows(InvalidGlueEntryException.class,
        () -> catalog.loadTable(table("broken")));

    assertTrue(e.getMessage().contains("glue.sales.broken"), e.getMessage());
  }

  @Test
  void anIcebergEntryWithoutIcebergsRuntimeIsRefusedByNameNamingTheArtifact() {
    // as Athena, Trino or Iceberg's own GlueCatalog leave it; these unit tests have no Iceberg on the classpath
    glue.entry(DATABASE, TableInput.builder().name("ice").tableType(EntryFormat.GLUE_EXTERNAL_TABLE)
        .parameters(Map.of("table_type", "ICEBERG", "metadata_location", warehouse.resolve("ice/v1.metadata.json")
            .toUri().toString())).build());
    glue.clearCalls();

    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> catalog.loadTable(table("ice")));

    assertTrue(e.getMessage().contains("glue.sales.ice is an Apache Iceberg table")
        && e.getMessage().contains("Iceberg's Spark runtime"), e.getMessage());
    // the kind is told from the read the load makes anyway
    assertEquals(catalog.viewsAsTables() ? List.of("GetTable sales.ice", "GetTable sales.ice")
        : List.of("GetTable sales.ice"), glue.callNames());
  }

  @Test
  void aMissingEntryIsNoSuchTable() {
    NoSuchTableException e = assertThrows(NoSuchTableException.class, () -> catalog.loadTable(table("nothing")));

    assertTrue(e.getMessage().contains("nothing"), e.getMessage());
    // where views load as tables the view lookup reads the entry first; outside a statement (whose cache keeps
    // the not-found answer) the table load reads it again
    assertEquals(catalog.viewsAsTables() ? List.of("GetTable sales.nothing", "GetTable sales.nothing")
        : List.of("GetTable sales.nothing"), glue.callNames());
  }
}
