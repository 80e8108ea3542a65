package io.gluecat.compat;

/** The SQL settings a new view captures, as Spark's own CREATE VIEW: Spark 4.0's way (the other lines' is shared). */
final class ViewSqlConfigs {
  private ViewSqlConfigs() {}

  /**
   * Spark 4.0 keeps the capture private (as 3.5): the view properties Spark would write carry it, each key under
   * the view.sqlConfig. prefix.
   */
  static java.util.Map<String, String> of(org.apache.spark.sql.SparkSession spark) {
    String prefix = "view.sqlConfig.";
    java.util.Map<String, String> configs = new java.util.LinkedHashMap<>();
    Scala.javaMap(org.apache.spark.sql.execution.command.ViewHelper$.MODULE$.generateViewProperties(
        SparkCompat.scalaMap(java.util.Map.of()), spark, new String[0], new String[0],
        org.apache.spark.sql.catalyst.analysis.SchemaUnsupported$.MODULE$, Scala.list(), Scala.list(), Scala.list()))
        .forEach((k, v) -> {
          if (k.startsWith(prefix)) {
            configs.put(k.substring(prefix.length()), v);
          }
        });
    return configs;
  }
}
