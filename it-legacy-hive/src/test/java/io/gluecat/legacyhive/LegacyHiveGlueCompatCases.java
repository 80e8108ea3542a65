package io.gluecat.legacyhive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * The compatibility cases between Spark's legacy Hive path (HiveExternalCatalog with Delta's DeltaCatalog as
 * spark_catalog, tables kept in Glue through the Glue client for Hive) and gluecat, in both directions. The
 * subclasses choose the transport (the real Glue client, or the bridge) and gluecat's catalog mode.
 *
 * <p>Each test gets its own Glue database (with a location, as the Glue client creates them) made visible to
 * the Hive path. "Hive path" statements run in the Hive-enabled session, which names tables {@code db.t};
 * gluecat statements name them with {@link #g(String)}.
 */
@ExtendWith(CompatResults.class)
abstract class LegacyHiveGlueCompatCases implements CompatResults.CatalogModeAware {
  static final String HIVE = "spark-hive-path";
  static final String GLUECAT = "gluecat";
  static final String DELTA_CTAS_SCHEMA = "{\"type\":\"struct\",\"fields\":[]}";
  private static final AtomicInteger COUNTER = new AtomicInteger();

  protected LegacyHive legacy;
  protected GlueClient glue;
  /** The session gluecat's statements run in: the Hive path's own (named mode) or one of its own. */
  protected SparkSession gluecat;
  protected String db;

  abstract LegacyHive.Mode transportMode();

  /** Whether gluecat is spark_catalog of a session of its own (session mode). */
  boolean sessionMode() {
    return false;
  }

  @Override
  public String catalogMode() {
    return sessionMode() ? "session" : "named";
  }

  /** Skips the test (a JUnit assumption, with the reason) when this transport cannot run here. */
  void assumeTransportAvailable() {}

  @BeforeEach
  void setUpLegacy() {
    assumeTransportAvailable();
    legacy = LegacyHive.get(transportMode());
    glue = Glue.client(legacy.ministack);
    SparkSession.setActiveSession(legacy.hive);
    if (sessionMode()) {
      gluecat = legacy.hive.newSession();
      gluecat.conf().set("spark.sql.catalog.spark_catalog", "io.gluecat.GlueCatalog");
      LegacyHive.gluecatOptions(legacy.ministack)
          .forEach((k, v) -> gluecat.conf().set("spark.sql.catalog.spark_catalog." + k, v));
    } else {
      gluecat = legacy.hive;
    }
    db = unique("db");
    String location = newDirectory(db);
    glue.createDatabase(r -> r.databaseInput(d -> d.name(db).locationUri(location)));
    legacy.transport.databaseToHive(db);
  }

  @AfterEach
  void restoreActiveSession() {
    if (legacy != null) {
      SparkSession.setActiveSession(legacy.hive);
    }
  }

  // ------------------------------------------------------------------ Hive path -> gluecat

  @Test
  @CompatCase(id = "hive-delta-ctas", writer = HIVE, reader = GLUECAT,
      title = "Delta CTAS by the Hive path (col array<string>, empty schema, partitionProvider=catalog)")
  void gluecatReadsHivePathDeltaCtas() {
    hive("CREATE TABLE " + db + ".t USING delta PARTITIONED BY (region) AS "
        + "SELECT * FROM VALUES (1L, 'a', 'eu'), (2L, 'b', 'us') AS v(id, name, region)");
    legacy.transport.tableToGlue(db, "t");

    Table entry = entry("t");
    assertEquals("delta", entry.parameters().get("spark.sql.sources.provider"));
    assertEquals(List.of("col:array<string>"), columns(entry.storageDescriptor().columns()));
    assertEquals(DELTA_CTAS_SCHEMA, entry.parameters().get("spark.sql.sources.schema"));
    assertEquals("catalog", entry.parameters().get("spark.sql.partitionProvider"));
    // A managed table: the Glue client (like Hive's metastore) gives it <database location>/<table>.
    assertEquals(location(db) + "/t", entry.storageDescriptor().location());

    assertEquals(List.of("[1,a,eu]", "[2,b,us]"), gluecatRows("SELECT id, name, region FROM " + g("t") + " ORDER BY id"));
    assertEquals(List.of("[2,b,us]"), gluecatRows("SELECT id, name, region FROM " + g("t") + " WHERE region = 'us'"));
  }

  @Test
  @CompatCase(id = "hive-delta-external-ctas", writer = HIVE, reader = GLUECAT,
      title = "External Delta CTAS by the Hive path (LOCATION given: placeholder StorageDescriptor location)")
  void gluecatReadsHivePathExternalDeltaCtas() {
    String data = hivePathExternalDeltaCtas("x");

    Table entry = entry("x");
    assertEquals("EXTERNAL_TABLE", entry.tableType());
    assertEquals(List.of("col:array<string>"), columns(entry.storageDescriptor().columns()));
    assertEquals(location(db) + "/x-__PLACEHOLDER__", entry.storageDescriptor().location());
    assertEquals(data, entry.storageDescriptor().serdeInfo().parameters().get("path"));

    assertEquals(List.of("[1,a]", "[2,b]"), gluecatRows("SELECT id, name FROM " + g("x") + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "hive-delta-replaced", writer = HIVE, reader = GLUECAT,
      title = "Delta table after CREATE OR REPLACE by the Hive path (real columns, delta.* properties from Delta's catalog hook)")
  void gluecatReadsHivePathDeltaAfterReplace() {
    hive("CREATE TABLE " + db + ".t USING delta AS SELECT * FROM VALUES (1L, 'a') AS v(id, name)");
    withCatalogHook(() -> {
      hive("CREATE OR REPLACE TABLE " + db + ".t USING delta AS "
          + "SELECT * FROM VALUES (3L, 'c', 0.5D), (4L, 'd', 1.5D) AS v(id, name, score)");
      awaitCatalogHook("t", 1);
    });
    legacy.transport.tableToGlue(db, "t");

    Table entry = entry("t");
    assertEquals(List.of("id:bigint", "name:string", "score:double"), columns(entry.storageDescriptor().columns()));
    Map<String, String> p = entry.parameters();
    assertEquals("1", p.get("delta.lastUpdateVersion"));
    assertNotNull(p.get("delta.lastCommitTimestamp"));
    assertNotNull(p.get("delta.minReaderVersion"));
    assertNotNull(p.get("delta.minWriterVersion"));

    assertEquals(List.of("[3,c,0.5]", "[4,d,1.5]"), gluecatRows("SELECT id, name, score FROM " + g("t") + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "hive-delta-overwritten", writer = HIVE, reader = GLUECAT,
      title = "Delta table after an overwrite with a new schema by the Hive path (real columns, delta.* properties)")
  void gluecatReadsHivePathDeltaAfterOverwrite() {
    hive("CREATE TABLE " + db + ".t (id BIGINT, name STRING) USING delta");
    hive("INSERT INTO " + db + ".t VALUES (1, 'a')");
    withCatalogHook(() -> {
      legacy.hive.sql("SELECT * FROM VALUES (5L, 'e', true), (6L, 'f', false) AS v(id, name, flag)")
          .write().format("delta").mode("overwrite").option("overwriteSchema", "true").saveAsTable(db + ".t");
      awaitCatalogHook("t", 2);
    });
    legacy.transport.tableToGlue(db, "t");

    Table entry = entry("t");
    assertEquals(List.of("id:bigint", "name:string", "flag:boolean"), columns(entry.storageDescriptor().columns()));
    assertEquals("2", entry.parameters().get("delta.lastUpdateVersion"));

    assertEquals(List.of("[5,e,true]", "[6,f,false]"), gluecatRows("SELECT id, name, flag FROM " + g("t") + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "hive-parquet-hive-compatible", writer = HIVE, reader = GLUECAT,
      title = "Partitioned Parquet table by the Hive path, Hive-compatible form")
  void gluecatReadsHivePathParquet() {
    hive("CREATE TABLE " + db + ".p USING parquet PARTITIONED BY (region) AS "
        + "SELECT * FROM VALUES (1L, 'a', 'eu'), (2L, 'b', 'us') AS v(id, name, region)");
    legacy.transport.tableToGlue(db, "p");

    Table entry = entry("p");
    assertEquals("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
        entry.storageDescriptor().serdeInfo().serializationLibrary());
    assertEquals(List.of("id:bigint", "name:string"), columns(entry.storageDescriptor().columns()));
    assertEquals(List.of("region:string"), columns(entry.partitionKeys()));
    assertFalse(entry.storageDescriptor().location().contains("__PLACEHOLDER__"));

    assertEquals(List.of("[1,a,eu]", "[2,b,us]"), gluecatRows("SELECT id, name, region FROM " + g("p") + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "hive-orc-hive-compatible", writer = HIVE, reader = GLUECAT,
      title = "ORC table by the Hive path, Hive-compatible form")
  void gluecatReadsHivePathOrc() {
    hive("CREATE TABLE " + db + ".o USING orc AS SELECT * FROM VALUES (1L, 'a'), (2L, 'b') AS v(id, name)");
    legacy.transport.tableToGlue(db, "o");

    Table entry = entry("o");
    assertEquals("org.apache.hadoop.hive.ql.io.orc.OrcSerde", entry.storageDescriptor().serdeInfo().serializationLibrary());
    assertEquals(List.of("id:bigint", "name:string"), columns(entry.storageDescriptor().columns()));

    assertEquals(List.of("[1,a]", "[2,b]"), gluecatRows("SELECT id, name FROM " + g("o") + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "hive-csv-spark-specific", writer = HIVE, reader = GLUECAT,
      title = "Partitioned CSV table by the Hive path, Spark-specific form (placeholder location, col array<string>)")
  void gluecatReadsHivePathCsv() {
    hive("CREATE TABLE " + db + ".c USING csv OPTIONS (header 'true') PARTITIONED BY (region) AS "
        + "SELECT * FROM VALUES (1L, 'a', 'eu'), (2L, 'b', 'us') AS v(id, name, region)");
    legacy.transport.tableToGlue(db, "c");

    Table entry = entry("c");
    assertEquals(List.of("col:array<string>"), columns(entry.storageDescriptor().columns()));
    assertEquals("csv", entry.parameters().get("spark.sql.sources.provider"));
    assertEquals("true", entry.storageDescriptor().serdeInfo().parameters().get("header"));

    assertEquals(List.of("[1,a,eu]", "[2,b,us]"), gluecatRows("SELECT id, name, region FROM " + g("c") + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "hive-json-spark-specific", writer = HIVE, reader = GLUECAT,
      title = "JSON table by the Hive path, Spark-specific form")
  void gluecatReadsHivePathJson() {
    hive("CREATE TABLE " + db + ".j USING json AS SELECT * FROM VALUES (1L, 'a'), (2L, 'b') AS v(id, name)");
    legacy.transport.tableToGlue(db, "j");

    Table entry = entry("j");
    assertEquals("json", entry.parameters().get("spark.sql.sources.provider"));
    assertEquals(List.of("col:array<string>"), columns(entry.storageDescriptor().columns()));

    assertEquals(List.of("[1,a]", "[2,b]"), gluecatRows("SELECT id, name FROM " + g("j") + " ORDER BY id"));
  }

  @Test
  @CompatCase(id = "hive-schema-in-parts", writer = HIVE, reader = GLUECAT,
      title = "Schema stored in parts by the Hive path (schema JSON longer than schemaStringLengthThreshold)")
  void gluecatReadsHivePathSchemaInParts() {
    String columns = IntStream.range(0, 16).mapToObj(i -> "id + " + i + " AS a_wide_column_" + i)
        .collect(Collectors.joining(", "));
    hive("CREATE TABLE " + db + ".w USING parquet AS SELECT " + columns + " FROM range(2)");
    legacy.transport.tableToGlue(db, "w");

    Map<String, String> p = entry("w").parameters();
    assertFalse(p.containsKey("spark.sql.sources.schema"));
    assertTrue(Integer.parseInt(p.get("spark.sql.sources.schema.numParts")) >= 2, p.toString());

    assertEquals(List.of("[0,15]", "[1,16]"),
        gluecatRows("SELECT a_wide_column_0, a_wide_column_15 FROM " + g("w") + " ORDER BY a_wide_column_0"));
    assertEquals(16, gluecat.table(g("w")).schema().size());
  }

  // ------------------------------------------------------------------ gluecat -> Hive path

  @Test
  @CompatCase(id = "gluecat-delta", writer = GLUECAT, reader = HIVE, title = "gluecat Delta table, unpartitioned")
  void hivePathReadsGluecatDelta() {
    gluecatSql("CREATE TABLE " + g("d") + " (id BIGINT, name STRING) USING delta");
    gluecatSql("INSERT INTO " + g("d") + " VALUES (1, 'a'), (2, 'b')");
    legacy.transport.tableToHive(db, "d");

    assertEquals(List.of("[1,a]", "[2,b]"), hiveRows("SELECT id, name FROM " + db + ".d ORDER BY id"));
  }

  @Test
  @CompatCase(id = "gluecat-delta-partitioned", writer = GLUECAT, reader = HIVE,
      title = "gluecat Delta table, partitioned (CTAS)")
  void hivePathReadsGluecatPartitionedDelta() {
    gluecatSql("CREATE TABLE " + g("dp") + " USING delta PARTITIONED BY (region) AS "
        + "SELECT * FROM VALUES (1L, 'a', 'eu'), (2L, 'b', 'us') AS v(id, name, region)");
    legacy.transport.tableToHive(db, "dp");

    assertEquals(List.of("[1,a,eu]", "[2,b,us]"), hiveRows("SELECT id, name, region FROM " + db + ".dp ORDER BY id"));
    assertEquals(List.of("[2,b,us]"), hiveRows("SELECT id, name, region FROM " + db + ".dp WHERE region = 'us'"));
  }

  @Test
  @CompatCase(id = "gluecat-parquet", writer = GLUECAT, reader = HIVE, title = "gluecat Parquet table, partitioned")
  void hivePathReadsGluecatParquet() {
    gluecatFileTable("parquet", "PARTITIONED BY (region)");
  }

  @Test
  @CompatCase(id = "gluecat-orc", writer = GLUECAT, reader = HIVE, title = "gluecat ORC table")
  void hivePathReadsGluecatOrc() {
    gluecatFileTable("orc", "");
  }

  @Test
  @CompatCase(id = "gluecat-csv", writer = GLUECAT, reader = HIVE, title = "gluecat CSV table, partitioned (Spark-specific form)")
  void hivePathReadsGluecatCsv() {
    gluecatFileTable("csv", "PARTITIONED BY (region)");
  }

  @Test
  @CompatCase(id = "gluecat-json", writer = GLUECAT, reader = HIVE, title = "gluecat JSON table (Spark-specific form)")
  void hivePathReadsGluecatJson() {
    gluecatFileTable("json", "");
  }

  /** DESCRIBE EXTENDED's bucket rows, as Spark's V1 command prints a bucketed table's spec (4.1). */
  private static final List<String> BUCKET_ROWS = List.of("[Num Buckets,4,]", "[Bucket Columns,[`id`],]",
      "[Sort Columns,[`name`],]");

  @Test
  @CompatCase(id = "hive-parquet-bucketed", writer = HIVE, reader = GLUECAT,
      title = "Bucketed, sorted Parquet table by the Hive path (spec in Spark's parameters, no Hive bucketing)")
  void gluecatReadsHivePathBucketedParquet() {
    hive("CREATE TABLE " + db + ".b USING parquet CLUSTERED BY (id) SORTED BY (name) INTO 4 BUCKETS AS "
        + "SELECT * FROM VALUES (1L, 'a'), (2L, 'b') AS v(id, name)");
    legacy.transport.tableToGlue(db, "b");
    Table entry = entry("b");
    assertEquals("4", entry.parameters().get("spark.sql.sources.schema.numBuckets"));
    assertTrue(entry.storageDescriptor().bucketColumns().isEmpty(), entry::toString);
    assertEquals(List.of("[1,a]", "[2,b]"), gluecatRows("SELECT id, name FROM " + g("b") + " ORDER BY id"));
    // read with its bucketing: an aggregate on the bucket column needs no shuffle
    SparkSession.setActiveSession(gluecat);
    String plan = gluecat.sql("SELECT id, count(*) FROM " + g("b") + " GROUP BY id").queryExecution().executedPlan()
        .toString();
    assertFalse(plan.contains("Exchange"), plan);
  }

  @Test
  @CompatCase(id = "gluecat-parquet-bucketed", writer = GLUECAT, reader = HIVE,
      title = "gluecat bucketed, sorted Parquet table")
  void hivePathReadsGluecatBucketedParquet() {
    gluecatSql("CREATE TABLE " + g("gb") + " (id BIGINT, name STRING) USING parquet CLUSTERED BY (id) "
        + "SORTED BY (name) INTO 4 BUCKETS");
    gluecatSql("INSERT INTO " + g("gb") + " VALUES (1, 'a'), (2, 'b')");
    legacy.transport.tableToHive(db, "gb");
    assertEquals(List.of("[1,a]", "[2,b]"), hiveRows("SELECT id, name FROM " + db + ".gb ORDER BY id"));
    List<String> described = hiveRows("DESCRIBE EXTENDED " + db + ".gb");
    assertTrue(described.containsAll(BUCKET_ROWS), described::toString);
  }

  private void gluecatFileTable(String provider, String partitioning) {
    String t = provider + "_t";
    gluecatSql("CREATE TABLE " + g(t) + " (id BIGINT, name STRING, region STRING) USING " + provider + " " + partitioning);
    gluecatSql("INSERT INTO " + g(t) + " VALUES (1, 'a', 'eu'), (2, 'b', 'us')");
    legacy.transport.tableToHive(db, t);

    List<String> expected = List.of("[1,a,eu]", "[2,b,us]");
    assertEquals(expected, gluecatRows("SELECT id, name, region FROM " + g(t) + " ORDER BY id"));
    assertEquals(expected, hiveRows("SELECT id, name, region FROM " + db + "." + t + " ORDER BY id"));
  }

  // ------------------------------------------------------------------ views, both directions

  @Test
  @CompatCase(id = "gluecat-view", writer = GLUECAT, reader = HIVE,
      title = "gluecat view over a gluecat table, unqualified table name (recorded catalog spark_catalog)")
  void hivePathReadsGluecatView() {
    gluecatSql("CREATE TABLE " + g("vt") + " USING delta AS SELECT * FROM VALUES (1L, 'a'), (2L, 'b') AS v(id, name)");
    inGluecatDatabase(() -> gluecatSql("CREATE VIEW " + g("v") + " (id, label COMMENT 'the name') COMMENT 'ones' "
        + "AS SELECT id, upper(name) AS upper_name FROM vt WHERE id > 1"));
    Table entry = entry("v");
    assertEquals("VIRTUAL_VIEW", entry.tableType());
    // In Glue, spark_catalog names the Glue catalog that holds the view, as the Hive path records it.
    assertEquals("spark_catalog", entry.parameters().get("view.catalogAndNamespace.part.0"));
    assertEquals(db, entry.parameters().get("view.catalogAndNamespace.part.1"));
    legacy.transport.tableToHive(db, "vt");
    legacy.transport.tableToHive(db, "v");

    assertEquals(List.of("[2,B]"), hiveRows("SELECT id, label FROM " + db + ".v"));
    assertEquals(List.of("[2,B]"), gluecatRows("SELECT id, label FROM " + g("v")));
  }

  @Test
  @CompatCase(id = "hive-view", writer = HIVE, reader = GLUECAT,
      title = "View by the Hive path over its Delta table (two-part name in the view text)")
  void gluecatReadsHivePathView() {
    hive("CREATE TABLE " + db + ".ht USING delta AS SELECT * FROM VALUES (1L, 'a'), (2L, 'b') AS v(id, name)");
    hive("CREATE VIEW " + db + ".hv COMMENT 'from hive' AS SELECT id, name FROM " + db + ".ht WHERE id < 2");
    legacy.transport.tableToGlue(db, "ht");
    legacy.transport.tableToGlue(db, "hv");
    Table entry = entry("hv");
    assertEquals("VIRTUAL_VIEW", entry.tableType());
    assertEquals("spark_catalog", entry.parameters().get("view.catalogAndNamespace.part.0"));

    // spark_catalog in the Hive path's view is the Glue catalog gluecat serves: db.ht resolves there.
    assertEquals(List.of("[1,a]"), gluecatRows("SELECT id, name FROM " + g("hv")));
    SparkSession.setActiveSession(gluecat);
    assertTrue(strings(gluecat.sql("SHOW VIEWS IN " + (sessionMode() ? "" : LegacyHive.GLUE + ".") + db)
        .collectAsList()).stream().anyMatch(r -> r.contains("hv")), "SHOW VIEWS lists the Hive path's view");
  }

  /**
   * A Hive-format table (Spark's Hive path, STORED AS PARQUET: Hive's SerDe, no Spark provider) that gluecat
   * writes: INSERT INTO a static and a dynamic partition, then INSERT OVERWRITE of one; the Hive path reads
   * gluecat's rows, with the partitions gluecat added to Glue.
   */
  @Test
  @CompatCase(id = "gluecat-inserts-into-hive-table", writer = GLUECAT, reader = HIVE,
      title = "Rows gluecat inserts into a partitioned STORED AS PARQUET table of the Hive path (INSERT INTO, "
          + "INSERT OVERWRITE of a partition)")
  void hivePathReadsGluecatInsertsIntoItsHiveFormatTable() {
    hive("CREATE TABLE " + db + ".hs (id BIGINT, name STRING) PARTITIONED BY (region STRING) STORED AS PARQUET");
    legacy.transport.tableToGlue(db, "hs");
    assertNull(entry("hs").parameters().get("spark.sql.sources.provider"), "a Hive-format entry");

    gluecatSql("INSERT INTO " + g("hs") + " PARTITION (region = 'eu') VALUES (1, 'a')");
    gluecatSql("INSERT INTO " + g("hs") + " VALUES (2, 'b', 'us'), (3, 'c', 'eu')");
    gluecatSql("INSERT OVERWRITE " + g("hs") + " PARTITION (region = 'us') VALUES (4, 'd')");
    legacy.transport.tableToHive(db, "hs");

    assertEquals(List.of("[1,a,eu]", "[3,c,eu]", "[4,d,us]"),
        hiveRows("SELECT id, name, region FROM " + db + ".hs ORDER BY id"));
    assertEquals(List.of("[4,d]"), hiveRows("SELECT id, name FROM " + db + ".hs WHERE region = 'us'"));
  }

  /**
   * Runs gluecat statements with gluecat's catalog and this test's database current; in named mode the shared
   * session goes back to the Hive path's default database after (a session-mode session is the test's own).
   */
  private void inGluecatDatabase(Runnable statements) {
    gluecatSql("USE " + (sessionMode() ? "" : LegacyHive.GLUE + ".") + db);
    try {
      statements.run();
    } finally {
      if (!sessionMode()) {
        gluecatSql("USE spark_catalog.default");
      }
    }
  }

  // ------------------------------------------------------------------ Hive path -> gluecat repair -> Hive path

  @Test
  @CompatCase(id = "hive-delta-repaired-read-by-hive", writer = HIVE, reader = HIVE,
      title = "External Delta CTAS entry of the Hive path after gluecat repair (real columns, location, table_type)")
  void hivePathReadsItsDeltaEntryAfterGluecatRepair() {
    String data = hivePathExternalDeltaCtas("r");
    assertEquals(List.of("col:array<string>"), columns(entry("r").storageDescriptor().columns()));

    List<String> args = new ArrayList<>(List.of("repair", db, "r"));
    LegacyHive.gluecatOptions(legacy.ministack).forEach((k, v) -> args.addAll(List.of("--conf", k + "=" + v)));
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    int code = io.gluecat.tools.Main.run(args,
        new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8), System.err);
    assertEquals(0, code, out.toString(java.nio.charset.StandardCharsets.UTF_8));

    Table repaired = entry("r");
    assertEquals("DELTA", repaired.parameters().get("table_type"));
    assertEquals(data, repaired.storageDescriptor().location());
    assertEquals(List.of("id:bigint", "name:string"), columns(repaired.storageDescriptor().columns()));
    // the Hive path's own keys stay: it still reads the entry as its Delta table
    assertEquals("delta", repaired.parameters().get("spark.sql.sources.provider"));

    legacy.transport.tableToHive(db, "r");
    hive("REFRESH TABLE " + db + ".r");
    assertEquals(List.of("[1,a]", "[2,b]"), hiveRows("SELECT id, name FROM " + db + ".r ORDER BY id"));
    hive("INSERT INTO " + db + ".r VALUES (3L, 'c')");
    assertEquals(List.of("[1,a]", "[2,b]", "[3,c]"), gluecatRows("SELECT id, name FROM " + g("r") + " ORDER BY id"));
  }

  // ------------------------------------------------------------------ the legacy path's known limit

  @Test
  @CompatCase(id = "hive-delta-database-without-location", writer = HIVE, reader = HIVE,
      title = "The Hive path creating a Delta table in a Glue database without a location",
      limit = "Spark's Hive path puts a new Delta table's placeholder under its database's location, so it cannot "
          + "create Delta tables in a Glue database without one (gluecat's CREATE DATABASE without LOCATION and "
          + "without a warehouse writes none)")
  void hivePathCannotCreateDeltaInDatabaseWithoutLocation() {
    String bare = unique("bare");
    gluecatSql("CREATE NAMESPACE " + (sessionMode() ? bare : LegacyHive.GLUE + "." + bare));
    assertEquals(null, glue.getDatabase(r -> r.name(bare)).database().locationUri());
    legacy.transport.databaseToHive(bare);

    Exception e = assertThrows(Exception.class,
        () -> hive("CREATE TABLE " + bare + ".t USING delta AS SELECT 1L AS id"));
    // Spark turns the database's location into a path to place the new table under: the Glue client hands it
    // the empty string for a database without a LocationUri.
    assertEquals(IllegalArgumentException.class, e.getClass());
    assertEquals("Can not create a Path from an empty string", e.getMessage());
    assertThrows(software.amazon.awssdk.services.glue.model.EntityNotFoundException.class,
        () -> glue.getTable(r -> r.databaseName(bare).name("t")));
  }

  // ------------------------------------------------------------------ helpers

  /** An external Delta CTAS by the Hive path (rows (1, a), (2, b)), its entry in Glue; returns its location. */
  protected String hivePathExternalDeltaCtas(String table) {
    String data = newDirectory(db + "_" + table) + "/" + table;
    hive("CREATE TABLE " + db + "." + table + " USING delta LOCATION '" + data + "' AS "
        + "SELECT * FROM VALUES (1L, 'a'), (2L, 'b') AS v(id, name)");
    legacy.transport.tableToGlue(db, table);
    return data;
  }

  /** How gluecat's statements name a table of this test's database. */
  protected String g(String table) {
    return (sessionMode() ? "" : LegacyHive.GLUE + ".") + db + "." + table;
  }

  protected void hive(String statement) {
    SparkSession.setActiveSession(legacy.hive);
    legacy.hive.sql(statement).collectAsList();
  }

  protected List<String> hiveRows(String query) {
    SparkSession.setActiveSession(legacy.hive);
    return strings(legacy.hive.sql(query).collectAsList());
  }

  protected void gluecatSql(String statement) {
    SparkSession.setActiveSession(gluecat);
    gluecat.sql(statement).collectAsList();
  }

  /**
   * Runs a query in gluecat's session and checks that gluecat served it: it read the table's entry from Glue
   * (in session mode, a table Spark's built-in Hive catalog answered for would show no Glue call).
   */
  protected List<String> gluecatRows(String query) {
    SparkSession.setActiveSession(gluecat);
    GlueCallRecorder.clear();
    List<String> rows = strings(gluecat.sql(query).collectAsList());
    assertTrue(GlueCallRecorder.callsOf("GetTable").stream().anyMatch(c -> db.equals(c.databaseName())),
        "gluecat did not read the entry from Glue for: " + query);
    return rows;
  }

  protected String location(String database) {
    return glue.getDatabase(r -> r.name(database)).database().locationUri().replaceAll("/+$", "");
  }

  protected Table entry(String table) {
    return glue.getTable(r -> r.databaseName(db).name(table)).table();
  }

  /**
   * Runs Hive path statements with Delta's catalog hook on, the setting that makes Delta copy a table's
   * columns and delta.* properties into its metastore entry after a commit that changes the table's metadata.
   * Only around those statements: gluecat refuses to work in a session where the hook is on.
   */
  protected void withCatalogHook(Runnable statements) {
    legacy.hive.conf().set(HOOK, "true");
    try {
      statements.run();
    } finally {
      legacy.hive.conf().unset(HOOK);
    }
  }

  static final String HOOK = "spark.databricks.delta.catalog.update.enabled";

  /**
   * Waits until Delta's catalog hook, which runs after the commit on a thread of its own, has written the
   * table's version {@code version} into the Hive path's entry.
   */
  protected void awaitCatalogHook(String table, long version) {
    long deadline = System.nanoTime() + 60_000_000_000L;
    String seen = null;
    while (System.nanoTime() < deadline) {
      scala.Option<String> v = legacy.hive.sharedState().externalCatalog().getTable(db, table).properties()
          .get("delta.lastUpdateVersion");
      seen = v.isDefined() ? v.get() : null;
      if (String.valueOf(version).equals(seen)) {
        return;
      }
      try {
        Thread.sleep(200);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
    throw new AssertionError("Delta's catalog hook did not record version " + version + " of " + db + "." + table
        + " (delta.lastUpdateVersion = " + seen + ")");
  }

  static List<String> strings(List<Row> rows) {
    List<String> out = new ArrayList<>();
    for (Row r : rows) {
      out.add(r.toString());
    }
    return out;
  }

  static List<String> columns(List<Column> columns) {
    return columns.stream().map(c -> c.name() + ":" + c.type()).collect(Collectors.toList());
  }

  static String unique(String prefix) {
    return prefix + "_" + ProcessHandle.current().pid() + "_" + COUNTER.incrementAndGet();
  }

  protected String newDirectory(String name) {
    try {
      return "file:" + Files.createDirectories(legacy.scratch.resolve("data").resolve(name)).toAbsolutePath();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
