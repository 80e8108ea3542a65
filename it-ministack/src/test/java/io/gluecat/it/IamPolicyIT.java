package io.gluecat.it;

import static io.gluecat.it.TableLoadIT.messages;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.DeltaCommittedButGlueFailedException;
import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.IamPolicies;
import io.gluecat.testkit.Moto;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;

/**
 * gluecat under IAM, on moto with IAM enforced: the base credentials may only assume roles, and each catalog
 * assumes a role whose only policy is one of docs/iam/ (moto matches actions; Glue resources are widened to
 * {@code *}, see IamPolicies). The writer's journey succeeds statement by statement; the reader reads all of it,
 * and each of its writes fails with gluecat's access-denied message naming the catalog, the table and the
 * refused action, leaving Glue as it was. Two catalogs with different roles share the session, each calling
 * Glue with its own role's keys. Then the same in session mode.
 */
class IamPolicyIT extends MiniStackSparkTest {
  private static Moto moto;
  private static GlueClient admin;
  private static String writerRole;
  private static String readerRole;
  private static String savedKey;
  private static String savedSecret;

  @BeforeAll
  static void motoWithRoles() {
    moto = Moto.withIam();
    AwsBasicCredentials base = moto.principal("spark-base", IamPolicies.assumeRoleOnly());
    writerRole = moto.role("gluecat-writer", "spark-base", IamPolicies.forMoto("writer.json", "*", "lake", "w"));
    readerRole = moto.role("gluecat-reader", "spark-base", IamPolicies.forMoto("reader.json", "*", "lake", "w"));
    admin = GlueClient.builder().endpointOverride(moto.endpoint()).region(Region.of(Moto.REGION))
        .credentialsProvider(StaticCredentialsProvider.create(moto.admin())).build();
    // The default credential chain of every catalog in this JVM: on moto they may only assume the roles
    savedKey = System.getProperty("aws.accessKeyId");
    savedSecret = System.getProperty("aws.secretAccessKey");
    System.setProperty("aws.accessKeyId", base.accessKeyId());
    System.setProperty("aws.secretAccessKey", base.secretAccessKey());
  }

  @AfterAll
  static void restore() {
    restoreProperty("aws.accessKeyId", savedKey);
    restoreProperty("aws.secretAccessKey", savedSecret);
    if (admin != null) {
      admin.close();
    }
    if (moto != null) {
      moto.close();
    }
  }

  private static void restoreProperty(String key, String value) {
    if (value == null) {
      System.clearProperty(key);
    } else {
      System.setProperty(key, value);
    }
  }

  private static Map<String, String> motoOptions(String role) {
    return Map.of("region", Moto.REGION, "glue.endpoint", moto.endpoint().toString(),
        "sts.endpoint", moto.endpoint().toString(), "role.arn", role);
  }

  @Test
  void theWriterRunsItsJourneyAndTheReaderReadsItButWritesNothing() throws Exception {
    String writer = newCatalog(motoOptions(writerRole));
    String reader = newCatalog(motoOptions(readerRole));
    String db = unique("iamdb");
    String location = newDirectory("iam");

    // The writer: namespaces, a partitioned file table and its Glue partitions, ALTER, a Delta CTAS, DROP
    sql("CREATE NAMESPACE " + writer + "." + db + " LOCATION '" + location + "'");
    sql("ALTER NAMESPACE " + writer + "." + db + " SET DBPROPERTIES ('team' = 'sales')");
    sql("CREATE TABLE " + writer + "." + db + ".events (id INT, day STRING) USING parquet PARTITIONED BY (day)");
    insertInto(writer + "." + db + ".events", 1, "2026-12-01");
    insertInto(writer + "." + db + ".events", 2, "2026-12-02");
    assertEquals(2, admin.getPartitions(r -> r.databaseName(db).tableName("events")).partitions().size());
    sql("ALTER TABLE " + writer + "." + db + ".events SET TBLPROPERTIES ('team' = 'sales')");
    sql("CREATE TABLE " + writer + "." + db + ".totals USING delta AS SELECT day, count(*) AS n FROM "
        + writer + "." + db + ".events GROUP BY day");
    sql("CREATE TABLE " + writer + "." + db + ".scratch (id INT) USING parquet");
    sql("DROP TABLE " + writer + "." + db + ".scratch");
    assertThrows(EntityNotFoundException.class, () -> admin.getTable(r -> r.databaseName(db).name("scratch")));

    // The reader sees all of it
    assertEquals(Set.of("events", "totals"), sql("SHOW TABLES IN " + reader + "." + db).stream()
        .map(r -> r.getString(1)).collect(Collectors.toSet()));
    assertEquals(List.of("[1,2026-12-01]", "[2,2026-12-02]"),
        strings(sql("SELECT id, day FROM " + reader + "." + db + ".events ORDER BY id")));
    assertEquals(List.of("[2026-12-01,1]", "[2026-12-02,1]"),
        strings(sql("SELECT day, n FROM " + reader + "." + db + ".totals ORDER BY day")));
    assertFalse(sql("DESCRIBE TABLE " + reader + "." + db + ".events").isEmpty());

    // Each calls Glue with its own role's keys
    GlueCallRecorder.reset();
    sql("SHOW TABLES IN " + reader + "." + db);
    sql("SHOW TABLES IN " + writer + "." + db);
    Set<String> keys = GlueCallRecorder.callsOf("GetTables").stream().filter(c -> db.equals(c.databaseName()))
        .map(GlueCall::accessKeyId).collect(Collectors.toSet());
    assertEquals(2, keys.size(), "two catalogs, two roles, two keys: " + keys);

    // The reader's writes: gluecat's message naming the action; Glue left as it was
    String before = admin.getTable(r -> r.databaseName(db).name("events")).table().parameters().toString();
    refused(() -> sql("CREATE TABLE " + reader + "." + db + ".nope (id INT) USING parquet"), reader,
        "glue:CreateTable", "'" + db + ".nope'");
    assertThrows(EntityNotFoundException.class, () -> admin.getTable(r -> r.databaseName(db).name("nope")));
    assertFalse(Files.exists(Paths.get(location.substring("file:".length()), "nope")), "no directory left");
    refused(() -> sql("ALTER TABLE " + reader + "." + db + ".events SET TBLPROPERTIES ('x' = 'y')"), reader,
        "glue:UpdateTable", "'" + db + ".events'");
    refused(() -> sql("DROP TABLE " + reader + "." + db + ".events"), reader, "glue:DeleteTable");
    assertEquals(before, admin.getTable(r -> r.databaseName(db).name("events")).table().parameters().toString());
    refused(() -> insertInto(reader + "." + db + ".events", 3, "2026-12-03"), reader,
        "glue:BatchCreatePartition");
    assertEquals(2, admin.getPartitions(r -> r.databaseName(db).tableName("events")).partitions().size());
    refused(() -> sql("CREATE NAMESPACE " + reader + "." + unique("nodb")), reader, "glue:CreateDatabase");
    // Delta commits first, by the spec's order; the message says so and names the permission
    Throwable delta = assertThrows(Throwable.class, () -> sql("CREATE TABLE " + reader + "." + db
        + ".dx USING delta LOCATION '" + location + "/dx' AS SELECT 1 AS id"));
    String all = messages(delta);
    assertTrue(all.contains(DeltaCommittedButGlueFailedException.class.getName()), all);
    assertTrue(all.contains("glue:CreateTable"), all);
    assertThrows(EntityNotFoundException.class, () -> admin.getTable(r -> r.databaseName(db).name("dx")));

    // The writer cleans up: DROP of a Delta table and of the database
    sql("DROP TABLE " + writer + "." + db + ".totals");
    sql("DROP NAMESPACE " + writer + "." + db + " CASCADE");
    assertThrows(EntityNotFoundException.class, () -> admin.getDatabase(r -> r.name(db)));
  }

  @Test
  void sessionModeUnderEachRole() {
    String db = unique("iamsession");
    String location = newDirectory("iamsession");
    try {
      SparkSession writer = newSessionModeSession(motoOptions(writerRole));
      writer.sql("CREATE DATABASE " + db + " LOCATION '" + location + "'");
      writer.sql("CREATE TABLE " + db + ".t (id INT, day STRING) USING parquet PARTITIONED BY (day)");
      writer.sql("INSERT INTO " + db + ".t VALUES (1, '2026-12-01')");
      writer.sql("CREATE TABLE " + db + ".d USING delta AS SELECT 7 AS id");
      assertEquals(1, admin.getPartitions(r -> r.databaseName(db).tableName("t")).partitions().size());

      SparkSession reader = newSessionModeSession(motoOptions(readerRole));
      assertEquals(List.of("[1,2026-12-01]"), strings(reader.sql("SELECT id, day FROM " + db + ".t").collectAsList()));
      assertEquals(List.of("[7]"), strings(reader.sql("SELECT id FROM " + db + ".d").collectAsList()));
      refused(() -> reader.sql("CREATE TABLE " + db + ".nope (id INT) USING parquet"), "spark_catalog",
          "glue:CreateTable");
      refused(() -> reader.sql("DROP TABLE " + db + ".t"), "spark_catalog", "glue:DeleteTable");

      SparkSession.setActiveSession(writer);
      writer.sql("DROP TABLE " + db + ".t");
      writer.sql("DROP TABLE " + db + ".d");
      writer.sql("DROP DATABASE " + db);
      assertThrows(EntityNotFoundException.class, () -> admin.getDatabase(r -> r.name(db)));
    } finally {
      SparkSession.setActiveSession(spark());
    }
  }

  private static StructType schema() {
    return new StructType().add("id", DataTypes.IntegerType).add("day", DataTypes.StringType);
  }

  private static void insertInto(String table, int id, String day) {
    spark().createDataFrame(List.of(RowFactory.create(id, day)), schema()).write().insertInto(table);
  }

  private static List<String> strings(List<Row> rows) {
    return rows.stream().map(Row::toString).collect(Collectors.toList());
  }

  /** The statement fails with gluecat's access-denied message for {@code catalog}, with every fragment. */
  private static void refused(Executable statement, String catalog, String... fragments) {
    Throwable e = assertThrows(Throwable.class, statement);
    String all = messages(e);
    assertTrue(all.contains("Access denied: catalog '" + catalog + "'"), all);
    for (String fragment : fragments) {
      assertTrue(all.contains(fragment), "expected '" + fragment + "' in: " + all);
    }
    assertTrue(all.contains(readerRole), "the role is named: " + all);
    assertFalse(all.contains(System.getProperty("aws.secretAccessKey")), all);
  }
}
