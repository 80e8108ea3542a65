package io.gluecat.glue;

import io.gluecat.GlueCatalogException;
import io.gluecat.GlueConcurrentModificationException;
import io.gluecat.compat.Scala;
import io.gluecat.config.CatalogOptions;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.glue.model.AlreadyExistsException;
import software.amazon.awssdk.services.glue.model.ConcurrentModificationException;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;

/**
 * The one mapping from Glue and AWS errors to what Spark users see (docs/how-it-works.md, "Errors"):
 *
 * <pre>
 * EntityNotFoundException on a table call      -> NoSuchTableException
 * EntityNotFoundException on a database call   -> NoSuchNamespaceException
 * AlreadyExistsException on a table call       -> TableAlreadyExistsException
 * AlreadyExistsException on a database call    -> NamespaceAlreadyExistsException
 * ConcurrentModificationException              -> GlueConcurrentModificationException (retryable)
 * per-partition Errors of a Batch*Partition     -> GlueCatalogException naming the table and partitions
 *   (AlreadyExists on create and EntityNotFound on delete are not errors: the wanted state holds)
 * anything else (AccessDenied, STS, throttling
 *   after retries, 5xx, client errors)         -> GlueCatalogException naming catalog, glue.id, role
 * </pre>
 *
 * A table call whose only possible missing entity is the database (CreateTable, GetTables) reports
 * NoSuchNamespaceException, because that is what is missing.
 */
public final class GlueErrors {

  /** What a Glue call is about, which decides how "not found" and "already exists" read. */
  public enum Call {
    GET_DATABASE("GetDatabase", Entity.DATABASE, Entity.DATABASE),
    GET_DATABASES("GetDatabases", Entity.DATABASE, Entity.DATABASE),
    CREATE_DATABASE("CreateDatabase", Entity.DATABASE, Entity.DATABASE),
    UPDATE_DATABASE("UpdateDatabase", Entity.DATABASE, Entity.DATABASE),
    DELETE_DATABASE("DeleteDatabase", Entity.DATABASE, Entity.DATABASE),
    GET_TABLES("GetTables", Entity.DATABASE, Entity.TABLE),
    GET_TABLE("GetTable", Entity.TABLE, Entity.TABLE),
    CREATE_TABLE("CreateTable", Entity.DATABASE, Entity.TABLE),
    UPDATE_TABLE("UpdateTable", Entity.TABLE, Entity.TABLE),
    DELETE_TABLE("DeleteTable", Entity.TABLE, Entity.TABLE),
    GET_PARTITIONS("GetPartitions", Entity.TABLE, Entity.TABLE),
    BATCH_CREATE_PARTITION("BatchCreatePartition", Entity.TABLE, Entity.TABLE),
    BATCH_DELETE_PARTITION("BatchDeletePartition", Entity.TABLE, Entity.TABLE);

    final String operation;
    final Entity missing;
    final Entity existing;

    Call(String operation, Entity missing, Entity existing) {
      this.operation = operation;
      this.missing = missing;
      this.existing = existing;
    }

    public String operation() { return operation; }
  }

  enum Entity { DATABASE, TABLE }

  private final CatalogOptions options;

  public GlueErrors(CatalogOptions options) {
    this.options = options;
  }

  /**
   * The exception for a failed call. Returns a Spark AnalysisException subclass for the not-found and
   * already-exists rows, a RuntimeException otherwise. {@code table} may be null for database calls.
   */
  public Exception translate(Call call, String database, String table, SdkException error) {
    String catalog = options.catalogName();
    if (error instanceof EntityNotFoundException) {
      return call.missing == Entity.TABLE && table != null
          ? new NoSuchTableException(Scala.list(catalog, database, table))
          : new NoSuchNamespaceException(new String[] {catalog, database});
    }
    if (error instanceof AlreadyExistsException) {
      return call.existing == Entity.TABLE && table != null
          ? new TableAlreadyExistsException(Scala.list(catalog, database, table))
          : new NamespaceAlreadyExistsException(new String[] {catalog, database});
    }
    String message = String.format("Glue %s on %s failed for %s: %s", call.operation,
        table == null ? "database '" + database + "'" : "table '" + database + "." + table + "'",
        options.describeIdentity(), describe(error));
    if (error instanceof ConcurrentModificationException) {
      return new GlueConcurrentModificationException(message
          + ". The entry changed since it was read; nothing was overwritten. Reload the table and retry.", error);
    }
    return new GlueCatalogException(message, error);
  }

  /**
   * The per-partition errors a BatchCreatePartition or BatchDeletePartition answered with (the call itself
   * succeeded), as one exception naming the catalog, table, each partition's values and Glue's error code.
   */
  public GlueCatalogException partitionErrors(Call call, String database, String table, java.util.List<String> errors) {
    int shown = Math.min(errors.size(), 5);
    return new GlueCatalogException(String.format("Glue %s on table '%s.%s' failed for %d partition(s) for %s: %s%s",
        call.operation, database, table, errors.size(), options.describeIdentity(),
        String.join("; ", errors.subList(0, shown)), errors.size() > shown ? "; ..." : ""), null);
  }

  /** A failure before any Glue call (building clients, assuming the role), named like the others. */
  public GlueCatalogException setupFailed(String what, SdkException error) {
    return new GlueCatalogException(String.format("gluecat could not %s for %s: %s",
        what, options.describeIdentity(), describe(error)), error);
  }

  /** The AWS error code, message and request id, which never include credentials. */
  static String describe(SdkException error) {
    if (error instanceof AwsServiceException && ((AwsServiceException) error).awsErrorDetails() != null) {
      AwsServiceException aws = (AwsServiceException) error;
      String code = aws.awsErrorDetails().errorCode();
      String text = aws.awsErrorDetails().errorMessage();
      return String.format("%s (%s, HTTP %d, request id %s)", text == null ? aws.getClass().getSimpleName() : text,
          code == null ? aws.getClass().getSimpleName() : code, aws.statusCode(), aws.requestId());
    }
    return error.getClass().getSimpleName() + ": " + error.getMessage();
  }
}
