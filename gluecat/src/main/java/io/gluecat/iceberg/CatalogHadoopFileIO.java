package io.gluecat.iceberg;

import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.hadoop.HadoopFileIO;

/**
 * Iceberg's Hadoop FileIO with the gluecat catalog's own storage settings on top of the Hadoop configuration Iceberg
 * gives it. Iceberg builds that configuration from the session's and from {@code spark.sql.catalog.<name>.hadoop.*},
 * which holds the catalog's {@code hadoop.*} options but not what gluecat derives from its other options (S3A's
 * region from {@code region}, the role's credentials provider from {@code role.arn}); those arrive as catalog
 * properties {@value #SETTING_PREFIX}{@code <key>} ({@link IcebergProperties}), without secrets, as they travel with
 * the catalog's other tables. Iceberg creates this class by name ({@code io-impl}) and ships it to executors with
 * the table, configuration included.
 */
public class CatalogHadoopFileIO extends HadoopFileIO {
  static final String SETTING_PREFIX = "gluecat.hadoop.";

  @Override
  public void initialize(Map<String, String> properties) {
    super.initialize(properties);
    Configuration conf = new Configuration(getConf()); // a copy: Iceberg's configuration stays as Iceberg made it
    properties.forEach((key, value) -> {
      if (key.startsWith(SETTING_PREFIX)) {
        conf.set(key.substring(SETTING_PREFIX.length()), value);
      }
    });
    setConf(conf);
  }
}
