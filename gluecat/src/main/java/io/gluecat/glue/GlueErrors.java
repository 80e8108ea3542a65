package io.gluecat.glue;

import io.gluecat.GlueCatalogException;
import io.gluecat.GlueConcurrentModificationException;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.config.CatalogOptions;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.CatalogManager;
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
 *   (AlreadyExists on create and EntityNotFound on delete are not errors: the wanted state holds; on update
 *   every one is)
 * access denied, in any of AWS's shapes:      -> GlueCatalogException "Access denied: ..." naming the
 *   Glue's JSON AccessDeniedException,            catalog, the database or table, the refused IAM action
 *   a Glue HTTP 403 whose body the SDK could      (glue:&lt;Operation&gt;, sts:AssumeRole, s3:&lt;Action&gt;), the
 *   not read (XML: no code, or AccessDenied),     resource's ARN in Glue's model (catalog, database/DB,
 *   STS AccessDenied assuming role.arn (also      table/DB/T; account from glue.id or role.arn, else
 *   wrapped by the SDK), S3A's                    "&lt;account&gt;"), the role, and that Glue was not written
 *   java.nio.file.AccessDeniedException           (storageDenied, for the locations a create writes)
 * Glue throttling that outlasted the SDK's    -> GlueCatalogException as below, saying Glue throttled the
 *   attempts (ThrottlingException, 429)          catalog and naming the options to raise (glue.max-attempts,
 *                                                glue.retry-mode) with their values
 * anything else (STS, 5xx, client errors)     -> GlueCatalogException naming catalog, glue.id, role
 * </pre>
 *
 * A table call whose only possible missing entity is the database (CreateTable, GetTables) reports
 * NoSuchNamespaceException, because that is what is missing. {@link #isAccessDenied} tells callers that a
 * failure was a refusal (nothing was applied), so that a create can remove the directory it made.
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
    BATCH_DELETE_PARTITION("BatchDeletePartition", Entity.TABLE, Entity.TABLE),
    BATCH_UPDATE_PARTITION("BatchUpdatePartition", Entity.TABLE, Entity.TABLE);

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

  /** The codes AWS names a refused authorization with (Glue's JSON, Glue's and S3's XML, STS). */
  private static final java.util.Set<String> ACCESS_DENIED_CODES = java.util.Set.of("AccessDeniedException",
      "AccessDenied");

  private final CatalogOptions options;
  /** The region the catalog's clients use, for ARNs; null when not known yet. */
  private final String region;

  public GlueErrors(CatalogOptions options) {
    this(options, options.region().orElse(null));
  }

  public GlueErrors(CatalogOptions options, String region) {
    this.options = options;
    this.region = region;
  }

  /**
   * The exception for a failed call. Returns a Spark AnalysisException subclass for the not-found and
   * already-exists rows, a RuntimeException otherwise. {@code table} may be null for database calls.
   */
  /**
   * The name of a missing or existing object, catalog first, except in session mode on a line whose own session
   * catalog leaves its name out (Spark 3.5): errors read as Spark's own catalog's would.
   */
  private static String[] named(String catalog, String... parts) {
    boolean unqualified = !SparkCompat.SESSION_CATALOG_QUALIFIES_NAMES
        && CatalogManager.SESSION_CATALOG_NAME().equalsIgnoreCase(catalog);
    String[] named = new String[parts.length + (unqualified ? 0 : 1)];
    if (!unqualified) {
      named[0] = catalog;
    }
    System.arraycopy(parts, 0, named, unqualified ? 0 : 1, parts.length);
    return named;
  }

  public Exception translate(Call call, String database, String table, SdkException error) {
    String catalog = options.catalogName();
    if (error instanceof EntityNotFoundException) {
      return call.missing == Entity.TABLE && table != null
          ? new NoSuchTableException(Scala.list(named(catalog, database, table)))
          : new NoSuchNamespaceException(named(catalog, database));
    }
    if (error instanceof AlreadyExistsException) {
      return call.existing == Entity.TABLE && table != null
          ? new TableAlreadyExistsException(Scala.list(named(catalog, database, table)))
          : new NamespaceAlreadyExistsException(named(catalog, database));
    }
    if (isAccessDenied(error)) {
      return new GlueCatalogException(accessDenied(call, database, table, error), error);
    }
    String message = String.format("Glue %s on %s failed for %s: %s", call.operation,
        table == null ? "database '" + database + "'" : "table '" + database + "." + table + "'",
        options.describeIdentity(), describe(error));
    if (error instanceof ConcurrentModificationException) {
      return new GlueConcurrentModificationException(message
          + ". The entry changed since it was read; nothing was overwritten. Reload the table and retry.", error);
    }
    // Glue's own throttling (STS's, while assuming role.arn, follows the SDK's defaults, not these options)
    if (error instanceof AwsServiceException && ((AwsServiceException) error).isThrottlingException()
        && causeFrom(error, software.amazon.awssdk.services.sts.model.StsException.class) == null) {
      return new GlueCatalogException(message + ". " + throttled(error), error);
    }
    return new GlueCatalogException(message, error);
  }

  /**
   * The per-partition errors a BatchCreatePartition, BatchUpdatePartition or BatchDeletePartition answered with
   * (the call itself succeeded), as one exception naming the catalog, table, each partition's values and Glue's error code.
   */
  public GlueCatalogException partitionErrors(Call call, String database, String table, java.util.List<String> errors) {
    int shown = Math.min(errors.size(), 5);
    return new GlueCatalogException(String.format("Glue %s on table '%s.%s' failed for %d partition(s) for %s: %s%s",
        call.operation, database, table, errors.size(), options.describeIdentity(),
        String.join("; ", errors.subList(0, shown)), errors.size() > shown ? "; ..." : ""), null);
  }

  /**
   * What a call that stayed throttled tells the user: Glue throttled the catalog's requests (the account's Glue
   * request rate) on every attempt the SDK made, and the catalog options that give it more room.
   */
  private String throttled(SdkException error) {
    String catalog = options.catalogName();
    Integer attempts = error.numAttempts();
    return String.format("Glue throttled this catalog's requests (the account's Glue request quota) on %s; the "
        + "call was not applied. Retry later, or give the SDK more room: raise spark.sql.catalog.%s.%s (now %s, "
        + "at most %d) or set spark.sql.catalog.%s.%s=adaptive (now %s), spread the jobs that share the account, or "
        + "ask AWS for a higher Glue quota (docs/troubleshooting.md, \"Throttling\")",
        attempts == null ? "its last attempt" : attempts == 1 ? "its one attempt" : "all " + attempts + " attempts",
        catalog, CatalogOptions.GLUE_MAX_ATTEMPTS, options.glueMaxAttempts().map(String::valueOf).orElse("the SDK's default"),
        CatalogOptions.MAX_GLUE_ATTEMPTS_ALLOWED, catalog, CatalogOptions.GLUE_RETRY_MODE,
        options.glueRetryMode().orElse("the SDK's default"));
  }

  /** A failure before any Glue call (building clients, assuming the role), named like the others. */
  public GlueCatalogException setupFailed(String what, SdkException error) {
    return new GlueCatalogException(String.format("gluecat could not %s for %s: %s",
        what, options.describeIdentity(), describe(error)), error);
  }

  /**
   * Whether {@code error}, or one of its causes, is AWS refusing an authorization: Glue's
   * {@code AccessDeniedException}, an {@code AccessDenied} code from any service (STS, S3), a Glue HTTP 403
   * without a code the SDK could read (an XML body where Glue speaks JSON), or S3A's
   * {@link java.nio.file.AccessDeniedException}. A refused call changed nothing.
   */
  public static boolean isAccessDenied(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof software.amazon.awssdk.services.glue.model.AccessDeniedException
          || t instanceof java.nio.file.AccessDeniedException) {
        return true;
      }
      if (t instanceof AwsServiceException) {
        AwsServiceException aws = (AwsServiceException) t;
        String code = aws.awsErrorDetails() == null ? null : aws.awsErrorDetails().errorCode();
        if ((code != null && ACCESS_DENIED_CODES.contains(code)) || (code == null && aws.statusCode() == 403)) {
          return true;
        }
      }
    }
    return false;
  }

  /** The "Access denied" message of a refused Glue call, or of the STS call its credentials needed. */
  private String accessDenied(Call call, String database, String table, SdkException error) {
    String object = object(database, table);
    String glueAction = "glue:" + call.operation;
    if (causeFrom(error, software.amazon.awssdk.services.sts.model.StsException.class) != null) {
      SdkException sts = causeFrom(error, software.amazon.awssdk.services.sts.model.StsException.class);
      String role = options.roleArn().orElse("<role.arn>");
      return String.format("Access denied: catalog '%s' may not sts:AssumeRole on its role %s (resource %s), which "
          + "it needed for %s on %s, so no Glue call was made and nothing was written to Glue. Allow "
          + "sts:AssumeRole on %s to the catalog's base credentials and trust them in the role's trust policy "
          + "(docs/troubleshooting.md, \"Access denied\"). %s: %s", options.catalogName(), role, role, glueAction,
          object, role, options.describeIdentity(), describe(sts));
    }
    String arn = glueArn(database, table);
    return String.format("Access denied: catalog '%s' may not %s on %s (resource %s). Glue refused the call, so "
        + "nothing was written to Glue by it. Grant %s on %s to the catalog's principal%s "
        + "(docs/troubleshooting.md, \"Access denied\"). %s: %s", options.catalogName(), glueAction, object, arn,
        glueAction, arn, options.roleArn().map(r -> " (role " + r + ")").orElse(""), options.describeIdentity(),
        describe(error));
  }

  /**
   * A location the catalog could not read or write for {@code object} because storage refused it (S3A's
   * {@link java.nio.file.AccessDeniedException}): names the catalog, the object, {@code action} (the S3
   * action the step needs, e.g. {@code s3:PutObject}), the location and its S3 ARN. Called before any Glue
   * write of the statement, so nothing was written to Glue.
   */
  public GlueCatalogException storageDenied(String action, String object, String location, Throwable error) {
    String arn = s3Arn(location);
    return new GlueCatalogException(String.format("Access denied: catalog '%s' may not %s on %s for %s%s, so "
        + "nothing was written to Glue. Grant %s on %s to the identity the catalog's file system uses (the "
        + "catalog's hadoop.* settings, or role.arn through gluecat's S3A provider; docs/troubleshooting.md, "
        + "\"Access denied\"). %s: %s", options.catalogName(), action, location, object,
        arn == null ? "" : " (resource " + arn + ")", action, arn == null ? location : arn,
        options.describeIdentity(), error.getClass().getSimpleName() + ": " + error.getMessage()), error);
  }

  /** How a message names what a call was about. */
  private static String object(String database, String table) {
    if (table != null) {
      return "table '" + database + "." + table + "'";
    }
    return database == null || "*".equals(database) ? "the catalog's databases" : "database '" + database + "'";
  }

  /**
   * The ARN of the Glue resource a call was refused on, in Glue's model. The account is glue.id, else the
   * role's (the caller's own catalog is its principal's account), else unknown.
   */
  String glueArn(String database, String table) {
    String account = options.glueId()
        .or(() -> options.roleArn().map(r -> r.split(":")[4]))
        .orElse("<account>");
    String resource = table != null ? "table/" + database + "/" + table
        : database == null || "*".equals(database) ? "catalog" : "database/" + database;
    String partition = options.roleArn().map(r -> r.split(":")[1]).orElse("aws");
    return String.format("arn:%s:glue:%s:%s:%s", partition, region == null ? "<region>" : region, account, resource);
  }

  /** The S3 ARN of an s3/s3a/s3n location, or null for other file systems. */
  private static String s3Arn(String location) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("s3[an]?://([^/]+)/?(.*)").matcher(location);
    return m.matches() ? "arn:aws:s3:::" + m.group(1) + (m.group(2).isEmpty() ? "" : "/" + m.group(2)) : null;
  }

  private static <T extends SdkException> T causeFrom(Throwable error, Class<T> type) {
    for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (type.isInstance(t)) {
        return type.cast(t);
      }
    }
    return null;
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
    if (error instanceof AwsServiceException) {
      AwsServiceException aws = (AwsServiceException) error;
      return String.format("%s (HTTP %d, request id %s)", aws.getClass().getSimpleName(), aws.statusCode(),
          aws.requestId());
    }
    return error.getClass().getSimpleName() + ": " + error.getMessage();
  }
}
