package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * Iceberg tables of a Glue database through gluecat's names (issue #45), here in named mode (SessionModeIcebergTablesIT:
 * gluecat as spark_catalog). On the lines whose it-ministack module has Iceberg's Spark runtime on its classpath
 * (Spark 3.5, 4.0 and 4.1; Apache Iceberg publishes none for 4.2), a table written by Iceberg's own SparkCatalog over
 * Iceberg's GlueCatalog (as EMR and Glue jobs write) is read, written, altered, renamed and dropped by gluecat's
 * name, and what gluecat creates USING iceberg is Iceberg's own entry, which Iceberg's catalog reads. Without the
 * runtime, an Iceberg table is refused naming the artifact to add.
 */
@ExtendWith(CompatResults.class)
class IcebergTablesIT extends CatalogModeTest {
  private static final boolean ICEBERG = io.gluecat.iceberg.IcebergTables.AVAILABLE;
  private static final String ICEBERG_WROTE = "Iceberg table created and written by Iceberg's own SparkCatalog on "
      + "GlueCatalog (as EMR and Glue jobs write): read, written (INSERT, UPDATE, DELETE, MERGE), read as of a "
      + "snapshot and a time, its metadata tables, altered, renamed and dropped by gluecat";
  /** Iceberg's own catalog on the same Glue (the test's session), as another writer of the database has it. */
  private String ice;

  @BeforeEach
  void icebergsOwnCatalog() {
    if (!ICEBERG) {
      return;
    }
    ice = icebergsOwnCatalog(session(), unique("ice"), newDirectory("ice-warehouse"));
  }

  /**
   * Registers Iceberg's own SparkCatalog over its GlueCatalog on MiniStack's Glue in {@code session} under
   * {@code name}, as EMR and Glue jobs configure it, and returns the name.
   */
  static String icebergsOwnCatalog(org.apache.spark.sql.SparkSession session, String name, String warehouse) {
    Map<String, String> options = Map.of(
        "", "org.apache.iceberg.spark.SparkCatalog",
        ".catalog-impl", "org.apache.iceberg.aws.glue.GlueCatalog",
        ".io-impl", "org.apache.iceberg.hadoop.HadoopFileIO",
        ".warehouse", warehouse,
        ".glue.endpoint", MINISTACK.endpoint().toString(),
        ".client.region", io.gluecat.testkit.MiniStack.REGION.id(),
        ".cache-enabled", "false");
    options.forEach((k, v) -> session.conf().set("spark.sql.catalog." + name + k, v));
    return name;
  }

  private String native_(String table) {
    return ice + "." + db + "." + table;
  }

  private List<String> sorted(String query) {
    return rows(query).stream().sorted().collect(Collectors.toList());
  }

  @Test
  @CompatCase(id = "iceberg-spark-catalog-written", writer = "iceberg-spark", reader = "gluecat", title = ICEBERG_WROTE)
  void aTableIcebergsOwnCatalogWroteIsServedByGluecatsName() throws Exception {
    assumeTrue(ICEBERG, "Iceberg's Spark runtime is not on this line's classpath");
    run("CREATE TABLE " + native_("orders") + " (id BIGINT, region STRING) USING iceberg PARTITIONED BY (region)");
    run("INSERT INTO " + native_("orders") + " VALUES (1, 'eu'), (2, 'us')");
    long firstSnapshot = session().sql("SELECT snapshot_id FROM " + native_("orders") + ".snapshots").first().getLong(0);

    String orders = t("orders");
    assertEquals(List.of("[1,eu]", "[2,us]"), sorted("SELECT * FROM " + orders));
    run("INSERT INTO " + orders + " VALUES (3, 'eu'), (4, 'apac')");
    run("UPDATE " + orders + " SET region = 'us' WHERE id = 4");
    run("DELETE FROM " + orders + " WHERE id = 1");
    run("MERGE INTO " + orders + " o USING (SELECT 3L AS id, 'apac' AS region UNION ALL SELECT 5L, 'eu') s "
        + "ON o.id = s.id WHEN MATCHED THEN UPDATE SET o.region = s.region WHEN NOT MATCHED THEN INSERT *");
    List<String> expected = List.of("[2,us]", "[3,apac]", "[4,us]", "[5,eu]");
    assertEquals(expected, sorted("SELECT * FROM " + orders));
    assertEquals(expected, sorted("SELECT * FROM " + native_("orders")), "Iceberg's own catalog reads gluecat's writes");

    // time travel and metadata tables, by gluecat's name
    assertEquals(List.of("[1,eu]", "[2,us]"), sorted("SELECT * FROM " + orders + " VERSION AS OF " + firstSnapshot));
    String firstCommit = session().sql("SELECT CAST(committed_at AS STRING) FROM " + native_("orders")
        + ".snapshots WHERE snapshot_id = " + firstSnapshot).first().getString(0);
    assertEquals(List.of("[1,eu]", "[2,us]"), sorted("SELECT * FROM " + orders + " TIMESTAMP AS OF '" + firstCommit
        + "'"));
    assertEquals(List.of("[5]"), rows("SELECT count(*) FROM " + orders + ".snapshots"));
    assertTrue(rows("SELECT count(*) FROM " + orders + ".files").get(0).matches("\\[[1-9]\\d*\\]"));

    // another writer's commit, then REFRESH TABLE by gluecat's name
    run("INSERT INTO " + native_("orders") + " VALUES (7, 'eu')");
    run("REFRESH TABLE " + orders);
    assertEquals(List.of("[7]"), rows("SELECT max(id) FROM " + orders));
    run("DELETE FROM " + orders + " WHERE id = 7");

    // joined with a Delta table of the same database, both by gluecat's names
    run("CREATE TABLE " + t("regions") + " USING delta AS SELECT 'us' AS region, 'Americas' AS area");
    assertEquals(List.of("[2,Americas]", "[4,Americas]"), sorted("SELECT o.id, r.area FROM " + orders + " o JOIN "
        + t("regions") + " r ON o.region = r.region"));
    assertEquals(List.of("orders", "regions"), run("SHOW TABLES IN " + database()).stream().map(r -> r.getString(1))
        .sorted().collect(Collectors.toList()));

    // schema and properties changes are Iceberg's, seen by Iceberg's own catalog
    run("ALTER TABLE " + orders + " ADD COLUMNS (note STRING)");
    run("ALTER TABLE " + orders + " SET TBLPROPERTIES ('owner.team' = 'sales')");
    run("INSERT INTO " + orders + " VALUES (6, 'eu', 'new')");
    assertEquals(List.of("[6,eu,new]"), rows("SELECT * FROM " + native_("orders") + " WHERE note IS NOT NULL"));
    assertTrue(rows("SHOW TBLPROPERTIES " + native_("orders")).contains("[owner.team,sales]"));

    // the entry stays Iceberg's: gluecat writes none of its own over it
    Table entry = glueTable(db, "orders");
    assertEquals("ICEBERG", entry.parameters().get("table_type"));
    assertTrue(entry.parameters().get("metadata_location").endsWith(".metadata.json"), entry.parameters().toString());
    assertNull(entry.parameters().get("spark.sql.sources.provider"));

    // RENAME and DROP are Iceberg's: the entry moves, then goes; the files stay
    run("ALTER TABLE " + orders + " RENAME TO " + t("orders_renamed"));
    assertEquals(List.of("[6]"), rows("SELECT max(id) FROM " + native_("orders_renamed")));
    String metadata = glueTable(db, "orders_renamed").parameters().get("metadata_location");
    run("DROP TABLE " + t("orders_renamed"));
    assertGone("orders_renamed");
    assertTrue(Files.exists(localFile(metadata)),
        "DROP TABLE keeps an Iceberg table's files: " + metadata);
  }

  @Test
  @CompatCase(id = "iceberg-created-by-gluecat", writer = "gluecat", reader = "iceberg-spark",
      title = "Iceberg tables gluecat creates (CREATE TABLE USING iceberg, writeTo().using(\"iceberg\"), CTAS, "
          + "CREATE OR REPLACE AS SELECT) are Iceberg's own entries, read by Iceberg's SparkCatalog")
  void createsUsingIcebergAreIcebergsOwnEntries() throws Exception {
    assumeTrue(ICEBERG, "Iceberg's Spark runtime is not on this line's classpath");
    String events = t("events");
    run("CREATE TABLE " + events + " (id BIGINT, ts TIMESTAMP) USING iceberg PARTITIONED BY (days(ts))");
    run("INSERT INTO " + events + " VALUES (1, TIMESTAMP'2026-12-01 10:00:00'), (2, TIMESTAMP'2026-12-02 11:00:00')");
    Table entry = glueTable(db, "events");
    assertEquals("ICEBERG", entry.parameters().get("table_type"));
    assertNull(entry.parameters().get("spark.sql.sources.provider"), "Iceberg's entry, not gluecat's shape");
    assertEquals(List.of("[2]"), rows("SELECT count(*) FROM " + native_("events")));
    assertEquals(List.of("[2026-12-01]", "[2026-12-02]"),
        sorted("SELECT CAST(partition.ts_day AS STRING) FROM " + native_("events") + ".partitions"));

    run("INSERT OVERWRITE " + events + " SELECT id + 10, ts FROM " + events);
    assertEquals(List.of("[11]", "[12]"), sorted("SELECT id FROM " + native_("events")));

    // the DataFrame writer's create, by gluecat's name
    session().sql("SELECT 1L AS id").writeTo(t("written")).using("iceberg").create();
    assertEquals("ICEBERG", glueTable(db, "written").parameters().get("table_type"));
    assertEquals(List.of("[1]"), rows("SELECT * FROM " + native_("written")));

    // CTAS, then CREATE OR REPLACE ... AS SELECT: Iceberg stages and commits both
    String copy = t("copy");
    run("CREATE TABLE " + copy + " USING iceberg AS SELECT id FROM " + events);
    assertEquals(List.of("[11]", "[12]"), sorted("SELECT * FROM " + native_("copy")));
    run("CREATE OR REPLACE TABLE " + copy + " USING iceberg AS SELECT (id - 10) * 10 AS id FROM " + events);
    assertEquals(List.of("[10]", "[20]"), sorted("SELECT * FROM " + copy));
    assertEquals(List.of("[2]"), rows("SELECT count(*) FROM " + copy + ".history"), "a replace is a new snapshot");

    // a replace does not change a table's kind, either way
    for (String provider : List.of("parquet", "delta")) {
      assertMessage(() -> run("CREATE OR REPLACE TABLE " + copy + " USING " + provider + " AS SELECT 1 AS id"),
          catalog + "." + db + ".copy", "Apache Iceberg table");
    }
    run("CREATE TABLE " + t("plain") + " (id BIGINT) USING parquet");
    assertMessage(() -> run("REPLACE TABLE " + t("plain") + " USING iceberg AS SELECT 1L AS id"),
        catalog + "." + db + ".plain", "is not an Apache Iceberg table");
    assertEquals("ICEBERG", glueTable(db, "copy").parameters().get("table_type"));
    assertEquals(List.of("[10]", "[20]"), sorted("SELECT * FROM " + copy));

    // PURGE follows Iceberg's rules: entry and files go
    String metadata = glueTable(db, "copy").parameters().get("metadata_location");
    run("DROP TABLE " + copy + " PURGE");
    assertGone("copy");
    assertFalse(Files.exists(localFile(metadata)),
        "DROP TABLE ... PURGE of an Iceberg table deletes its files: " + metadata);
  }

  /** Spark 4's procedure catalogs: CALL by a catalog's name needs no session extension there (Spark 3.5 has none). */
  private static final boolean SPARK_4 = !org.apache.spark.package$.MODULE$.SPARK_VERSION().startsWith("3.");

  /**
   * Iceberg's procedures by gluecat's name: the catalog hands them to the Iceberg catalog behind it (on Spark 3.5,
   * where CALL is Iceberg's extension's, through the procedure catalog gluecat's extension routes it to).
   */
  @Test
  void icebergsProceduresRunByGluecatsName() {
    assumeTrue(ICEBERG, "Iceberg's Spark runtime is not on this line's classpath");
    run("CREATE TABLE " + t("calls") + " (id BIGINT) USING iceberg");
    run("INSERT INTO " + t("calls") + " VALUES (1)");
    long first = session().sql("SELECT snapshot_id FROM " + t("calls") + ".snapshots").first().getLong(0);
    run("INSERT INTO " + t("calls") + " VALUES (2)");

    run("CALL " + catalog + ".system.rollback_to_snapshot(table => '" + db + ".calls', snapshot_id => " + first + ")");
    assertEquals(List.of("[1]"), rows("SELECT * FROM " + t("calls")));
    assertEquals(List.of("[1]"), rows("SELECT * FROM " + native_("calls")), "Iceberg's own catalog sees the rollback");
    assertMessage(() -> run("CALL " + catalog + ".system.no_such_procedure()"), "no_such_procedure");
    if (SPARK_4 && !org.apache.spark.package$.MODULE$.SPARK_VERSION().startsWith("4.0")) { // SHOW PROCEDURES: 4.1
      assertTrue(rows("SHOW PROCEDURES IN " + catalog + ".system").stream()
          .anyMatch(r -> r.contains("rollback_to_snapshot")), "SHOW PROCEDURES lists Iceberg's");
    }
  }

  /**
   * Iceberg's own DDL by gluecat's names, with Iceberg's session extension listed (the test session lists it where
   * the runtime is): partition evolution, write order, identifier fields, branches and tags change the Iceberg
   * table as Iceberg's own catalog would, and Iceberg's own catalog sees them. Another kind of table is refused.
   */
  @Test
  @CompatCase(id = "iceberg-ddl-extensions", writer = "gluecat", reader = "iceberg-spark",
      title = "Iceberg's DDL by gluecat's names (Iceberg's session extension): ADD, REPLACE and DROP PARTITION FIELD, "
          + "WRITE ORDERED BY, SET IDENTIFIER FIELDS, CREATE and DROP BRANCH and TAG, seen by Iceberg's SparkCatalog")
  void icebergsDdlRunsByGluecatsName() throws Exception {
    assumeTrue(ICEBERG, "Iceberg's Spark runtime is not on this line's classpath");
    String events = t("evolving");
    run("CREATE TABLE " + events + " (id BIGINT NOT NULL, region STRING, ts TIMESTAMP) USING iceberg");
    run("INSERT INTO " + events + " VALUES (1, 'eu', TIMESTAMP'2026-12-01 10:00:00')");

    // partition evolution: the files written after each change are partitioned by the new spec
    run("ALTER TABLE " + events + " ADD PARTITION FIELD region");
    run("ALTER TABLE " + events + " ADD PARTITION FIELD days(ts) AS day");
    run("INSERT INTO " + events + " VALUES (2, 'us', TIMESTAMP'2026-12-02 11:00:00')");
    assertEquals(List.of("[us,2026-12-02]"), rows("SELECT partition.region, CAST(partition.day AS STRING) FROM "
        + native_("evolving") + ".files WHERE partition.region IS NOT NULL"));
    run("ALTER TABLE " + events + " REPLACE PARTITION FIELD day WITH months(ts) AS month");
    run("ALTER TABLE " + events + " DROP PARTITION FIELD region");
    run("INSERT INTO " + events + " VALUES (3, 'apac', TIMESTAMP'2026-12-03 12:00:00')");
    // Iceberg's months() partition value: months since 1970-01 (683 is 2026-12)
    assertEquals(List.of("[null,null,683]"), rows("SELECT partition.region, partition.day, partition.month FROM "
        + native_("evolving") + ".files WHERE partition.month IS NOT NULL"));
    assertEquals(List.of("[1,eu]", "[2,us]", "[3,apac]"), sorted("SELECT id, region FROM " + events));

    // write order and identifier fields: Iceberg's reserved table properties, as Iceberg's catalog reports them
    run("ALTER TABLE " + events + " WRITE ORDERED BY id DESC");
    run("ALTER TABLE " + events + " SET IDENTIFIER FIELDS id");
    List<String> properties = rows("SHOW TBLPROPERTIES " + native_("evolving"));
    assertTrue(properties.stream().anyMatch(r -> r.startsWith("[sort-order,id DESC")), properties.toString());
    assertTrue(properties.contains("[identifier-fields,[id]]"), properties.toString());
    run("ALTER TABLE " + events + " DROP IDENTIFIER FIELDS id");
    assertFalse(rows("SHOW TBLPROPERTIES " + native_("evolving")).contains("[identifier-fields,[id]]"));

    // branches and tags: read as of them by gluecat's name, and by Iceberg's own catalog
    run("ALTER TABLE " + events + " CREATE TAG before_four");
    run("ALTER TABLE " + events + " CREATE BRANCH audit");
    run("INSERT INTO " + events + " VALUES (4, 'eu', TIMESTAMP'2026-12-04 09:00:00')");
    assertEquals(List.of("[3]"), rows("SELECT count(*) FROM " + events + " VERSION AS OF 'before_four'"));
    assertEquals(List.of("[3]"), rows("SELECT count(*) FROM " + native_("evolving") + " VERSION AS OF 'audit'"));
    assertEquals(List.of("[4]"), rows("SELECT count(*) FROM " + events));
    List<String> refs = sorted("SELECT name, type FROM " + native_("evolving") + ".refs");
    assertEquals(List.of("[audit,BRANCH]", "[before_four,TAG]", "[main,BRANCH]"), refs);
    run("ALTER TABLE " + events + " DROP TAG before_four");
    run("ALTER TABLE " + events + " DROP BRANCH audit");
    assertEquals(List.of("[main,BRANCH]"), rows("SELECT name, type FROM " + native_("evolving") + ".refs"));

    // Iceberg's statements are for Iceberg tables: another kind of the catalog's tables is refused by its name
    run("CREATE TABLE " + t("delta_events") + " (id BIGINT) USING delta");
    assertMessage(() -> run("ALTER TABLE " + t("delta_events") + " ADD PARTITION FIELD id"),
        catalog + "." + db + ".delta_events", "is not an Apache Iceberg table", "ADD PARTITION FIELD");
  }

  /**
   * The Athena-shape cell of the Iceberg tables gluecat creates: Athena reads Iceberg tables whose Glue entry follows
   * Iceberg's own GlueCatalog (table_type ICEBERG, metadata_location, the table's root as Location, its columns) and
   * that are of format version 2, with parquet data. Athena is not run.
   */
  @Test
  @CompatCase(id = "iceberg-create", writer = "gluecat", reader = "athena-shape",
      title = "Iceberg table created with CREATE TABLE ... USING iceberg PARTITIONED BY (days(day))")
  void icebergTablesGluecatCreatesHaveWhatAthenaReads() throws Exception {
    assumeTrue(ICEBERG, "Iceberg's Spark runtime is not on this line's classpath");
    namedModeOnly();
    run("CREATE TABLE " + t("athena") + " (id BIGINT, name STRING, day DATE) USING iceberg PARTITIONED BY (days(day))");
    run("INSERT INTO " + t("athena") + " VALUES (1, 'a', DATE'2026-12-01')");

    Table entry = glueTable(db, "athena");
    assertEquals("EXTERNAL_TABLE", entry.tableType());
    assertEquals("ICEBERG", entry.parameters().get("table_type"));
    String metadataJson = Files.readString(localFile(entry.parameters().get("metadata_location")));
    assertTrue(metadataJson.matches("(?s).*\"format-version\"\\s*:\\s*2\\s*,.*"), "format version 2: " + metadataJson);
    assertTrue(metadataJson.contains("\"location\" : \"" + entry.storageDescriptor().location() + "\"")
        || metadataJson.contains("\"location\":\"" + entry.storageDescriptor().location() + "\""),
        "the entry's Location is the table's root: " + entry.storageDescriptor().location());
    assertEquals(List.of("id bigint", "name string", "day date"), entry.storageDescriptor().columns().stream()
        .map(c -> c.name() + " " + c.type()).collect(Collectors.toList()));
    assertTrue(rows("SELECT file_format FROM " + t("athena") + ".files").stream().allMatch(r -> r.equals("[PARQUET]")));
  }

  /**
   * Two sessions of one JVM, each with its own instance of the gluecat catalog (as two applications have), and so
   * each with its own Iceberg catalog, append to one Iceberg table from four threads at once: Iceberg commits with
   * Glue's VersionId and, on a stale one, refreshes and commits again, so every append is kept.
   */
  @Test
  @CompatCase(id = "iceberg-concurrent-writers", writer = "gluecat", reader = "gluecat",
      title = "Four writers in two sessions (each its own catalog instance) append to one Iceberg table at once: "
          + "every append kept, one snapshot each")
  void concurrentAppendsToOneIcebergTableAreAllKept() throws Exception {
    assumeTrue(ICEBERG, "Iceberg's Spark runtime is not on this line's classpath");
    namedModeOnly();
    String table = t("appends");
    // Iceberg's default of 4 retries is for a handful of writers; more writers at once take more
    run("CREATE TABLE " + table + " (writer INT, n INT) USING iceberg TBLPROPERTIES ('commit.retry.num-retries' = '20')");
    org.apache.spark.sql.SparkSession second = session().newSession();
    second.conf().set("spark.sql.catalog." + catalog, "io.gluecat.GlueCatalog");
    catalogOptions().forEach((k, v) -> second.conf().set("spark.sql.catalog." + catalog + "." + k, v));
    int writers = 4;
    int appends = 3;
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
    java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
    List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
    for (int w = 0; w < writers; w++) {
      org.apache.spark.sql.SparkSession writerSession = w % 2 == 0 ? session() : second;
      int writer = w;
      done.add(pool.submit(() -> {
        org.apache.spark.sql.SparkSession.setActiveSession(writerSession);
        start.await();
        for (int n = 0; n < appends; n++) {
          writerSession.sql("INSERT INTO " + table + " VALUES (" + writer + ", " + n + ")").collect();
        }
        return null;
      }));
    }
    start.countDown();
    try {
      for (java.util.concurrent.Future<?> f : done) {
        f.get(5, java.util.concurrent.TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
    assertEquals(List.of("[" + writers * appends + "," + writers * appends + "]"),
        rows("SELECT count(*), count(DISTINCT writer * 100 + n) FROM " + table));
    assertEquals(List.of("[" + writers * appends + "]"), rows("SELECT count(*) FROM " + table + ".snapshots"));
    assertEquals(List.of("[" + writers * appends + "]"), rows("SELECT count(*) FROM " + native_("appends")));
  }

  @Test
  @CompatCase(id = "iceberg-spark-catalog-written", writer = "iceberg-spark", reader = "gluecat", title = ICEBERG_WROTE,
      limit = "Apache Iceberg publishes no Spark runtime for this Spark line: gluecat refuses Iceberg tables here, "
          + "naming the table and why, before anything is written; it serves them on the lines with a runtime")
  void withoutIcebergsRuntimeAnIcebergTableIsRefusedNamingTheArtifact() {
    assumeFalse(ICEBERG, "Iceberg's Spark runtime is on this line's classpath");
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name("ice").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("table_type", "ICEBERG", "metadata_location", newDirectory("ice") + "/metadata/v1.json"))));
    String line = org.apache.spark.package$.MODULE$.SPARK_VERSION().replaceAll("^(\\d+\\.\\d+).*", "$1");
    assertMessage(() -> run("SELECT * FROM " + t("ice")), catalog + "." + db + ".ice", "Apache Iceberg table",
        "does not publish one for Spark " + line);
    assertMessage(() -> run("CREATE TABLE " + t("created") + " (id BIGINT) USING iceberg"),
        catalog + "." + db + ".created", "Apache Iceberg table");
    assertGone("created");
    if (SPARK_4) {
      assertMessage(() -> run("CALL " + catalog + ".system.rollback_to_snapshot(table => '" + db + ".ice', "
          + "snapshot_id => 1)"), "Procedure " + catalog + ".system.rollback_to_snapshot",
          "Apache Iceberg's procedures", "does not publish one for Spark " + line);
    }
  }

  private void assertGone(String table) {
    try {
      GLUE.getTable(r -> r.databaseName(db).name(table));
      throw new AssertionError(db + "." + table + " is still in Glue");
    } catch (EntityNotFoundException expected) {
      // gone
    }
  }

  /** An Iceberg metadata location of this JVM's file system, as a path (Iceberg writes them with or without file:). */
  private static Path localFile(String location) {
    return Paths.get(java.net.URI.create(location.startsWith("/") ? "file:" + location : location));
  }
}
