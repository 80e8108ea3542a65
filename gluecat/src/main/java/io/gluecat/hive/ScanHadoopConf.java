package io.gluecat.hive;

import io.gluecat.compat.SparkCompat;
import java.util.Map;
import org.apache.spark.broadcast.Broadcast;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.util.SerializableConfiguration;

/**
 * The Hadoop configuration a file scan's readers get on the executors, as Spark's own file scans build it: the
 * session's, plus the scan's options (the table's storage settings) except its paths.
 */
final class ScanHadoopConf {
  private ScanHadoopConf() {}

  static Broadcast<SerializableConfiguration> broadcast(SparkSession spark, Map<String, String> options) {
    org.apache.hadoop.conf.Configuration conf = SparkCompat.newHadoopConf();
    options.forEach((k, v) -> {
      if (v != null && !k.equalsIgnoreCase("path") && !k.equalsIgnoreCase("paths")) {
        conf.set(k, v);
      }
    });
    return spark.sparkContext().broadcast(new SerializableConfiguration(conf),
        scala.reflect.ClassTag$.MODULE$.apply(SerializableConfiguration.class));
  }
}
