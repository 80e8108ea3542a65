package io.gluecat.legacyhive;

/**
 * The transport when Spark's Hive path runs on the real AWS Glue Data Catalog client for Hive: the client
 * reads and writes Glue itself, so there is nothing to carry.
 */
final class GlueHiveClientTransport implements MetastoreTransport {
  private final String jars;

  GlueHiveClientTransport(String jars) {
    this.jars = jars;
  }

  @Override
  public String description() {
    return "the AWS Glue Data Catalog client for Hive (" + jars + ") against MiniStack's Glue";
  }

  @Override
  public void databaseToHive(String database) {}

  @Override
  public void tableToGlue(String database, String table) {}

  @Override
  public void tableToHive(String database, String table) {}
}
