package io.gluecat.tools.doctor;

/**
 * The problems doctor reports. The names are stable: scripts may match on them, and docs/operations.md
 * explains each. {@link #fixableOn} says whether {@code repair} rewrites it away.
 */
public enum Code {
  PLACEHOLDER_SCHEMA(true, "the Glue columns are the placeholder col array<string>, not the Delta table's columns"),
  MISSING_TABLE_TYPE(true, "a Delta entry without table_type=DELTA, which Athena needs to read it as Delta"),
  PLACEHOLDER_LOCATION(true, "StorageDescriptor.Location is a placeholder or missing; the real location is only "
      + "in the SerDe path"),
  NO_LOCATION(false, "neither the SerDe path nor StorageDescriptor.Location holds a usable location"),
  SERDE_PATH_DIFFERS(true, "the SerDe parameter path and StorageDescriptor.Location name different locations"),
  NO_DELTA_LOG(false, "the location has no _delta_log: there is no Delta table there"),
  LOCATION_UNREACHABLE(false, "the location could not be opened with the catalog's Hadoop settings"),
  COLUMNS_OUT_OF_SYNC(true, "the Glue columns differ from the Delta log's schema"),
  COMMENT_TOO_LONG(true, "a table or column comment is over Glue's limit (2048 / 255 UTF-8 bytes)"),
  SCHEMA_PARTS_MISSING(true, "the schema stored in parts (spark.sql.sources.schema.part.N) is incomplete"),
  CASE_ONLY_NAMES(false, "names that differ only in case (columns, or tables of the database)"),
  SPARK_SPECIFIC_FORM(false, "a non-Delta table in Spark's own form (col array<string>): Hive readers such as "
      + "Trino's Hive connector and Athena cannot read it"),
  MISSING_CLASSIFICATION(true, "a file table's entry (parquet, orc, csv, json, avro) without the classification Glue "
      + "crawlers write, by which Glue ETL, crawlers and Daft pick its reader"),
  INVALID_ENTRY(false, "gluecat refuses the entry (the message says why)"),
  NO_PROVIDER_DELTA_LOG(false, "a Hive SerDe entry whose location holds a Delta table: register it as Delta"),
  NO_ICEBERG_METADATA(false, "an Iceberg entry without a metadata_location, or whose metadata file is not there"),
  ICEBERG_NOT_SERVED(false, "an Iceberg entry, which gluecat serves only with Iceberg's Spark runtime on the "
      + "classpath");

  private final boolean fixable;
  private final String description;

  Code(boolean fixable, String description) {
    this.fixable = fixable;
    this.description = description;
  }

  /**
   * Whether repair rewrites an entry of {@code kind} so that the problem is gone: a Delta entry, from its log; a
   * file table's entry, only by adding its classification.
   */
  public boolean fixableOn(Kind kind) {
    return fixable && (this == MISSING_CLASSIFICATION ? kind == Kind.FILE_SOURCE : kind.isDelta());
  }

  public String description() { return description; }
}
