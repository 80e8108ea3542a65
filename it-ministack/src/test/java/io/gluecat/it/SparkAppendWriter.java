package io.gluecat.it;

import java.io.FileInputStream;
import java.io.InputStream;
import java.util.Properties;
import org.apache.spark.sql.SparkSession;

/**
 * One Spark application of {@link MultiWriterIT}, in a JVM of its own: a local SparkSession with Delta that
 * appends one row to a Delta table by path and prints {@code RESULT committed} or {@code RESULT failed ...}.
 * Arguments: the table's path, the writer's number, a properties file of Hadoop settings, and the log store
 * for {@code s3a://} ({@code default} for Delta's own).
 */
public final class SparkAppendWriter {
  private SparkAppendWriter() {}

  public static void main(String[] args) throws Exception {
    Properties settings = new Properties();
    try (InputStream in = new FileInputStream(args[2])) {
      settings.load(in);
    }
    SparkSession.Builder builder = SparkSession.builder()
        .master("local[1]")
        .appName("gluecat-multi-writer-" + args[1])
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .config("spark.databricks.delta.snapshotPartitions", "1")
        // one INSERT: interpreted expressions cost less than generating their code (MiniStackSparkTest)
        .config("spark.sql.codegen.wholeStage", "false")
        .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog");
    settings.forEach((k, v) -> builder.config("spark.hadoop." + k, (String) v));
    if (!args[3].equals("default")) {
      builder.config("spark.delta.logStore.s3a.impl", args[3]);
    }
    String result;
    try (SparkSession spark = builder.getOrCreate()) {
      spark.sparkContext().setLogLevel("WARN");
      spark.sql("INSERT INTO delta.`" + args[0] + "` VALUES (" + args[1] + ")").collectAsList();
      result = "committed";
    } catch (Exception e) {
      e.printStackTrace();
      result = "failed " + e;
    }
    System.out.println("RESULT " + result);
    System.out.flush();
    System.exit(0);
  }
}
