package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.types.StructField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * The Athena-shape column of the compatibility report. Athena is not run here; what its Delta Lake support
 * needs from a Glue entry is: the parameter {@code table_type = DELTA}, a {@code StorageDescriptor.Location}
 * that is the Delta table's root (the directory holding {@code _delta_log}, not a placeholder), and, for
 * Lake Formation, views and row or column filters, Glue columns equal to the schema in the Delta log. Each
 * test writes a Delta table with gluecat one way and checks exactly those fields of the entry in Glue against
 * what Delta itself reports for the table ({@code DESCRIBE DETAIL}). Case ids that the Trino suites also use
 * (delta-partitioned-ctas, delta-after-replace, delta-after-add-columns) put both readers on one line of the
 * report.
 *
 * <p>Named mode only: the entry is written by the same code in both modes, and the session-mode Delta tests
 * (SessionModeDeltaIT) already check {@code table_type} and the location of the entries they create.
 */
@ExtendWith(CompatResults.class)
class AthenaShapeIT extends CatalogModeTest {

  /** Checks the fields Athena reads on the entry of {@code table} and returns the entry. */
  private Table assertAthenaShape(String table) {
    Table entry = glueTable(db, table);
    assertEquals("DELTA", entry.parameters().get("table_type"), "table_type of " + table);
    assertEquals("EXTERNAL_TABLE", entry.tableType(), "TableType of " + table);

    Row detail = session.sql("DESCRIBE DETAIL " + t(table)).collectAsList().get(0);
    String deltaRoot = detail.getString(detail.fieldIndex("location"));
    String location = entry.storageDescriptor().location();
    assertFalse(location.contains("__PLACEHOLDER__"), "a real location, not a placeholder: " + location);
    assertEquals(normalize(deltaRoot), normalize(location), "Location is the root of the Delta table Spark reads");
    assertTrue(Files.isDirectory(localPath(location).resolve("_delta_log")), "a _delta_log under " + location);

    List<String> logSchema = Arrays.stream(session.table(t(table)).schema().fields())
        .map(AthenaShapeIT::column).collect(Collectors.toList());
    List<String> glueColumns = entry.storageDescriptor().columns().stream()
        .map(c -> c.name() + " " + c.type()).collect(Collectors.toList());
    assertEquals(logSchema, glueColumns, "Glue columns match the Delta log's schema");
    assertTrue(entry.partitionKeys() == null || entry.partitionKeys().isEmpty(),
        "Delta partitions live in the log, not in PartitionKeys");
    return entry;
  }

  private static String column(StructField f) {
    return f.name() + " " + f.dataType().catalogString();
  }

  private static String normalize(String location) {
    String l = location.replaceFirst("^file:/+", "/");
    return l.endsWith("/") ? l.substring(0, l.length() - 1) : l;
  }

  private static Path localPath(String location) {
    return Paths.get(normalize(location));
  }

  @Test
  @CompatCase(id = "delta-create", reader = "athena-shape", writer = "gluecat",
      title = "Delta table created with CREATE TABLE (managed location)")
  void createTable() {
    run("CREATE TABLE " + t("plain") + " (id BIGINT, name STRING) USING delta");
    run("INSERT INTO " + t("plain") + " VALUES (1, 'a')");
    assertAthenaShape("plain");
  }

  @Test
  @CompatCase(id = "delta-create-partitioned", reader = "athena-shape", writer = "gluecat",
      title = "Partitioned Delta table created with CREATE TABLE ... PARTITIONED BY")
  void createPartitionedTable() {
    run("CREATE TABLE " + t("parts") + " (id BIGINT, region STRING, day DATE) USING delta "
        + "PARTITIONED BY (region, day)");
    run("INSERT INTO " + t("parts") + " VALUES (1, 'eu', DATE'2026-01-01')");
    Table entry = assertAthenaShape("parts");
    assertEquals("region", entry.parameters().get("spark.sql.sources.schema.partCol.0"));
    assertEquals("day", entry.parameters().get("spark.sql.sources.schema.partCol.1"));
  }

  @Test
  @CompatCase(id = "delta-create-location", reader = "athena-shape", writer = "gluecat",
      title = "Delta table created with CREATE TABLE ... LOCATION (external location)")
  void createTableAtLocation() {
    String location = newDirectory("external");
    run("CREATE TABLE " + t("ext") + " (id BIGINT) USING delta LOCATION '" + location + "'");
    assertEquals(normalize(location), normalize(assertAthenaShape("ext").storageDescriptor().location()));
  }

  @Test
  @CompatCase(id = "delta-register-existing", reader = "athena-shape", writer = "gluecat",
      title = "Existing Delta table registered with CREATE TABLE ... USING delta LOCATION")
  void registerExistingTable() {
    String location = newDirectory("existing");
    session.range(0, 3).selectExpr("id", "cast(id AS STRING) AS label").write().format("delta").save(location);
    run("CREATE TABLE " + t("registered") + " USING delta LOCATION '" + location + "'");
    assertAthenaShape("registered");
  }

  @Test
  @CompatCase(id = "delta-partitioned-ctas", reader = "athena-shape", writer = "gluecat",
      title = "Partitioned Delta table created with CTAS")
  void createTableAsSelect() {
    run("CREATE TABLE " + t("ctas") + " USING delta PARTITIONED BY (bucket) "
        + "AS SELECT id, id % 3 AS bucket, 'x' AS tag FROM range(6)");
    assertAthenaShape("ctas");
  }

  @Test
  @CompatCase(id = "delta-replace-as-select", reader = "athena-shape", writer = "gluecat",
      title = "Delta table after REPLACE TABLE ... AS SELECT with a new schema and partitioning")
  void replaceTableAsSelect() {
    run("CREATE TABLE " + t("replaced") + " USING delta AS SELECT id FROM range(3)");
    String before = glueTable(db, "replaced").storageDescriptor().location();
    run("REPLACE TABLE " + t("replaced") + " USING delta PARTITIONED BY (kind) "
        + "AS SELECT id, 'k' AS kind, id * 1.5 AS amount FROM range(2)");
    Table entry = assertAthenaShape("replaced");
    assertEquals(before, entry.storageDescriptor().location(), "a Delta replace keeps the table's location");
  }

  @Test
  @CompatCase(id = "delta-after-replace", reader = "athena-shape", writer = "gluecat",
      title = "Delta table after CREATE OR REPLACE TABLE ... AS SELECT with a new schema")
  void createOrReplaceTable() {
    run("CREATE TABLE " + t("cor") + " (id BIGINT) USING delta");
    run("CREATE OR REPLACE TABLE " + t("cor") + " USING delta AS SELECT id, 'v2' AS version FROM range(2)");
    assertAthenaShape("cor");
  }

  @Test
  @CompatCase(id = "delta-save-as-table", reader = "athena-shape", writer = "gluecat",
      title = "Delta table written with DataFrameWriter.saveAsTable, then overwritten with a new schema")
  void saveAsTable() {
    session.range(0, 2).write().format("delta").saveAsTable(t("saved"));
    session.range(0, 4).selectExpr("id", "id * 2 AS twice").write().format("delta")
        .mode(SaveMode.Overwrite).option("overwriteSchema", "true").saveAsTable(t("saved"));
    assertAthenaShape("saved");
  }

  @Test
  @CompatCase(id = "delta-after-add-columns", reader = "athena-shape", writer = "gluecat",
      title = "Delta table after ALTER TABLE ADD COLUMNS")
  void alterAddColumns() {
    run("CREATE TABLE " + t("altered") + " (id BIGINT) USING delta");
    run("ALTER TABLE " + t("altered") + " ADD COLUMNS (amount DECIMAL(10,2), tags ARRAY<STRING>)");
    assertAthenaShape("altered");
  }

  @Test
  @CompatCase(id = "delta-rename", reader = "athena-shape", writer = "gluecat",
      title = "Delta table after ALTER TABLE ... RENAME TO")
  void renameTable() {
    run("CREATE TABLE " + t("before") + " USING delta AS SELECT id FROM range(2)");
    run("ALTER TABLE " + t("before") + " RENAME TO " + t("after"));
    assertAthenaShape("after");
  }

  @Test
  @CompatCase(id = "delta-converted", reader = "athena-shape", writer = "gluecat",
      title = "Partitioned parquet table after CONVERT TO DELTA (gluecat's session extension)")
  void convertToDelta() {
    run("CREATE TABLE " + t("converted") + " (id BIGINT, region STRING) USING parquet PARTITIONED BY (region)");
    run("INSERT INTO " + t("converted") + " VALUES (1, 'eu'), (2, 'us')");
    String before = glueTable(db, "converted").storageDescriptor().location();
    run("CONVERT TO DELTA " + t("converted"));
    Table entry = assertAthenaShape("converted");
    assertEquals(before, entry.storageDescriptor().location(), "converted in place");
  }

  @Test
  @CompatCase(id = "delta-shallow-clone", reader = "athena-shape", writer = "gluecat",
      title = "Delta table created with CREATE TABLE ... SHALLOW CLONE of a gluecat table")
  void shallowClone() {
    run("CREATE TABLE " + t("clone_src") + " USING delta PARTITIONED BY (kind) AS SELECT id, 'k' AS kind FROM range(3)");
    run("CREATE TABLE " + t("cloned") + " SHALLOW CLONE " + t("clone_src"));
    assertAthenaShape("cloned");
  }

  /** Columns added by a write (not an ALTER) reach Glue after the statement, or at the latest on the next load. */
  @Test
  @CompatCase(id = "delta-after-merge-schema-evolution", reader = "athena-shape", writer = "gluecat",
      title = "Delta table after MERGE with schema evolution added a column, then RESTORE removed it again")
  void mergeWithSchemaEvolutionThenRestore() {
    run("CREATE TABLE " + t("evolved") + " USING delta AS SELECT id FROM range(2)");
    session.conf().set("spark.databricks.delta.schema.autoMerge.enabled", "true");
    try {
      run("MERGE INTO " + t("evolved") + " t USING (SELECT id, 'new' AS note FROM range(1, 3)) s ON t.id = s.id "
          + "WHEN MATCHED THEN UPDATE SET * WHEN NOT MATCHED THEN INSERT *");
    } finally {
      session.conf().unset("spark.databricks.delta.schema.autoMerge.enabled");
    }
    run("DESCRIBE TABLE " + t("evolved"));
    assertEquals(List.of("id", "note"), glueTable(db, "evolved").storageDescriptor().columns().stream()
        .map(c -> c.name()).collect(Collectors.toList()));
    assertAthenaShape("evolved");
    run("RESTORE TABLE " + t("evolved") + " TO VERSION AS OF 0");
    run("DESCRIBE TABLE " + t("evolved"));
    assertAthenaShape("evolved");
  }

  /**
   * Athena reads a partitioned Hive table (parquet, orc) from Glue's partition objects: the entry must have the
   * provider's real SerDe, formats and location, and each partition directory a partition object whose location
   * is that directory and whose storage is the table's. The case id is the Trino Hive suite's, so both readers
   * share a line of the report.
   */
  @Test
  @CompatCase(id = "parquet-partitioned-read-by-hive", reader = "athena-shape", writer = "gluecat",
      title = "Partitioned parquet table (CTAS, then insertInto) read by Trino's Hive connector: every row")
  void partitionedParquetTable() {
    run("CREATE TABLE " + t("sales") + " USING parquet PARTITIONED BY (region) AS "
        + "SELECT id, CASE WHEN id % 2 = 0 THEN 'eu' ELSE 'us' END AS region FROM range(4)");
    session.range(10, 11).selectExpr("id", "'apac' AS region").write().insertInto(t("sales"));
    Table entry = glueTable(db, "sales");
    String location = entry.storageDescriptor().location();
    assertEquals("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat", entry.storageDescriptor().inputFormat());
    assertEquals("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
        entry.storageDescriptor().serdeInfo().serializationLibrary());
    assertEquals(List.of("region"), entry.partitionKeys().stream().map(c -> c.name()).collect(Collectors.toList()));
    List<String> partitions = GLUE.getPartitions(r -> r.databaseName(db).tableName("sales")).partitions().stream()
        .map(p -> String.join("/", p.values()) + " " + p.storageDescriptor().location() + " "
            + p.storageDescriptor().inputFormat() + " " + p.storageDescriptor().columns())
        .sorted().collect(Collectors.toList());
    List<String> expected = java.util.stream.Stream.of("apac", "eu", "us")
        .map(v -> v + " " + location + "/region=" + v + " " + entry.storageDescriptor().inputFormat() + " "
            + entry.storageDescriptor().columns())
        .collect(Collectors.toList());
    assertEquals(expected, partitions);
    for (String v : List.of("apac", "eu", "us")) {
      assertTrue(Files.isDirectory(localPath(location).resolve("region=" + v)), "a directory per partition: " + v);
    }
  }
}
