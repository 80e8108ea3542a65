package io.gluecat.it;

import io.gluecat.it.spark.LogCapture;
import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.s3a.RoleCredentials;
import io.gluecat.storage.CatalogHadoopConf;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.MiniStack;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Each catalog's tables are read and written with that catalog's Hadoop settings: two catalogs whose
 * buckets live on two MiniStack processes, each reachable only with its own catalog's S3A settings (the
 * session's own S3A endpoint is a closed port). Every bucket is new, and its first access in this JVM is
 * the statement under test, because Hadoop keeps the first FileSystem opened for a bucket.
 */
class PerCatalogStorageIT extends MiniStackSparkTest {
  /** Nothing listens there: S3A access with the session's settings alone fails at once. */
  private static final String CLOSED_ENDPOINT = "http://127.0.0.1:9";

  private static MiniStack second;
  private static final String SECRET_A = "secret-a-" + UUID.randomUUID();
  private static final String ROLE_B = "arn:aws:iam::000000000000:role/lake-b";
  private static final String ROLE_B_SESSION = "lake-b-tables";
  /** What must never show: catalog A's secret key, and the session token of catalog B's role (once known). */
  private static final List<String> SECRETS = new ArrayList<>(List.of(SECRET_A));

  private final List<String> logged = new ArrayList<>();
  private LogCapture capture;

  @BeforeAll
  static void startSecondStorage() {
    second = MiniStack.start();
    org.apache.hadoop.conf.Configuration conf = spark().sparkContext().hadoopConfiguration();
    conf.set("fs.s3a.endpoint", CLOSED_ENDPOINT);
    conf.set("fs.s3a.path.style.access", "true");
    conf.set("fs.s3a.connection.ssl.enabled", "false");
    conf.set("fs.s3a.attempts.maximum", "1");
    conf.set("fs.s3a.retry.limit", "1");
    conf.set("fs.s3a.connection.establish.timeout", "2000");
  }

  @AfterAll
  static void stopSecondStorage() {
    org.apache.hadoop.conf.Configuration conf = spark().sparkContext().hadoopConfiguration();
    for (String key : List.of("fs.s3a.endpoint", "fs.s3a.path.style.access", "fs.s3a.connection.ssl.enabled",
        "fs.s3a.attempts.maximum", "fs.s3a.retry.limit", "fs.s3a.connection.establish.timeout")) {
      conf.unset(key);
    }
    second.close();
  }

  @AfterEach
  void tearDown() {
    spark().conf().unset("spark.databricks.delta.legacy.storeOptionsAsProperties");
    if (capture != null) {
      capture.close();
    }
  }

  /** Catalog A: static keys (a secret among its options) for the shared MiniStack's S3. */
  private static String catalogWithKeys(String bucket) {
    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    MINISTACK.s3aSettings().forEach((k, v) -> options.put("hadoop." + k, v));
    options.put("hadoop.fs.s3a.secret.key", SECRET_A);
    options.put("warehouse", "s3a://" + bucket + "/warehouse");
    return newCatalog(options);
  }

  /** Catalog B: the second MiniStack's S3, reached with the catalog's role (no keys among its options). */
  private static String catalogWithRole(String bucket) {
    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    second.s3aSettings().forEach((k, v) -> {
      if (!k.equals("fs.s3a.aws.credentials.provider") && !k.contains("access.key") && !k.contains("secret.key")) {
        options.put("hadoop." + k, v);
      }
    });
    options.put("role.arn", ROLE_B);
    options.put("role.session-name", ROLE_B_SESSION);
    options.put("warehouse", "s3a://" + bucket + "/warehouse");
    return newCatalog(options);
  }

  /**
   * The session token S3A got for catalog {@code b}'s tables: gluecat keeps one role session per role
   * setting in the JVM, so asking with the same settings returns that session's credentials.
   */
  private static String roleSessionToken(String b) {
    org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration(false);
    conf.set(CatalogHadoopConf.ROLE_ARN, ROLE_B);
    conf.set(CatalogHadoopConf.ROLE_SESSION_NAME, ROLE_B_SESSION);
    conf.set(CatalogHadoopConf.ROLE_STS_ENDPOINT, MINISTACK.endpoint().toString());
    conf.set(CatalogHadoopConf.ROLE_REGION, MiniStack.REGION.id());
    conf.set(CatalogHadoopConf.ROLE_CATALOG, b);
    String token = ((AwsSessionCredentials) RoleCredentials.of(conf).resolveCredentials()).sessionToken();
    assertNotNull(token);
    return token;
  }

  private static String bucket(MiniStack ministack) {
    return ministack.createBucket(unique("lake").replace('_', '-'));
  }

  private static List<String> keys(MiniStack ministack, String bucket) {
    try (S3Client s3 = ministack.s3()) {
      return s3.listObjectsV2Paginator(r -> r.bucket(bucket)).contents().stream().map(S3Object::key)
          .sorted().collect(Collectors.toList());
    }
  }

  private static String object(MiniStack ministack, String bucket, String key) {
    try (S3Client s3 = ministack.s3()) {
      return s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asUtf8String();
    }
  }

  /** No Hadoop setting reached the entry: no fs.* key, no secret, no option.* key. */
  private static void assertEntryClean(String database, String table) {
    Table entry = glueTable(database, table);
    Map<String, String> all = new LinkedHashMap<>(entry.parameters());
    if (entry.storageDescriptor().serdeInfo() != null && entry.storageDescriptor().serdeInfo().hasParameters()) {
      all.putAll(entry.storageDescriptor().serdeInfo().parameters());
    }
    all.forEach((k, v) -> {
      assertFalse(k.startsWith("fs.") || k.startsWith("option.") || k.startsWith("hadoop."), table + ": " + k);
      assertTrue(SECRETS.stream().noneMatch(v::contains), table + ": " + k);
    });
  }

  /** No Hadoop setting reached the Delta log of a table. */
  private static void assertLogClean(MiniStack ministack, String bucket) {
    List<String> logs = keys(ministack, bucket).stream().filter(k -> k.contains("/_delta_log/") && k.endsWith(".json"))
        .collect(Collectors.toList());
    assertFalse(logs.isEmpty(), "a Delta log in " + bucket);
    for (String key : logs) {
      String log = object(ministack, bucket, key);
      assertFalse(log.contains("fs.s3a") || log.contains("option."), key + ": " + log);
      assertTrue(SECRETS.stream().noneMatch(log::contains), key);
    }
  }

  @Test
  void eachCatalogReadsAndWritesItsOwnBucketWithItsOwnSettings() {
    capture = LogCapture.start(logged);
    String bucketA = bucket(MINISTACK);
    String bucketB = bucket(second);
    String a = catalogWithKeys(bucketA);
    String b = catalogWithRole(bucketB);
    String sales = unique("sales");
    String ops = unique("ops");
    spark().sql("CREATE NAMESPACE " + a + "." + sales);
    spark().sql("CREATE NAMESPACE " + b + "." + ops);

    // A: plain create (the location is opened by gluecat first), then inserts through the loaded table
    spark().sql("CREATE TABLE " + a + "." + sales + ".orders (id BIGINT, amount DOUBLE) USING delta");
    spark().sql("INSERT INTO " + a + "." + sales + ".orders VALUES (1, 10.0), (2, 20.0)");
    spark().sql("INSERT INTO " + a + "." + sales + ".orders VALUES (3, 30.0)");
    // B: CTAS (the catalog's settings travel as write options) and a partitioned parquet table
    spark().sql("CREATE TABLE " + b + "." + ops + ".shipments USING delta AS SELECT id, concat('s', id) AS code "
        + "FROM range(1, 4)");
    spark().sql("CREATE TABLE " + b + "." + ops + ".events (id BIGINT, day STRING) USING parquet PARTITIONED BY (day)");
    spark().sql("INSERT INTO " + b + "." + ops + ".events VALUES (1, 'd1'), (2, 'd2')");
    spark().sql("CREATE TABLE " + a + "." + sales + ".daily USING parquet PARTITIONED BY (day) AS "
        + "SELECT id, 'd1' AS day FROM range(2)");
    spark().sql("INSERT INTO " + a + "." + sales + ".daily VALUES (5, 'd2')");
    spark().sql("INSERT INTO " + b + "." + ops + ".shipments VALUES (4, 's4')");
    // each side of a cross-catalog CTAS with its own settings: read from B, written to A, and back
    spark().sql("CREATE TABLE " + a + "." + sales + ".codes USING delta AS SELECT * FROM " + b + "." + ops
        + ".shipments");
    spark().sql("CREATE TABLE " + b + "." + ops + ".totals USING parquet AS SELECT id, amount FROM " + a + "."
        + sales + ".orders");

    assertEquals(List.of("[1,10.0,s1,d1]", "[2,20.0,s2,d2]", "[3,30.0,s3,null]"),
        rows("SELECT o.id, o.amount, s.code, e.day FROM " + a + "." + sales + ".orders o JOIN " + b + "." + ops + ".shipments s "
            + "ON o.id = s.id LEFT JOIN " + b + "." + ops + ".events e ON e.id = o.id ORDER BY o.id"));
    assertEquals(List.of("[2]"), rows("SELECT count(*) FROM " + a + "." + sales + ".orders VERSION AS OF 1"));
    assertEquals(List.of("[0,d1]", "[1,d1]", "[5,d2]"), rows("SELECT * FROM " + a + "." + sales + ".daily ORDER BY id"));
    assertEquals(List.of("[3]", "[4]"), rows("SELECT count(*) FROM " + b + "." + ops + ".shipments VERSION AS OF 0 "
        + "UNION ALL SELECT count(*) FROM " + b + "." + ops + ".shipments"));
    assertEquals(List.of("[4,s4]"), rows("SELECT * FROM " + a + "." + sales + ".codes WHERE id = 4"));
    assertEquals(List.of("[60.0]"), rows("SELECT sum(amount) FROM " + b + "." + ops + ".totals"));

    // each bucket holds its own catalog's files, on its own MiniStack
    List<String> inA = keys(MINISTACK, bucketA);
    List<String> inB = keys(second, bucketB);
    assertTrue(inA.stream().anyMatch(k -> k.startsWith("warehouse/" + sales + ".db/orders-") && k.contains("_delta_log/")), inA.toString());
    assertTrue(inA.stream().anyMatch(k -> k.startsWith("warehouse/" + sales + ".db/daily-") && k.contains("/day=d1/")), inA.toString());
    assertTrue(inB.stream().anyMatch(k -> k.startsWith("warehouse/" + ops + ".db/shipments-") && k.contains("_delta_log/")), inB.toString());
    assertTrue(inB.stream().anyMatch(k -> k.startsWith("warehouse/" + ops + ".db/events-") && k.contains("/day=d2/")), inB.toString());

    // B's files were reached with B's role: S3A asked gluecat's provider, which assumed it
    List<GlueCall> s3aRoleCalls = GlueCallRecorder.calls(c -> c.isSts() && c.userAgent() != null
        && c.userAgent().contains("catalog/" + b + " s3a"));
    assertFalse(s3aRoleCalls.isEmpty(), "S3A used catalog " + b + "'s role");
    assertEquals(ROLE_B, s3aRoleCalls.get(0).assumeRole().roleArn());
    SECRETS.add(roleSessionToken(b));

    // nothing of the settings reached Glue, the Delta logs or the logs
    for (String table : List.of("orders", "daily", "codes")) {
      assertEntryClean(sales, table);
    }
    for (String table : List.of("shipments", "events", "totals")) {
      assertEntryClean(ops, table);
    }
    // Spark shows a table's properties with secrets redacted (Delta lists storage properties as option.*)
    for (String table : List.of(a + "." + sales + ".orders", a + "." + sales + ".daily")) {
      for (String shown : List.of("SHOW TBLPROPERTIES ", "DESCRIBE TABLE EXTENDED ")) {
        assertTrue(rows(shown + table).stream().noneMatch(r -> SECRETS.stream().anyMatch(r::contains)), shown + table);
      }
    }
    assertLogClean(MINISTACK, bucketA);
    assertLogClean(second, bucketB);
    assertTrue(logged.stream().noneMatch(line -> SECRETS.stream().anyMatch(line::contains)), "a secret was logged");
    spark().sql("DROP NAMESPACE " + a + "." + sales + " CASCADE");
    spark().sql("DROP NAMESPACE " + b + "." + ops + " CASCADE");
  }

  /**
   * Without its catalog's settings a bucket cannot be reached (the session's endpoint is closed, and it
   * has no keys): the same files, registered in a catalog without them, fail to load; registered in a
   * catalog with them, they load. Each bucket's first access is that load.
   */
  @Test
  void withoutTheCatalogsSettingsTheFilesAreNotReachable() {
    Path parquet = Paths.get(newDirectory("upload").substring("file:".length()));
    spark().range(3).selectExpr("id").coalesce(1).write().mode("overwrite").parquet("file:" + parquet);
    Path delta = Paths.get(newDirectory("upload").substring("file:".length()));
    spark().range(3).selectExpr("id").coalesce(1).write().format("delta").mode("overwrite").save("file:" + delta);
    String bare = newCatalog(ministackOptions());
    String db = newDatabase(null);
    StructType schema = new StructType().add("id", DataTypes.LongType);

    for (String provider : List.of("parquet", "delta")) {
      String withheldBucket = bucket(second);
      String givenBucket = bucket(second);
      Path files = provider.equals("delta") ? delta : parquet;
      upload(second, files, withheldBucket, "t");
      upload(second, files, givenBucket, "t");
      String withRole = catalogWithRole(givenBucket);
      putEntry(db, provider + "_withheld", provider, schema, List.of(), "s3a://" + withheldBucket + "/t", Map.of());
      putEntry(db, provider + "_given", provider, schema, List.of(), "s3a://" + givenBucket + "/t", Map.of());

      Throwable e = assertThrows(Throwable.class, () -> rows("SELECT * FROM " + bare + "." + db + "." + provider
          + "_withheld"), provider);
      String messages = TableLoadIT.messages(e);
      assertTrue(messages.contains(withheldBucket), messages);
      assertFalse(messages.contains(SECRET_A) || messages.contains(MiniStack.SECRET_ACCESS_KEY), messages);
      assertEquals(List.of("[0]", "[1]", "[2]"),
          rows("SELECT * FROM " + withRole + "." + db + "." + provider + "_given ORDER BY id"), provider);
    }

    String deltaBucket = bucket(second);
    Throwable e = assertThrows(Throwable.class, () -> spark().sql("CREATE TABLE " + bare + "." + db
        + ".lost (id BIGINT) USING delta LOCATION 's3a://" + deltaBucket + "/t'"));
    assertFalse(TableLoadIT.messages(e).contains(SECRET_A));
    assertFalse(spark().catalog().tableExists(bare + "." + db + ".lost"), "a failed create leaves no entry");
  }

  /** While Delta stores write options in its log, gluecat adds none, and says so once. */
  @Test
  void underDeltasLegacyOptionStorageNoSettingIsAddedToWrites() {
    capture = LogCapture.start(logged);
    String bucketA = bucket(MINISTACK);
    String a = catalogWithKeys(bucketA);
    String legacy = unique("legacy");
    spark().sql("CREATE NAMESPACE " + a + "." + legacy);
    spark().conf().set("spark.databricks.delta.legacy.storeOptionsAsProperties", "true");
    // the stage opens the location with the catalog's settings first, so the write reaches the bucket
    spark().sql("CREATE TABLE " + a + "." + legacy + ".t1 USING delta AS SELECT 1L AS id");
    spark().sql("CREATE TABLE " + a + "." + legacy + ".t2 USING delta AS SELECT 2L AS id");
    assertEquals(List.of("[1]"), rows("SELECT * FROM " + a + "." + legacy + ".t1"));
    assertLogClean(MINISTACK, bucketA);
    assertEquals(1, logged.stream().filter(l -> l.contains("storeOptionsAsProperties") && l.contains(a)).count(),
        logged.toString());
    spark().sql("DROP NAMESPACE " + a + "." + legacy + " CASCADE");
  }

}
