package io.gluecat.it;

import io.gluecat.it.spark.LogCapture;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.MiniStack;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The trust boundary between a catalog and its entries: how storage is reached is decided by the catalog's
 * settings only. Two MiniStack processes serve buckets of the same name with different files, so a read
 * that went to the wrong endpoint returns the wrong rows instead of failing. The session's own S3A
 * endpoint is a closed port, and every bucket name is new (Hadoop caches one FileSystem per bucket).
 */
class StorageTrustIT extends MiniStackSparkTest {
  private static final String CLOSED_ENDPOINT = "http://127.0.0.1:9";
  private static MiniStack other;
  private final List<String> logged = new ArrayList<>();
  private LogCapture capture;

  @BeforeAll
  static void startOtherStorage() {
    other = MiniStack.start();
    org.apache.hadoop.conf.Configuration conf = spark().sparkContext().hadoopConfiguration();
    conf.set("fs.s3a.endpoint", CLOSED_ENDPOINT);
    conf.set("fs.s3a.attempts.maximum", "1");
    conf.set("fs.s3a.retry.limit", "1");
  }

  @AfterAll
  static void stopOtherStorage() {
    org.apache.hadoop.conf.Configuration conf = spark().sparkContext().hadoopConfiguration();
    for (String key : List.of("fs.s3a.endpoint", "fs.s3a.attempts.maximum", "fs.s3a.retry.limit")) {
      conf.unset(key);
    }
    other.close();
  }

  @AfterEach
  void stopCapture() {
    if (capture != null) {
      capture.close();
    }
  }

  /** The same bucket name on both MiniStacks. */
  private static String sharedBucketName() {
    String name = unique("trust").replace('_', '-');
    MINISTACK.createBucket(name);
    other.createBucket(name);
    return name;
  }

  /** A catalog that reaches {@code bucket} on the shared MiniStack, by per-bucket settings only. */
  private static String catalogFor(MiniStack storage, String bucket, Map<String, String> extra) {
    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    storage.s3aSettings(bucket).forEach((k, v) -> options.put("hadoop." + k, v));
    options.putAll(extra);
    return newCatalog(options);
  }

  /** A local parquet directory of the given ids. */
  private static Path parquetOf(long... ids) {
    Path dir = Paths.get(newDirectory("files").substring("file:".length()));
    StringBuilder values = new StringBuilder();
    for (long id : ids) {
      values.append(values.length() == 0 ? "" : ", ").append("(").append(id).append("L)");
    }
    spark().sql("SELECT col1 AS id FROM VALUES " + values).coalesce(1).write().mode("overwrite")
        .parquet("file:" + dir);
    return dir;
  }

  private static final StructType ID = new StructType().add("id", DataTypes.LongType);

  @Test
  void anEntryCannotRedirectItsOwnOrAnotherTablesStorage() {
    capture = LogCapture.start(logged);
    String bucket = sharedBucketName();
    upload(MINISTACK, parquetOf(1, 2), bucket, "good");
    upload(MINISTACK, parquetOf(7), bucket, "evil");
    upload(other, parquetOf(666), bucket, "good");
    upload(other, parquetOf(666), bucket, "evil");
    String catalog = catalogFor(MINISTACK, bucket, Map.of());
    String db = newDatabase(null);
    String elsewhere = other.endpoint().toString();
    // someone with UpdateTable on one entry points it (and, through Hadoop's cache, its bucket) elsewhere
    putEntry(db, "evil", "parquet", ID, List.of(), "s3a://" + bucket + "/evil", Map.of(
        "fs.s3a.endpoint", elsewhere, "fs.s3a.bucket." + bucket + ".endpoint", elsewhere,
        "fs.s3a.bucket." + bucket + ".aws.credentials.provider", "com.example.NotAProvider"));
    putEntry(db, "good", "parquet", ID, List.of(), "s3a://" + bucket + "/good", Map.of());

    assertEquals(List.of("[7]"), rows("SELECT * FROM " + catalog + "." + db + ".evil"),
        "the entry's own settings are ignored: it reads at the catalog's endpoint");
    assertEquals(List.of("[1]", "[2]"), rows("SELECT * FROM " + catalog + "." + db + ".good ORDER BY id"),
        "a table read after it still reads at the catalog's endpoint");
    String warning = logged.stream().filter(l -> l.contains(db + ".evil") && l.contains("ignored")).findFirst()
        .orElseThrow(() -> new AssertionError("no warning names the table: " + logged));
    assertTrue(warning.contains("fs.s3a.endpoint") && !warning.contains(elsewhere), warning);
  }

  @Test
  void aBucketOpenedWithOtherSettingsIsNotBorrowed() {
    String bucket = sharedBucketName();
    upload(MINISTACK, parquetOf(1), bucket, "t");
    upload(other, parquetOf(666), bucket, "t");
    String first = catalogFor(MINISTACK, bucket, Map.of());
    String second = catalogFor(other, bucket, Map.of());
    String db = newDatabase(null);
    putEntry(db, "t", "parquet", ID, List.of(), "s3a://" + bucket + "/t", Map.of());
    assertEquals(List.of("[1]"), rows("SELECT * FROM " + first + "." + db + ".t"));

    Throwable e = assertThrows(Throwable.class, () -> rows("SELECT * FROM " + second + "." + db + ".t"));
    String messages = TableLoadIT.messages(e);
    assertTrue(messages.contains(second + "." + db + ".t") && messages.contains("fs.s3a.bucket." + bucket + ".endpoint")
        && messages.contains("one way"), messages);
    assertFalse(messages.contains(MiniStack.SECRET_ACCESS_KEY), messages);
  }

  @Test
  void aCatalogWithoutAFileSystemForTheSchemeDoesNotUseAnotherCatalogs() {
    String bucket = sharedBucketName();
    upload(MINISTACK, parquetOf(3), bucket, "t");
    Map<String, String> s3 = Map.of("hadoop.fs.s3.impl", "org.apache.hadoop.fs.s3a.S3AFileSystem");
    String withS3 = catalogFor(MINISTACK, bucket, s3);
    String without = newCatalog(ministackOptions());
    String db = newDatabase(null);
    putEntry(db, "t", "parquet", ID, List.of(), "s3://" + bucket + "/t", Map.of());
    assertEquals(List.of("[3]"), rows("SELECT * FROM " + withS3 + "." + db + ".t"));

    Throwable e = assertThrows(Throwable.class, () -> rows("SELECT * FROM " + without + "." + db + ".t"));
    String messages = TableLoadIT.messages(e);
    assertTrue(messages.contains(without + "." + db + ".t") && messages.contains("scheme 's3'"), messages);
  }

  @Test
  void trinosLocalLocationsNeedTheLocationMapAndThenLoad() {
    Path trinoRoot = Paths.get(newDirectory("trino-local").substring("file:".length()));
    Path table = trinoRoot.resolve("db/t-1");
    spark().range(2).write().format("delta").save("file:" + table);
    String db = newDatabase(null);
    putEntry(db, "t", "delta", new StructType(), List.of(), "local:///db/t-1", Map.of());

    String plain = newCatalog(ministackOptions());
    Throwable e = assertThrows(Throwable.class, () -> rows("SELECT * FROM " + plain + "." + db + ".t"));
    String messages = TableLoadIT.messages(e);
    assertTrue(messages.contains(plain + "." + db + ".t") && messages.contains("location.map"), messages);

    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    options.put("location.map", "local:///=file:" + trinoRoot + "/");
    String mapped = newCatalog(options);
    assertEquals(List.of("[0]", "[1]"), rows("SELECT * FROM " + mapped + "." + db + ".t ORDER BY id"));
    spark().sql("ALTER TABLE " + mapped + "." + db + ".t SET TBLPROPERTIES ('owner_team' = 'x')");
    assertEquals("local:///db/t-1", glueTable(db, "t").storageDescriptor().location(),
        "gluecat writes the location back as it was stored");
    spark().sql("CREATE TABLE " + mapped + "." + db + ".copy USING delta LOCATION 'file:" + trinoRoot + "/db/copy' "
        + "AS SELECT * FROM " + mapped + "." + db + ".t");
    assertEquals("local:///db/copy", glueTable(db, "copy").storageDescriptor().location());
    assertEquals(List.of("[2]"), rows("SELECT count(*) FROM " + mapped + "." + db + ".copy"));
  }

  @Test
  void providersBeyondDeltaAndFilesAreServedOnlyWhenAllowed() {
    String db = newDatabase(null);
    putEntry(db, "remote", "jdbc", ID, List.of(), newDirectory("jdbc"),
        Map.of("url", "jdbc:derby:memory:gluecat_probe;create=true", "dbtable", "t"));
    putEntry(db, "hivetable", "hive", ID, List.of(), newDirectory("hive"), Map.of());
    String catalog = newCatalog(ministackOptions());

    Throwable e = assertThrows(Throwable.class, () -> rows("SELECT * FROM " + catalog + "." + db + ".remote"));
    String messages = TableLoadIT.messages(e);
    assertTrue(messages.contains(catalog + "." + db + ".remote") && messages.contains("'jdbc'")
        && messages.contains("providers.extra"), messages);
    e = assertThrows(Throwable.class, () -> rows("SELECT * FROM " + catalog + "." + db + ".hivetable"));
    messages = TableLoadIT.messages(e);
    assertTrue(messages.contains(catalog + "." + db + ".hivetable") && messages.contains("Hive SerDe")
        && !messages.contains("INTERNAL_ERROR"), messages);

    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    options.put("providers.extra", "jdbc");
    String widened = newCatalog(options);
    e = assertThrows(Throwable.class, () -> rows("SELECT * FROM " + widened + "." + db + ".remote"));
    assertFalse(TableLoadIT.messages(e).contains("providers.extra"), "allowed: Spark's jdbc source ran");

    // USING iceberg is no other provider: Iceberg's own catalog creates it (IcebergTablesIT)
  }

  @Test
  void aCreateCannotStoreHadoopSettingsInItsEntry() {
    String catalog = newCatalog(ministackOptions());
    String db = newDatabase(null);
    for (String provider : List.of("parquet", "delta")) {
      String table = catalog + "." + db + "." + provider + "_opts";
      Throwable e = assertThrows(IllegalArgumentException.class, () -> spark().sql("CREATE TABLE " + table
          + " (id BIGINT) USING " + provider + " OPTIONS ('fs.s3a.endpoint' = 'http://elsewhere', 'header' = 'true')"));
      assertTrue(e.getMessage().contains(db + "." + provider + "_opts") && e.getMessage().contains("fs.s3a.endpoint")
          && !e.getMessage().contains("header") && e.getMessage().contains("hadoop.<key>"), e.getMessage());
      assertFalse(spark().catalog().tableExists(table), "nothing was written");
    }
  }
}
