package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.assertMessage;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.CatalogModeTest;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.Table;

/** Parquet, ORC, CSV, JSON and Avro tables created, written, altered and refused through gluecat. */
class FileTablesIT extends CatalogModeTest {

  /** What Spark's Hive path writes per provider: SerDe, input format, output format; null = Spark-specific form. */
  private static final Map<String, List<String>> HIVE_FORMS = Map.of(
      "parquet", List.of("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
          "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
          "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat"),
      "orc", List.of("org.apache.hadoop.hive.ql.io.orc.OrcSerde", "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
          "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat"),
      "avro", List.of("org.apache.hadoop.hive.serde2.avro.AvroSerDe",
          "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
          "org.apache.hadoop.hive.ql.io.avro.AvroContainerOutputFormat"));

  @AfterEach
  void tearDown() {
    session.conf().unset("spark.sql.sources.partitionOverwriteMode");
  }

  private static List<String> columns(List<Column> columns) {
    return columns.stream().map(c -> c.name() + " " + c.type()).collect(Collectors.toList());
  }

  @ParameterizedTest
  @ValueSource(strings = {"parquet", "orc", "csv", "json", "avro"})
  void createInsertOverwriteAndSelect(String provider) {
    String table = t("events_" + provider);
    run("CREATE TABLE " + table + " (id BIGINT COMMENT 'event id', name STRING, day STRING) USING " + provider
        + " PARTITIONED BY (day) COMMENT 'Events' TBLPROPERTIES ('team' = 'ops')");

    Table entry = glueTable(db, "events_" + provider);
    String location = entry.storageDescriptor().serdeInfo().parameters().get("path");
    assertTrue(location.startsWith(dbLocation + "/events_" + provider + "-"), location);
    assertEquals("EXTERNAL_TABLE", entry.tableType());
    assertEquals(provider, entry.parameters().get("spark.sql.sources.provider"));
    assertEquals("filesystem", entry.parameters().get("spark.sql.partitionProvider"));
    assertEquals("1", entry.parameters().get("spark.sql.sources.schema.numPartCols"));
    assertEquals("day", entry.parameters().get("spark.sql.sources.schema.partCol.0"));
    assertEquals("ops", entry.parameters().get("team"));
    assertEquals("Events", entry.description());
    assertEquals("Events", entry.parameters().get("comment"));
    assertNull(entry.parameters().get("table_type"));
    assertEquals(provider, entry.parameters().get("classification"), "the Glue crawler's value");
    assertEquals(List.of(), rows("SHOW TBLPROPERTIES " + table).stream().filter(r -> r.startsWith("[classification,"))
        .collect(Collectors.toList()), "the format's key, not a table property");
    assertMessage(() -> run("ALTER TABLE " + table + " SET TBLPROPERTIES ('classification' = 'csv')"), "classification",
        "reserved");
    assertEquals(List.of("day string"), columns(entry.partitionKeys()));
    assertEquals(-1, entry.storageDescriptor().numberOfBuckets());
    List<String> hive = HIVE_FORMS.get(provider);
    if (hive != null) {
      assertEquals(List.of("id bigint", "name string"), columns(entry.storageDescriptor().columns()));
      assertEquals("event id", entry.storageDescriptor().columns().get(0).comment());
      assertEquals(location, entry.storageDescriptor().location());
      assertEquals(hive, List.of(entry.storageDescriptor().serdeInfo().serializationLibrary(),
          entry.storageDescriptor().inputFormat(), entry.storageDescriptor().outputFormat()));
    } else {
      assertEquals(List.of("col array<string>"), columns(entry.storageDescriptor().columns()));
      assertEquals(dbLocation + "/events_" + provider + "-__PLACEHOLDER__", entry.storageDescriptor().location());
      assertEquals("org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
          entry.storageDescriptor().serdeInfo().serializationLibrary());
      assertEquals("org.apache.hadoop.mapred.SequenceFileInputFormat", entry.storageDescriptor().inputFormat());
    }

    run("INSERT INTO " + table + " VALUES (1, 'a', 'd1'), (2, 'b', 'd2')");
    run("INSERT INTO " + table + " PARTITION (day = 'd3') VALUES (3, 'c')");
    assertEquals(List.of("[1,a,d1]", "[2,b,d2]", "[3,c,d3]"), rows("SELECT * FROM " + table + " ORDER BY id"));
    assertEquals(List.of("[2]"), rows("SELECT id FROM " + table + " WHERE day = 'd2'"));

    run("INSERT OVERWRITE " + table + " PARTITION (day = 'd1') VALUES (10, 'x')");
    assertEquals(List.of("[2,b,d2]", "[3,c,d3]", "[10,x,d1]"), rows("SELECT * FROM " + table + " ORDER BY id"));
    session.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    run("INSERT OVERWRITE " + table + " VALUES (20, 'y', 'd2')");
    assertEquals(List.of("[3,c,d3]", "[10,x,d1]", "[20,y,d2]"), rows("SELECT * FROM " + table + " ORDER BY id"));
  }

  @Test
  void ctasWritesTheFilesThenTheEntry() {
    run("CREATE TABLE " + t("summary") + " USING parquet PARTITIONED BY (part) AS "
        + "SELECT id, CAST(id % 2 AS INT) AS part FROM range(4)");
    Table entry = glueTable(db, "summary");
    assertEquals(List.of("id bigint"), columns(entry.storageDescriptor().columns()));
    assertEquals(List.of("part int"), columns(entry.partitionKeys()));
    assertEquals(List.of("[0,0]", "[1,1]", "[2,0]", "[3,1]"), rows("SELECT * FROM " + t("summary") + " ORDER BY id"));
    assertTrue(session.read().parquet(entry.storageDescriptor().location()).count() == 4);
  }

  @Test
  void partitionColumnsLoadLastInPartitionOrderAndPruneTheScan() {
    run("CREATE TABLE " + t("sales") + " (id BIGINT, month STRING, amount DOUBLE, year STRING) USING parquet "
        + "PARTITIONED BY (year, month)");
    Table entry = glueTable(db, "sales");
    assertEquals(List.of("id bigint", "amount double"), columns(entry.storageDescriptor().columns()));
    assertEquals(List.of("year string", "month string"), columns(entry.partitionKeys()));
    run("INSERT INTO " + t("sales") + " (id, month, amount, year) VALUES (1, '01', 5.0, '2025'), (2, '02', 7.0, '2026')");
    assertEquals(List.of("id", "amount", "year", "month"), List.of(session.table(t("sales")).columns()));
    assertEquals(List.of("[2,7.0,2026,02]"), rows("SELECT * FROM " + t("sales") + " WHERE year = '2026'"));
    String plan = session.sql("SELECT id FROM " + t("sales") + " WHERE year = '2026'").queryExecution()
        .executedPlan().toString();
    assertTrue(plan.contains("PartitionFilters: [isnotnull(year") && plan.contains("= 2026)"), plan);

    String location = entry.storageDescriptor().location();
    run("ALTER TABLE " + t("sales") + " RENAME TO " + t("revenue"));
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "sales"));
    assertEquals(location, glueTable(db, "revenue").storageDescriptor().location(), "the files do not move");
    assertEquals(List.of("[1]", "[2]"), rows("SELECT id FROM " + t("revenue") + " ORDER BY id"));
    assertMessage(() -> run("SELECT * FROM " + t("sales")), "sales");
  }

  @Test
  void anExternalTableReadsTheFilesAtItsLocation() {
    String location = newDirectory("landing");
    session.range(3).selectExpr("id", "concat('n', id) AS name").write().mode("overwrite").json(location);
    run("CREATE TABLE " + t("landing") + " (id BIGINT, name STRING) USING json LOCATION '" + location + "'");
    assertEquals(List.of("[0,n0]", "[1,n1]", "[2,n2]"), rows("SELECT * FROM " + t("landing") + " ORDER BY id"));
    run("DROP TABLE " + t("landing"));
    assertEquals(3L, session.read().json(location).count(), "DROP keeps the files");
  }

  @Test
  void alterChangesTheEntryAtItsVersion() {
    run("CREATE TABLE " + t("alt") + " (id BIGINT, day STRING) USING parquet PARTITIONED BY (day)");
    run("INSERT INTO " + t("alt") + " VALUES (1, 'd1')");
    run("ALTER TABLE " + t("alt") + " ADD COLUMNS (amount DOUBLE COMMENT 'EUR')");
    run("ALTER TABLE " + t("alt") + " ALTER COLUMN id COMMENT 'the id'");
    run("ALTER TABLE " + t("alt") + " SET TBLPROPERTIES ('stage' = 'prod', 'tmp' = 'x')");
    run("ALTER TABLE " + t("alt") + " UNSET TBLPROPERTIES ('tmp')");
    Table entry = glueTable(db, "alt");
    assertEquals(List.of("id bigint", "amount double"), columns(entry.storageDescriptor().columns()));
    assertEquals("the id", entry.storageDescriptor().columns().get(0).comment());
    assertEquals("EUR", entry.storageDescriptor().columns().get(1).comment());
    assertEquals(List.of("day string"), columns(entry.partitionKeys()));
    assertEquals("prod", entry.parameters().get("stage"));
    assertFalse(entry.parameters().containsKey("tmp"));
    assertEquals("parquet", entry.parameters().get("classification"), "kept by every ALTER");
    assertEquals(List.of("[1,d1,null]"), rows("SELECT id, day, amount FROM " + t("alt")));
    GlueCallRecordsVersion.assertEveryUpdateNamedAVersion();

    String moved = newDirectory("moved");
    session.range(5, 6).selectExpr("id", "CAST(NULL AS DOUBLE) AS amount", "'d9' AS day").write().mode("overwrite")
        .partitionBy("day").parquet(moved);
    run("ALTER TABLE " + t("alt") + " SET LOCATION '" + moved + "'");
    assertEquals(moved, glueTable(db, "alt").storageDescriptor().serdeInfo().parameters().get("path"));
    assertEquals(List.of("[5,d9]"), rows("SELECT id, day FROM " + t("alt")));

    assertMessage(() -> run("ALTER TABLE " + t("alt") + " DROP COLUMN amount"), "`" + db + "`.`alt`",
        "UNSUPPORTED_FEATURE.TABLE_OPERATION", "DROP COLUMN");
    assertEquals(2, glueTable(db, "alt").storageDescriptor().columns().size(), "a refused change writes nothing");
  }

  @Test
  void unsupportedShapesAreRefusedBeforeAnythingIsWritten() {
    // a file table may be bucketed (FileTableParityIT); Delta has no bucketing
    assertMessage(() -> run("CREATE TABLE " + t("bucketed") + " (id BIGINT) USING delta "
        + "CLUSTERED BY (id) INTO 4 BUCKETS"), db + ".bucketed", "bucketed");
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "bucketed"));
    assertMessage(() -> run("CREATE TABLE " + t("serde") + " (id BIGINT) STORED AS PARQUET"), "serde");
    assertThrows(EntityNotFoundException.class, () -> glueTable(db, "serde"));
    assertMessage(() -> run("CREATE TABLE " + t("jdbc") + " (id BIGINT) USING org.example.Nope"), db + ".jdbc",
        "not supported");
    run("CREATE TABLE " + t("kept") + " (id BIGINT) USING delta");
    assertMessage(() -> run("REPLACE TABLE " + t("kept") + " USING parquet AS SELECT 1L AS id"), db + ".kept",
        "is a Delta table");
    assertEquals("delta", glueTable(db, "kept").parameters().get("spark.sql.sources.provider"));
    assertFalse(glueTable(db, "kept").parameters().containsKey("classification"), "Delta entries carry none");
  }

  @Test
  void replaceWritesANewLocationAndKeepsTheOldFiles() {
    run("CREATE TABLE " + t("snap") + " (id BIGINT, day STRING) USING parquet PARTITIONED BY (day) "
        + "TBLPROPERTIES ('team' = 'ops')");
    run("INSERT INTO " + t("snap") + " VALUES (1, 'd1')");
    Table before = glueTable(db, "snap");
    String oldLocation = before.storageDescriptor().location();

    run("CREATE OR REPLACE TABLE " + t("snap") + " USING orc AS SELECT 'x' AS name, 7L AS id");
    Table after = glueTable(db, "snap");
    assertEquals("orc", after.parameters().get("spark.sql.sources.provider"));
    assertEquals("orc", after.parameters().get("classification"), "the new provider's");
    assertEquals(List.of("name string", "id bigint"), columns(after.storageDescriptor().columns()));
    assertTrue(after.partitionKeys().isEmpty());
    assertNotEquals(oldLocation, after.storageDescriptor().location());
    assertEquals(List.of("[x,7]"), rows("SELECT * FROM " + t("snap")));
    assertEquals(1L, session.read().parquet(oldLocation).count(), "the old files stay");

    run("REPLACE TABLE " + t("snap") + " (id INT) USING json");
    assertEquals(List.of(), rows("SELECT * FROM " + t("snap")), "a replace without a query makes an empty table");
    assertEquals("json", glueTable(db, "snap").parameters().get("classification"));
    GlueCallRecordsVersion.assertEveryUpdateNamedAVersion();
    assertMessage(() -> run("REPLACE TABLE " + t("absent") + " (id INT) USING json"), "absent");
    GLUE.createTable(r -> r.databaseName(db).tableInput(v -> v.name("shown").tableType("VIRTUAL_VIEW")));
    assertMessage(() -> run("CREATE OR REPLACE TABLE " + t("shown") + " USING parquet AS SELECT 1 AS id"),
        db + ".shown", "is a Glue view");
    assertEquals("VIRTUAL_VIEW", glueTable(db, "shown").tableType(), "the view is left as it was");
  }

  /**
   * DataFrameWriter loads an existing table itself and would write a V1Table through Spark's built-in
   * catalog; gluecat keeps these writes in Glue's table, in every save mode. A database of the same name in
   * the built-in catalog must not receive anything.
   */
  @Test
  void saveAsTableWritesAnExistingFileTableInEveryMode() {
    run("CREATE TABLE " + t("frames") + " (id BIGINT, day STRING) USING parquet PARTITIONED BY (day)");
    if (!sessionMode()) {
      run("CREATE DATABASE IF NOT EXISTS spark_catalog." + db);
    }
    Table created = glueTable(db, "frames");
    session.range(2).selectExpr("id", "'d1' AS day").write().mode("append").saveAsTable(t("frames"));
    session.range(2, 3).selectExpr("'d2' AS day", "id").write().mode("append").partitionBy("day")
        .saveAsTable(t("frames"));
    assertEquals(List.of("[0,d1]", "[1,d1]", "[2,d2]"), rows("SELECT * FROM " + t("frames") + " ORDER BY id"));
    assertEquals(created.versionId(), glueTable(db, "frames").versionId(), "appends leave the entry alone");

    assertMessage(() -> session.range(1).selectExpr("id", "'d3' AS day").write().mode("errorifexists")
        .saveAsTable(t("frames")), "frames", "already exists");
    session.range(1).selectExpr("id", "'d3' AS day").write().mode("ignore").saveAsTable(t("frames"));
    assertEquals(3L, session.table(t("frames")).count(), "errorifexists and ignore write nothing");

    session.range(5, 7).selectExpr("id", "'d5' AS day").write().mode("overwrite").partitionBy("day")
        .saveAsTable(t("frames"));
    assertEquals(List.of("[5,d5]", "[6,d5]"), rows("SELECT * FROM " + t("frames") + " ORDER BY id"));
    Table replaced = glueTable(db, "frames");
    assertNotEquals(created.storageDescriptor().location(), replaced.storageDescriptor().location());
    assertEquals(3L, session.read().parquet(created.storageDescriptor().location()).count(), "the old files stay");
    if (!sessionMode()) {
      assertFalse(session.catalog().tableExists("spark_catalog." + db + ".frames"), "nothing reached spark_catalog");
      run("DROP DATABASE spark_catalog." + db);
    }
  }

  @Test
  void insertIntoWritesAnExistingFileTable() {
    run("CREATE TABLE " + t("slots") + " (id BIGINT, day STRING) USING parquet PARTITIONED BY (day)");
    Table created = glueTable(db, "slots");
    session.range(3).selectExpr("id", "concat('d', id % 2) AS day").write().insertInto(t("slots"));
    assertEquals(List.of("[0,d0]", "[1,d1]", "[2,d0]"), rows("SELECT * FROM " + t("slots") + " ORDER BY id"));

    session.range(7, 8).selectExpr("id", "'d1' AS day").write().mode("overwrite").insertInto(t("slots"));
    assertEquals(List.of("[7,d1]"), rows("SELECT * FROM " + t("slots") + " ORDER BY id"), "static: all replaced");

    session.range(3).selectExpr("id", "concat('d', id % 2) AS day").write().insertInto(t("slots"));
    session.conf().set("spark.sql.sources.partitionOverwriteMode", "dynamic");
    session.range(9, 10).selectExpr("id", "'d0' AS day").write().mode("overwrite").insertInto(t("slots"));
    assertEquals(List.of("[1,d1]", "[7,d1]", "[9,d0]"), rows("SELECT * FROM " + t("slots") + " ORDER BY id"),
        "dynamic: only the partitions written are replaced");
    assertEquals(created.versionId(), glueTable(db, "slots").versionId(), "inserts leave the entry alone");
  }
}
