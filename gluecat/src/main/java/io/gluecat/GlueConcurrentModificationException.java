package io.gluecat;

/**
 * Glue refused an update because the entry changed since gluecat read it (its VersionId moved on), or
 * another writer raced this one. Nothing was overwritten: reload and run the statement again.
 */
public class GlueConcurrentModificationException extends GlueCatalogException {
  public GlueConcurrentModificationException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Always true: the operation can be retried as a whole after reloading the table. */
  public boolean isRetryable() {
    return true;
  }
}
