package io.gluecat;

/**
 * Delta committed the table (its data and log are valid at the location) but writing the Glue entry
 * failed afterwards, after the AWS SDK's own retries. Nothing was lost: register the table with the
 * statement in the message, which is idempotent.
 */
public class DeltaCommittedButGlueFailedException extends GlueCatalogException {
  private final String table;
  private final String location;

  /**
   * @param replaced whether the table already had an entry (a replace), whose columns then need a REFRESH
   *     rather than a registration
   */
  public DeltaCommittedButGlueFailedException(String table, String location, boolean replaced, Throwable glueError) {
    super(String.format("The Delta commit for table %s succeeded at %s, but writing its Glue entry failed: %s. "
        + "The Delta table is valid. %s", table, location, glueError.getMessage(), replaced
            ? "Its Glue entry still has the previous columns (Delta readers do not use them); re-sync them with: "
                + "REFRESH TABLE " + table
            : "Register it with: CREATE TABLE " + table + " USING delta LOCATION '" + location + "'"), glueError);
    this.table = table;
    this.location = location;
  }

  /** The table as catalog.database.table. */
  public String table() { return table; }

  /** Where the committed Delta table is. */
  public String location() { return location; }
}
