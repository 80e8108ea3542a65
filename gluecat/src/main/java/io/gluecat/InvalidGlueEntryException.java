package io.gluecat;

/**
 * A Glue entry that gluecat cannot serve: malformed (bad schema JSON, no location, schema parts that do
 * not add up, a partition column missing from the schema) or of a kind gluecat does not read (Iceberg,
 * Hive SerDe tables without a Spark provider). The message names the table and the problem.
 */
public class InvalidGlueEntryException extends RuntimeException {
  public InvalidGlueEntryException(String message) {
    super(message);
  }

  public InvalidGlueEntryException(String message, Throwable cause) {
    super(message, cause);
  }
}
