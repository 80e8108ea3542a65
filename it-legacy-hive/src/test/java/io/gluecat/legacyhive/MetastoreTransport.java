package io.gluecat.legacyhive;

/**
 * How entries travel between Spark's Hive path and Glue. With the real AWS Glue Data Catalog client for
 * Hive, the Hive path reads and writes Glue itself and these calls do nothing; without it, {@link GlueBridge}
 * copies entries between an embedded Hive metastore and MiniStack's Glue, converting them as that client does.
 * The tests call these at the points where the client would have called Glue.
 */
interface MetastoreTransport {
  /** A name for reports and assumption messages. */
  String description();

  /** A Glue database becomes visible to the Hive path (the client's getDatabase). */
  void databaseToHive(String database);

  /** The Hive path created or changed a table: it reaches Glue (the client's createTable/alterTable). */
  void tableToGlue(String database, String table);

  /** A table gluecat created or changed in Glue becomes visible to the Hive path (the client's getTable). */
  void tableToHive(String database, String table);
}
