package io.gluecat.it;

import static io.gluecat.it.HiveFormatTablesIT.PARQUET_INPUT;
import static io.gluecat.it.HiveFormatTablesIT.PARQUET_OUTPUT;
import static io.gluecat.it.HiveFormatTablesIT.PARQUET_SERDE;
import static io.gluecat.it.HiveFormatTablesIT.columns;
import static io.gluecat.it.TableLoadIT.messages;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.DeltaCommittedButGlueFailedException;
import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.IamPolicies;
import io.gluecat.testkit.Moto;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;

/**
 * gluecat under IAM, on moto with IAM enforced: the base credentials may only assume roles, and each catalog
 * assumes a role whose only policy is one of docs/iam/ (moto matches actions; Glue resources are widened to
 * {@code *}, see IamPolicies). In each catalog mode the writer role runs its journey (namespaces, a partitioned
 * file table and its Glue partitions, an insert into a Hive-format entry, a Delta CTAS, a view, ALTER, DROP); the
 * reader role reads each kind of table and lists and describes them, and each of its writes fails with gluecat's
 * access-denied message naming the catalog, the table and the refused action, leaving Glue and the files as they
 * were. Each case is a cell of the compatibility report's "moto with IAM" table. The methods run in order: the
 * reader's cases read what the writer's journey made, and the writer drops it last.
 */
@ExtendWith(CompatResults.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IamPolicyIT extends MiniStackSparkTest {
  static final String BACKEND = "moto-iam";
  private static Moto moto;
  private static GlueClient admin;
  private static String writerRole;
  private static String readerRole;
  private static String savedKey;
  private static String savedSecret;
  private static Journey named;
  private static Journey session;

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
    named = new Journey(new Side(spark(), newCatalog(motoOptions(writerRole))),
        new Side(spark(), newCatalog(motoOptions(readerRole))), unique("iamdb"), newDirectory("iam"));
    Journey s = new Journey(new Side(newSessionModeSession(motoOptions(writerRole)), "spark_catalog"),
        new Side(newSessionModeSession(motoOptions(readerRole)), "spark_catalog"), unique("iamsession"),
        newDirectory("iamsession"));
    session = s;
    SparkSession.setActiveSession(spark());
  }

  @AfterEach
  void sharedSessionActive() {
    SparkSession.setActiveSession(spark());
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

  static Map<String, String> motoOptions(String role) {
    return Map.of("region", Moto.REGION, "glue.endpoint", moto.endpoint().toString(),
        "sts.endpoint", moto.endpoint().toString(), "role.arn", role);
  }

  /** A catalog under one role: the session it is in and how statements name it. */
  record Side(SparkSession session, String catalog, String prefix) {
    Side(SparkSession session, String catalog) {
      this(session, catalog, "spark_catalog".equals(catalog) ? "" : catalog + ".");
    }

    List<String> sql(String statement) {
      SparkSession.setActiveSession(session);
      return session.sql(statement).collectAsList().stream().map(Row::toString).collect(Collectors.toList());
    }
  }

  /** One catalog mode's writer and reader, and the database and location the writer's journey uses. */
  record Journey(Side writer, Side reader, String db, String location) {
    String w(String table) {
      return writer.prefix() + db + "." + table;
    }

    String r(String table) {
      return reader.prefix() + db + "." + table;
    }
  }

  // ---------------------------------------------------------------- the writer's journey

  private static final String JOURNEY = "writer role: CREATE/ALTER NAMESPACE, a partitioned parquet table and its"
      + " Glue partitions, INSERT into a Hive-format entry, Delta CTAS, a view, ALTER TABLE, DROP";

  @Test
  @Order(1)
  @CompatCase(id = "iam-writer-journey", writer = "gluecat", reader = "gluecat", title = JOURNEY,
      backend = BACKEND)
  void namedWriterJourney() {
    writerJourney(named);
  }

  @Test
  @Order(1)
  @CompatCase(id = "iam-writer-journey", writer = "gluecat", reader = "gluecat", title = JOURNEY,
      backend = BACKEND)
  void sessionWriterJourney() {
    writerJourney(session);
  }

  private static void writerJourney(Journey j) {
    Side w = j.writer();
    String db = j.db();
    w.sql("CREATE NAMESPACE " + w.prefix() + db + " LOCATION '" + j.location() + "'");
    w.sql("ALTER NAMESPACE " + w.prefix() + db + " SET DBPROPERTIES ('team' = 'sales')");
    w.sql("CREATE TABLE " + j.w("events") + " (id INT, day STRING) USING parquet PARTITIONED BY (day)");
    w.sql("INSERT INTO " + j.w("events") + " VALUES (1, '2026-12-01')");
    w.sql("INSERT INTO " + j.w("events") + " VALUES (2, '2026-12-02')");
    assertEquals(2, admin.getPartitions(r -> r.databaseName(db).tableName("events")).partitions().size());
    w.sql("ALTER TABLE " + j.w("events") + " SET TBLPROPERTIES ('team' = 'sales')");
    // Athena's shape of a partitioned parquet table, created through the Glue API; the writer inserts into it
    admin.createTable(r -> r.databaseName(db).tableInput(t -> t.name("hive_events").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("EXTERNAL", "TRUE")).partitionKeys(columns(List.of("day string")))
        .storageDescriptor(sd -> sd.location(j.location() + "/hive_events").inputFormat(PARQUET_INPUT)
            .outputFormat(PARQUET_OUTPUT).columns(columns(List.of("id int")))
            .serdeInfo(s -> s.serializationLibrary(PARQUET_SERDE).parameters(Map.of("serialization.format", "1"))))));
    w.sql("INSERT INTO " + j.w("hive_events") + " VALUES (5, '2026-12-05')");
    assertEquals(1, admin.getPartitions(r -> r.databaseName(db).tableName("hive_events")).partitions().size());
    w.sql("CREATE TABLE " + j.w("totals") + " USING delta AS SELECT day, count(*) AS n FROM " + j.w("events")
        + " GROUP BY day");
    w.sql("CREATE VIEW " + j.w("recent") + " AS SELECT id FROM " + j.w("events") + " WHERE day >= '2026-12-02'");
    w.sql("CREATE TABLE " + j.w("scratch") + " (id INT) USING parquet");
    w.sql("DROP TABLE " + j.w("scratch"));
    assertThrows(EntityNotFoundException.class, () -> admin.getTable(r -> r.databaseName(db).name("scratch")));
    assertEquals(Set.of("events", "hive_events", "totals", "recent"), admin.getTables(r -> r.databaseName(db))
        .tableList().stream().map(t -> t.name()).collect(Collectors.toSet()));
  }

  // ---------------------------------------------------------------- the reader's reads

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-delta", writer = "gluecat", reader = "gluecat", title = "reader role: SELECT from a "
      + "Delta table", backend = BACKEND)
  void namedReaderReadsDelta() {
    readsDelta(named);
  }

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-delta", writer = "gluecat", reader = "gluecat", title = "reader role: SELECT from a "
      + "Delta table", backend = BACKEND)
  void sessionReaderReadsDelta() {
    readsDelta(session);
  }

  private static void readsDelta(Journey j) {
    assertEquals(List.of("[2026-12-01,1]", "[2026-12-02,1]"),
        j.reader().sql("SELECT day, n FROM " + j.r("totals") + " ORDER BY day"));
  }

  private static final String FILE_TITLE = "reader role: SELECT from a partitioned parquet table, all of it and "
      + "pruned by a partition filter (Glue partitions)";

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-file-partitioned", writer = "gluecat", reader = "gluecat", title = FILE_TITLE,
      backend = BACKEND)
  void namedReaderReadsFileTable() {
    readsFileTable(named);
  }

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-file-partitioned", writer = "gluecat", reader = "gluecat", title = FILE_TITLE,
      backend = BACKEND)
  void sessionReaderReadsFileTable() {
    readsFileTable(session);
  }

  private static void readsFileTable(Journey j) {
    assertEquals(List.of("[1,2026-12-01]", "[2,2026-12-02]"),
        j.reader().sql("SELECT id, day FROM " + j.r("events") + " ORDER BY id"));
    assertEquals(List.of("[2]"), j.reader().sql("SELECT id FROM " + j.r("events") + " WHERE day = '2026-12-02'"));
  }

  private static final String HIVE_TITLE = "reader role: SELECT from a Hive-format parquet entry (Athena's shape) "
      + "and its Glue partitions";

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-hive-format", writer = "gluecat", reader = "gluecat", title = HIVE_TITLE,
      backend = BACKEND)
  void namedReaderReadsHiveFormat() {
    readsHiveFormat(named);
  }

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-hive-format", writer = "gluecat", reader = "gluecat", title = HIVE_TITLE,
      backend = BACKEND)
  void sessionReaderReadsHiveFormat() {
    readsHiveFormat(session);
  }

  private static void readsHiveFormat(Journey j) {
    assertEquals(List.of("[5,2026-12-05]"), j.reader().sql("SELECT id, day FROM " + j.r("hive_events")));
  }

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-view", writer = "gluecat", reader = "gluecat", title = "reader role: SELECT from a "
      + "view", backend = BACKEND)
  void namedReaderReadsView() {
    readsView(named);
  }

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-view", writer = "gluecat", reader = "gluecat", title = "reader role: SELECT from a "
      + "view", backend = BACKEND)
  void sessionReaderReadsView() {
    readsView(session);
  }

  private static void readsView(Journey j) {
    assertEquals(List.of("[2]"), j.reader().sql("SELECT id FROM " + j.r("recent")));
  }

  private static final String SHOW_TITLE = "reader role: SHOW NAMESPACES, SHOW TABLES, DESCRIBE NAMESPACE, "
      + "DESCRIBE TABLE, SHOW TBLPROPERTIES";

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-show-describe", writer = "gluecat", reader = "gluecat", title = SHOW_TITLE,
      backend = BACKEND)
  void namedReaderShowsAndDescribes() {
    showsAndDescribes(named);
  }

  @Test
  @Order(2)
  @CompatCase(id = "iam-reader-show-describe", writer = "gluecat", reader = "gluecat", title = SHOW_TITLE,
      backend = BACKEND)
  void sessionReaderShowsAndDescribes() {
    showsAndDescribes(session);
  }

  private static void showsAndDescribes(Journey j) {
    Side r = j.reader();
    String in = r.prefix().isEmpty() ? "" : " IN " + r.catalog();
    assertTrue(r.sql("SHOW NAMESPACES" + in).contains("[" + j.db() + "]"), "SHOW NAMESPACES lists " + j.db());
    // SHOW TABLES lists tables, not views, in a named catalog (Spark's rule for catalogs with views of their own);
    // in session mode views too, as Spark's own catalog lists them
    assertEquals(r.prefix().isEmpty() ? Set.of("events", "hive_events", "totals", "recent")
        : Set.of("events", "hive_events", "totals"), r.session().sql("SHOW TABLES IN "
        + r.prefix() + j.db()).collectAsList().stream().map(row -> row.getString(1)).collect(Collectors.toSet()));
    assertTrue(String.join("\n", r.sql("DESCRIBE NAMESPACE EXTENDED " + r.prefix() + j.db())).contains("team"),
        "the namespace's properties");
    List<String> described = r.sql("DESCRIBE TABLE " + j.r("events"));
    assertTrue(described.contains("[id,int,null]") && described.contains("[day,string,null]"), "" + described);
    assertTrue(r.sql("SHOW TBLPROPERTIES " + j.r("events")).contains("[team,sales]"), "the table's properties");
  }

  @Test
  @Order(3)
  void eachCatalogCallsGlueWithItsOwnRolesKeys() {
    GlueCallRecorder.reset();
    named.reader().sql("SHOW TABLES IN " + named.r("").replaceAll("\\.$", ""));
    named.writer().sql("SHOW TABLES IN " + named.w("").replaceAll("\\.$", ""));
    Set<String> keys = GlueCallRecorder.callsOf("GetTables").stream()
        .filter(c -> named.db().equals(c.databaseName())).map(GlueCall::accessKeyId).collect(Collectors.toSet());
    assertEquals(2, keys.size(), "two catalogs, two roles, two keys: " + keys);
  }

  // ---------------------------------------------------------------- the reader's writes

  private static final String REFUSED_TITLE = "reader role's writes (CREATE TABLE and VIEW, ALTER, DROP, INSERT, "
      + "CREATE NAMESPACE, Delta CTAS): refused naming the action, nothing left behind";

  @Test
  @Order(4)
  @CompatCase(id = "iam-reader-refused-writes", writer = "gluecat", reader = "gluecat", title = REFUSED_TITLE,
      backend = BACKEND)
  void namedReaderWritesAreRefused() {
    refusedWrites(named);
  }

  @Test
  @Order(4)
  @CompatCase(id = "iam-reader-refused-writes", writer = "gluecat", reader = "gluecat", title = REFUSED_TITLE,
      backend = BACKEND)
  void sessionReaderWritesAreRefused() {
    refusedWrites(session);
  }

  private static void refusedWrites(Journey j) {
    Side r = j.reader();
    String db = j.db();
    String cat = r.catalog();
    String before = admin.getTable(t -> t.databaseName(db).name("events")).table().parameters().toString();
    refused(() -> r.sql("CREATE TABLE " + j.r("nope") + " (id INT) USING parquet"), cat,
        "glue:CreateTable", "'" + db + ".nope'");
    assertThrows(EntityNotFoundException.class, () -> admin.getTable(t -> t.databaseName(db).name("nope")));
    assertFalse(Files.exists(Paths.get(j.location().substring("file:".length()), "nope")), "no directory left");
    refused(() -> r.sql("CREATE VIEW " + j.r("nope_view") + " AS SELECT 1 AS id"), cat, "glue:CreateTable");
    assertThrows(EntityNotFoundException.class, () -> admin.getTable(t -> t.databaseName(db).name("nope_view")));
    refused(() -> r.sql("ALTER TABLE " + j.r("events") + " SET TBLPROPERTIES ('x' = 'y')"), cat,
        "glue:UpdateTable", "'" + db + ".events'");
    refused(() -> r.sql("DROP TABLE " + j.r("events")), cat, "glue:DeleteTable");
    assertEquals(before, admin.getTable(t -> t.databaseName(db).name("events")).table().parameters().toString());
    refused(() -> r.sql("INSERT INTO " + j.r("events") + " VALUES (3, '2026-12-03')"), cat,
        "glue:BatchCreatePartition");
    assertEquals(2, admin.getPartitions(t -> t.databaseName(db).tableName("events")).partitions().size());
    refused(() -> r.sql("CREATE NAMESPACE " + r.prefix() + unique("nodb")), cat, "glue:CreateDatabase");
    // Delta commits first, by the spec's order; the message says so and names the permission
    Throwable delta = assertThrows(Throwable.class, () -> r.sql("CREATE TABLE " + j.r("dx") + " USING delta "
        + "LOCATION '" + j.location() + "/dx' AS SELECT 1 AS id"));
    String all = messages(delta);
    assertTrue(all.contains(DeltaCommittedButGlueFailedException.class.getName()), all);
    assertTrue(all.contains("glue:CreateTable"), all);
    assertThrows(EntityNotFoundException.class, () -> admin.getTable(t -> t.databaseName(db).name("dx")));
  }

  // ---------------------------------------------------------------- Iceberg tables under the roles

  private static final String ICEBERG_TITLE = "Iceberg table under the roles (role.arn with sts.endpoint): the writer "
      + "creates, writes and drops it, the reader reads it and its INSERT is refused naming the action, the entry "
      + "unchanged; Iceberg's Glue calls go with the catalog's role";

  @Test
  @Order(4)
  @CompatCase(id = "iam-iceberg", writer = "gluecat", reader = "gluecat", title = ICEBERG_TITLE, backend = BACKEND)
  void namedIcebergTableUnderTheRoles() {
    icebergUnderTheRoles(named);
  }

  @Test
  @Order(4)
  @CompatCase(id = "iam-iceberg", writer = "gluecat", reader = "gluecat", title = ICEBERG_TITLE, backend = BACKEND)
  void sessionIcebergTableUnderTheRoles() {
    icebergUnderTheRoles(session);
  }

  private static void icebergUnderTheRoles(Journey j) {
    org.junit.jupiter.api.Assumptions.assumeTrue(io.gluecat.iceberg.IcebergTables.AVAILABLE,
        "Iceberg's Spark runtime is not on this line's classpath");
    String db = j.db();
    j.writer().sql("CREATE TABLE " + j.w("ice") + " (id BIGINT) USING iceberg");
    j.writer().sql("INSERT INTO " + j.w("ice") + " VALUES (1), (2)");
    assertEquals("ICEBERG", admin.getTable(t -> t.databaseName(db).name("ice")).table().parameters().get("table_type"));
    assertEquals(List.of("[1]", "[2]"), j.reader().sql("SELECT id FROM " + j.r("ice") + " ORDER BY id"));

    String before = admin.getTable(t -> t.databaseName(db).name("ice")).table().parameters().get("metadata_location");
    Throwable e = assertThrows(Throwable.class, () -> j.reader().sql("INSERT INTO " + j.r("ice") + " VALUES (3)"));
    String all = messages(e);
    assertTrue(all.contains("glue:UpdateTable") && all.contains(readerRole.substring(readerRole.lastIndexOf('/') + 1)),
        "Iceberg's commit is refused under the reader's role, naming the action: " + all);
    assertFalse(all.contains(System.getProperty("aws.secretAccessKey")), all);
    assertEquals(before,
        admin.getTable(t -> t.databaseName(db).name("ice")).table().parameters().get("metadata_location"));
    assertEquals(List.of("[1]", "[2]"), j.reader().sql("SELECT id FROM " + j.r("ice") + " ORDER BY id"));

    j.writer().sql("DROP TABLE " + j.w("ice"));
    assertThrows(EntityNotFoundException.class, () -> admin.getTable(t -> t.databaseName(db).name("ice")));
  }

  // ---------------------------------------------------------------- the writer cleans up

  private static final String DROP_TITLE = "writer role: DROP VIEW, DROP TABLE of Delta, file and Hive-format "
      + "tables, DROP NAMESPACE";

  @Test
  @Order(5)
  @CompatCase(id = "iam-writer-drops", writer = "gluecat", reader = "gluecat", title = DROP_TITLE, backend = BACKEND)
  void namedWriterDrops() {
    drops(named);
  }

  @Test
  @Order(5)
  @CompatCase(id = "iam-writer-drops", writer = "gluecat", reader = "gluecat", title = DROP_TITLE, backend = BACKEND)
  void sessionWriterDrops() {
    drops(session);
  }

  private static void drops(Journey j) {
    Side w = j.writer();
    w.sql("DROP VIEW " + j.w("recent"));
    w.sql("DROP TABLE " + j.w("totals"));
    w.sql("DROP TABLE " + j.w("hive_events"));
    w.sql("DROP TABLE " + j.w("events"));
    w.sql("DROP NAMESPACE " + w.prefix() + j.db());
    assertThrows(EntityNotFoundException.class, () -> admin.getDatabase(r -> r.name(j.db())));
  }

  // ---------------------------------------------------------------- every action of the writer policy is needed

  private static final String EVERY_ACTION_TITLE = "writer policy minus any one of its Glue actions: the journey's "
      + "first failing statement is refused naming that action";

  /**
   * For each Glue action of docs/iam/writer.json, a role holding the writer policy without it runs a journey that
   * needs every one of them (namespaces, a partitioned parquet table, its Glue partitions added, read, moved and
   * deleted, ALTER, listings, DROP), stopping at the first statement that fails: that statement must fail with gluecat's
   * access-denied message naming the left-out action. One Spark session, the roles made once, a catalog per role.
   * It runs on every line (about 11 s on spark-4.2 with the machine loaded, most of it the 14 journeys): which
   * calls a statement makes goes through each line's compat module.
   */
  @Test
  @Order(10)
  @CompatCase(id = "iam-writer-policy-every-action-needed", writer = "gluecat", reader = "gluecat",
      title = EVERY_ACTION_TITLE, backend = BACKEND)
  void namedWriterPolicyNeedsEveryAction() throws Exception {
    List<String> actions = new java.util.ArrayList<>();
    new com.fasterxml.jackson.databind.ObjectMapper().readTree(Files.readString(
        io.gluecat.testkit.Repository.root().resolve("docs/iam/writer.json"))).path("Statement")
        .forEach(st -> st.path("Action").forEach(a -> {
          if (a.asText().startsWith("glue:")) {
            actions.add(a.asText().substring("glue:".length()));
          }
        }));
    assertEquals(14, actions.size(), "writer.json's Glue actions: " + actions);
    Map<String, String> outcome = new java.util.TreeMap<>();
    for (String action : actions) {
      String role = moto.role("writer-without-" + action, "spark-base",
          IamPolicies.forMoto("writer.json", "*", "lake", "w", action));
      String catalog = newCatalog(motoOptions(role));
      outcome.put(action, firstRefusal(catalog, role, action));
    }
    Map<String, String> expected = new java.util.TreeMap<>();
    actions.forEach(a -> expected.put(a, "refused naming glue:" + a));
    assertEquals(expected, outcome);
  }

  /** Runs the journey in {@code catalog} up to its first failure: what that failure says about {@code action}. */
  private static String firstRefusal(String catalog, String role, String action) {
    String db = unique("minus");
    String t = catalog + "." + db + ".events";
    List<String> journey = List.of(
        "CREATE NAMESPACE " + catalog + "." + db + " LOCATION '" + newDirectory("minus") + "'",
        "ALTER NAMESPACE " + catalog + "." + db + " SET DBPROPERTIES ('team' = 'sales')",
        "SHOW NAMESPACES IN " + catalog,
        "CREATE TABLE " + t + " (id INT, day STRING) USING parquet PARTITIONED BY (day)",
        "INSERT INTO " + t + " VALUES (1, '2026-12-01'), (2, '2026-12-02')",
        "SELECT id FROM " + t + " WHERE day = '2026-12-02'",
        "INSERT OVERWRITE " + t + " VALUES (3, '2026-12-03')",
        "ALTER TABLE " + t + " PARTITION (day = '2026-12-03') SET LOCATION '" + newDirectory("moved") + "'",
        "ALTER TABLE " + t + " SET TBLPROPERTIES ('team' = 'sales')",
        "SHOW TABLES IN " + catalog + "." + db,
        "DROP TABLE " + t,
        "DROP NAMESPACE " + catalog + "." + db);
    for (String statement : journey) {
      try {
        spark().sql(statement).collectAsList();
      } catch (RuntimeException e) {
        String all = messages(e);
        if (!all.contains("Access denied: catalog '" + catalog + "'") || !all.contains(role)) {
          return "failed otherwise at `" + statement + "`: " + all.split("\n", 2)[0];
        }
        return all.contains("glue:" + action) ? "refused naming glue:" + action
            : "refused at `" + statement + "` without naming glue:" + action + ": " + all.split("\n", 2)[0];
      }
    }
    return "the whole journey ran";
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
