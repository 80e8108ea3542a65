package io.gluecat;

/**
 * An AWS or Glue failure that has no Spark exception of its own (access denied, STS errors, throttling
 * after the SDK's retries, service errors). The message names the catalog, its glue.id and role, the
 * Glue operation and its target, and carries the AWS error code and request id; never credentials.
 */
public class GlueCatalogException extends RuntimeException {
  public GlueCatalogException(String message, Throwable cause) {
    super(message, cause);
  }
}
