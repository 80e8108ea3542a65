package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.messages;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.GlueCallRecorder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;

/**
 * Bad input from users: each statement fails with an error naming the table or database and the problem,
 * before anything is written: no Glue call that changes anything, no Glue entry, no file.
 */
class BadInputIT extends MiniStackSparkTest {
  private static final List<String> GLUE_WRITES = List.of("CreateTable", "UpdateTable", "DeleteTable",
      "CreateDatabase", "UpdateDatabase", "DeleteDatabase");

  /** Runs {@code statement}, expects it refused with every fragment in its messages, and nothing written. */
  private static void refusedBeforeWriting(String root, String db, Executable statement, String... fragments) {
    FaultInjectionIT.World before = FaultInjectionIT.World.of(db, root);
    GlueCallRecorder.clear();
    Throwable e = assertThrows(Throwable.class, statement);
    String all = messages(e);
    for (String fragment : fragments) {
      assertTrue(all.contains(fragment), "expected '" + fragment + "' in: " + all);
    }
    assertFalse(all.contains("INTERNAL_ERROR"), all);
    List<String> writes = GlueCallRecorder.calls(c -> GLUE_WRITES.contains(c.operation())).stream()
        .map(c -> c.operation()).collect(java.util.stream.Collectors.toList());
    assertEquals(List.of(), writes, "no Glue write for a refused statement: " + all);
    FaultInjectionIT.World after = FaultInjectionIT.World.of(db, root);
    assertTrue(after.sameAs(before), "nothing written: " + after.diff(before));
  }

  @Test
  void invalidNamesAreRefused() {
    String catalog = newCatalog();
    String root = newDirectory("bad_names");
    String db = newDatabase(root + "/db");
    String longName = "t".repeat(256);
    for (String create : List.of("CREATE TABLE %s (id INT) USING delta", "CREATE TABLE %s (id INT) USING parquet",
        "CREATE TABLE %s USING delta AS SELECT 1 AS id", "CREATE TABLE %s USING parquet AS SELECT 1 AS id")) {
      refusedBeforeWriting(root, db, () -> sql(String.format(create, catalog + "." + db + ".`bad-name`")),
          catalog, "table name 'bad-name'", db + ".bad-name", "letters, digits and underscores");
      refusedBeforeWriting(root, db, () -> sql(String.format(create, catalog + "." + db + "." + longName)),
          catalog, "table name", "256 characters", "255");
    }
    sql("CREATE TABLE " + catalog + "." + db + ".good (id INT) USING delta");
    refusedBeforeWriting(root, db, () -> sql("ALTER TABLE " + catalog + "." + db + ".good RENAME TO "
        + catalog + "." + db + ".`bad name`"), "table name 'bad name'");
    refusedBeforeWriting(root, db, () -> sql("CREATE NAMESPACE " + catalog + ".`bad-db`"),
        catalog, "database name 'bad-db'", "letters, digits and underscores");
    refusedBeforeWriting(root, db, () -> sql("CREATE NAMESPACE " + catalog + "." + "d".repeat(256)),
        "database name", "256 characters");
    assertThrows(EntityNotFoundException.class, () -> GLUE.getDatabase(r -> r.name("bad-db")));
  }

  @Test
  void unsupportedChangesPurgeBucketsAndHiveSerdeCreatesAreRefused() {
    String catalog = newCatalog();
    String root = newDirectory("bad_changes");
    String db = newDatabase(root + "/db");
    String parquet = catalog + "." + db + ".p";
    String delta = catalog + "." + db + ".d";
    sql("CREATE TABLE " + parquet + " USING parquet AS SELECT 1 AS id, 'a' AS name");
    sql("CREATE TABLE " + delta + " USING delta AS SELECT 1 AS id");

    String quoted = "`" + db + "`.`p`"; // Spark's own errors (FileTableParityIT), which quote the name
    refusedBeforeWriting(root, db, () -> sql("ALTER TABLE " + parquet + " DROP COLUMN name"), quoted,
        "UNSUPPORTED_FEATURE.TABLE_OPERATION", "DROP COLUMN");
    refusedBeforeWriting(root, db, () -> sql("ALTER TABLE " + parquet + " RENAME COLUMN name TO label"), quoted,
        "UNSUPPORTED_FEATURE.TABLE_OPERATION", "RENAME COLUMN");
    refusedBeforeWriting(root, db, () -> sql("ALTER TABLE " + parquet + " ALTER COLUMN id TYPE BIGINT"), quoted,
        "NOT_SUPPORTED_CHANGE_COLUMN");
    refusedBeforeWriting(root, db, () -> sql("ALTER TABLE " + parquet + " ADD COLUMNS (s STRUCT<a: INT> FIRST)"),
        quoted, "UNSUPPORTED_FEATURE.TABLE_OPERATION", "FIRST | AFTER");
    refusedBeforeWriting(root, db, () -> sql("DROP TABLE " + parquet + " PURGE"), db + ".p", "PURGE",
        "never deletes data");
    refusedBeforeWriting(root, db, () -> sql("DROP TABLE " + delta + " PURGE"), db + ".d", "PURGE");

    refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + catalog + "." + db + ".bucketed (id INT) USING delta "
        + "CLUSTERED BY (id) INTO 4 BUCKETS"), db + ".bucketed", "bucketed");
    refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + catalog + "." + db + ".bucketed USING delta "
        + "CLUSTERED BY (id) INTO 4 BUCKETS AS SELECT 1 AS id"), db + ".bucketed", "bucketed");
    refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + catalog + "." + db + ".bucketed (id INT, k INT) "
        + "USING parquet PARTITIONED BY (k) CLUSTERED BY (k) INTO 4 BUCKETS"), db + ".bucketed", "partition column");
    refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + catalog + "." + db + ".bucketed USING parquet "
        + "CLUSTERED BY (nope) INTO 4 BUCKETS AS SELECT 1 AS id"), "nope"); // Spark's check or gluecat's
    refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + catalog + "." + db + ".hive_t (id INT) STORED AS PARQUET"),
        db + ".hive_t", "Hive SerDe");
    refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + catalog + "." + db + ".hive_t (id INT) ROW FORMAT "
        + "DELIMITED FIELDS TERMINATED BY ','"), db + ".hive_t", "Hive SerDe");
  }

  @Test
  void badValuesAreRefused() {
    String catalog = newCatalog();
    String root = newDirectory("bad_values");
    String db = newDatabase(root + "/db");
    String t = catalog + "." + db;
    for (String provider : List.of("delta", "parquet")) {
      refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + t + ".reserved (id INT) USING " + provider
          + " TBLPROPERTIES ('spark.sql.sources.schema' = 'x')"), db + ".reserved", "spark.sql.sources.schema",
          "reserved");
      refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + t + ".reserved (id INT) USING " + provider
          + " TBLPROPERTIES ('table_type' = 'ICEBERG')"), db + ".reserved", "table_type", "reserved");
      for (String location : List.of("::not a uri::", "hdfs://[bad/x")) {
        // Spark itself qualifies a new table's LOCATION before the catalog sees it, and refuses it (unnamed)
        refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + t + ".badloc (id INT) USING " + provider
            + " LOCATION '" + location + "'"), "URISyntaxException");
      }
      refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + t + ".partitioned (id INT) USING " + provider
          + " PARTITIONED BY (nope)"), "nope");
    }
    sql("CREATE TABLE " + t + ".moved (id INT) USING parquet");
    refusedBeforeWriting(root, db, () -> sql("ALTER TABLE " + t + ".moved SET LOCATION 'hdfs://[bad/x'"),
        db + ".moved", "not a valid URI");
    // as for tables, Spark qualifies a new database's LOCATION itself, before the catalog sees it
    refusedBeforeWriting(root, db, () -> sql("CREATE NAMESPACE " + catalog + ".badlocdb LOCATION '::not a uri::'"),
        "URISyntaxException");
    assertThrows(EntityNotFoundException.class, () -> GLUE.getDatabase(r -> r.name("badlocdb")));

    String bad = newCatalog(java.util.Map.of("glue.max-attempts", "0", "region", "us-east-1"));
    refusedBeforeWriting(root, db, () -> sql("SHOW NAMESPACES IN " + bad), bad, "glue.max-attempts", "from 1 to 20");
  }

  @Test
  void aDatabaseWhoseLocationIsNotAURIIsNamedWhenATableIsCreatedInIt() {
    String catalog = newCatalog();
    String root = newDirectory("bad_db_location");
    String db = unique("db");
    GLUE.createDatabase(r -> r.databaseInput(d -> d.name(db).locationUri("::not a uri::")));
    for (String provider : List.of("delta", "parquet")) {
      refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + catalog + "." + db + ".t (id INT) USING " + provider),
          "database " + catalog + "." + db, "not a valid URI", "::not a uri::", "LOCATION");
      refusedBeforeWriting(root, db, () -> sql("CREATE TABLE " + catalog + "." + db + ".t USING " + provider
          + " AS SELECT 1 AS id"), "database " + catalog + "." + db, "not a valid URI");
    }
    // a table with its own location does not need the database's
    String location = newDirectory("own");
    sql("CREATE TABLE " + catalog + "." + db + ".own (id INT) USING delta LOCATION '" + location + "'");
    assertEquals(0L, spark().table(catalog + "." + db + ".own").count());
  }
}
