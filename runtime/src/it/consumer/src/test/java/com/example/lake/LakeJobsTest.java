package com.example.lake;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.testkit.MiniStack;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * What a user does with gluecat: a session with a Glue catalog (here on MiniStack), a Delta table and a
 * parquet table created, written and read through it.
 */
class LakeJobsTest {
  private static MiniStack ministack;
  private static SparkSession spark;
  private static Path warehouse;

  @BeforeAll
  static void startSession() throws Exception {
    ministack = MiniStack.shared();
    warehouse = Files.createTempDirectory(Paths.get("target").toAbsolutePath(), "warehouse");
    spark = SparkSession.builder()
        .master("local[1]")
        .appName("lake-jobs")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.databricks.delta.snapshotPartitions", "1")
        .config("spark.sql.extensions", "io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.sql.catalog.lake", "io.gluecat.GlueCatalog")
        .config("spark.sql.catalog.lake.region", "us-east-1")
        .config("spark.sql.catalog.lake.glue.endpoint", ministack.endpoint().toString())
        .config("spark.sql.catalog.lake.warehouse", warehouse.toUri().toString())
        .getOrCreate();
  }

  @AfterAll
  static void stopSession() {
    if (spark != null) {
      spark.stop();
    }
  }

  @Test
  void theClasspathIsTheOneThisBuildAskedFor() throws Exception {
    // gluecat comes from the artifact under test...
    String jar = Paths.get(io.gluecat.GlueCatalog.class.getProtectionDomain().getCodeSource().getLocation().toURI())
        .getFileName().toString();
    assertTrue(jar.startsWith(System.getProperty("expected.gluecat.artifact") + "-"), jar);
    // ...and the unrelocated AWS SDK is the version the build put there (the user's, in the old-sdk build)
    assertEquals(System.getProperty("expected.awssdk.version"), software.amazon.awssdk.core.util.VersionInfo.SDK_VERSION);
  }

  @Test
  void deltaTableThroughTheCatalog() {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.sales");
    spark.sql("CREATE TABLE lake.sales.orders (id BIGINT, region STRING) USING delta PARTITIONED BY (region)");
    spark.sql("INSERT INTO lake.sales.orders VALUES (1, 'eu'), (2, 'us')");
    spark.sql("INSERT INTO lake.sales.orders VALUES (3, 'eu')");
    assertEquals(List.of("[1,eu]", "[2,us]", "[3,eu]"), rows("SELECT * FROM lake.sales.orders ORDER BY id"));
    assertEquals(List.of("[eu,2]", "[us,1]"),
        rows("SELECT region, count(*) FROM lake.sales.orders GROUP BY region ORDER BY region"));

    Table entry = glueTable("sales", "orders");
    assertEquals("DELTA", entry.parameters().get("table_type"));
    assertTrue(Files.isDirectory(warehouse.resolve("sales.db")), "no database folder under the warehouse");
    assertTrue(entry.storageDescriptor().location().contains("sales.db"), entry.storageDescriptor().location());
  }

  @Test
  void parquetTableThroughTheCatalog() {
    spark.sql("CREATE NAMESPACE IF NOT EXISTS lake.sales");
    spark.sql("CREATE TABLE lake.sales.returns (id BIGINT, reason STRING) USING parquet");
    spark.sql("INSERT INTO lake.sales.returns VALUES (7, 'damaged'), (8, 'late')");
    spark.range(9, 11).selectExpr("id", "'other' AS reason").write().insertInto("lake.sales.returns");
    assertEquals(List.of("[7,damaged]", "[8,late]", "[9,other]", "[10,other]"),
        rows("SELECT * FROM lake.sales.returns ORDER BY id"));

    Table entry = glueTable("sales", "returns");
    assertEquals("parquet", entry.parameters().get("spark.sql.sources.provider"));
  }

  private static Table glueTable(String database, String table) {
    try (GlueClient glue = ministack.glue()) {
      return glue.getTable(b -> b.databaseName(database).name(table)).table();
    }
  }

  private static List<String> rows(String query) {
    return spark.sql(query).collectAsList().stream().map(Row::toString).collect(Collectors.toList());
  }
}
