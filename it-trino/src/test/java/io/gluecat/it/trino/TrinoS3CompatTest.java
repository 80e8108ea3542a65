package io.gluecat.it.trino;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Base of the suites whose tables both engines write on MiniStack's S3: Trino through its native S3 file system
 * (catalog {@value #TRINO_S3}), gluecat through S3A with the catalog's own {@code hadoop.fs.s3a.*} settings. Each
 * test's Glue database lives in a new bucket ({@code s3a://<bucket>/<db>}), since Hadoop keeps the first
 * FileSystem it opens for a bucket for the JVM's life.
 */
abstract class TrinoS3CompatTest extends TrinoCompatTest {

  @Override
  protected String newDatabaseLocation(String database) {
    String bucket = MINISTACK.createBucket(database.replace('_', '-'));
    return "s3a://" + bucket + "/" + database;
  }

  @Override
  protected Map<String, String> extraCatalogOptions() {
    Map<String, String> options = new LinkedHashMap<>();
    MINISTACK.s3aSettings().forEach((k, v) -> options.put("hadoop." + k, v));
    return options;
  }

  /** These suites' tables are in Trino's S3 catalog. */
  @Override
  protected String trinoName(String table) {
    return TRINO_S3 + "." + db + "." + table;
  }
}
