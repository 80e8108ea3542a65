package io.gluecat.it;

import io.gluecat.testkit.MiniStack;
import io.gluecat.testkit.SdkJson;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.apache.spark.sql.SparkSession;
import software.amazon.awssdk.services.glue.GlueClient;

/**
 * The demo behind bin/demo: a local MiniStack as Glue, a local warehouse folder, one gluecat catalog.
 * It creates a database and a Delta table through gluecat, writes and queries it by name, and prints the
 * table's Glue entry.
 */
public final class Demo {
  public static void main(String[] args) throws Exception {
    Path warehouse = Paths.get(args.length > 0 ? args[0] : "target/demo-warehouse").toAbsolutePath();
    Files.createDirectories(warehouse);
    try (MiniStack ministack = MiniStack.start()) {
      SparkSession spark = SparkSession.builder().master("local[2]").appName("gluecat-demo")
          .config("spark.ui.enabled", "false")
          .config("spark.sql.shuffle.partitions", "2")
          .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
          .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
          .config("spark.sql.catalog.glue", "io.gluecat.GlueCatalog")
          .config("spark.sql.catalog.glue.region", MiniStack.REGION.id())
          .config("spark.sql.catalog.glue.glue.endpoint", ministack.endpoint().toString())
          .config("spark.sql.catalog.glue.warehouse", "file:" + warehouse)
          .getOrCreate();
      spark.sparkContext().setLogLevel("WARN");

      say("MiniStack (Glue) at " + ministack.endpoint() + ", warehouse " + warehouse);
      say("CREATE NAMESPACE glue.demo");
      spark.sql("CREATE NAMESPACE IF NOT EXISTS glue.demo COMMENT 'gluecat demo'");

      say("CREATE TABLE glue.demo.orders USING delta AS SELECT ... (Delta commits by path, then gluecat writes Glue)");
      spark.sql("DROP TABLE IF EXISTS glue.demo.orders");
      spark.sql("CREATE TABLE glue.demo.orders USING delta COMMENT 'Demo orders' AS "
          + "SELECT id, concat('item-', id) AS item, CAST(id * 9.5 AS DECIMAL(10,2)) AS amount FROM range(5)");
      say("INSERT INTO glue.demo.orders VALUES (5, 'item-5', 47.50)");
      spark.sql("INSERT INTO glue.demo.orders VALUES (5, 'item-5', 47.50)");

      say("SHOW TABLES IN glue.demo");
      spark.sql("SHOW TABLES IN glue.demo").show(false);
      say("SELECT * FROM glue.demo.orders");
      spark.sql("SELECT * FROM glue.demo.orders ORDER BY id").show(false);

      say("The Glue entry of glue.demo.orders (GetTable):");
      try (GlueClient glue = ministack.glue()) {
        System.out.println(SdkJson.toJson(glue.getTable(r -> r.databaseName("demo").name("orders")).table()));
      }
      spark.stop();
    }
  }

  private static void say(String line) {
    System.out.println("\n== " + line);
  }
}
