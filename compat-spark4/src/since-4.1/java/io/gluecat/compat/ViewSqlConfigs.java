package io.gluecat.compat;

/**
 * The SQL settings a new view captures, as Spark's own CREATE VIEW: the Spark 4 lines from 4.1 on (Spark 4.1 made
 * the capture public, with the prefix to put before each key: none). compat-spark40 has its own.
 */
final class ViewSqlConfigs {
  private ViewSqlConfigs() {}

  static java.util.Map<String, String> of(org.apache.spark.sql.SparkSession spark) {
    return Scala.javaMap(org.apache.spark.sql.execution.command.ViewHelper$.MODULE$.sqlConfigsToProps(
        spark.sessionState().conf(), ""));
  }
}
