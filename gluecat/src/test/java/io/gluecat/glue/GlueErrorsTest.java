package io.gluecat.glue;

import io.gluecat.GlueCatalogException;
import io.gluecat.GlueConcurrentModificationException;
import io.gluecat.config.CatalogOptions;
import io.gluecat.glue.GlueErrors.Call;
import java.util.Map;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.glue.model.AccessDeniedException;
import software.amazon.awssdk.services.glue.model.AlreadyExistsException;
import software.amazon.awssdk.services.glue.model.ConcurrentModificationException;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.GlueException;
import software.amazon.awssdk.services.sts.model.StsException;
import static org.junit.jupiter.api.Assertions.*;

/** One test per row of the error mapping table (docs/how-it-works.md). */
class GlueErrorsTest {
  private final GlueErrors errors = new GlueErrors(CatalogOptions.parse("glue_prod",
      Map.of("glue.id", "123456789012", "role.arn", "arn:aws:iam::123456789012:role/analytics")));

  private static <T extends software.amazon.awssdk.awscore.exception.AwsServiceException.Builder> T details(
      T builder, String code, String message, int status) {
    builder.awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).build())
        .statusCode(status).requestId("req-1");
    return builder;
  }

  @Test
  void entityNotFoundOnATableCallIsNoSuchTable() {
    Exception e = errors.translate(Call.GET_TABLE, "sales", "orders",
        details(EntityNotFoundException.builder(), "EntityNotFoundException", "Table not found", 400).build());
    assertInstanceOf(NoSuchTableException.class, e);
    assertTrue(e.getMessage().contains("`glue_prod`.`sales`.`orders`"), e.getMessage());
  }

  @Test
  void entityNotFoundOnADatabaseCallIsNoSuchNamespace() {
    Exception e = errors.translate(Call.GET_DATABASE, "sales", null,
        details(EntityNotFoundException.builder(), "EntityNotFoundException", "Database not found", 400).build());
    assertInstanceOf(NoSuchNamespaceException.class, e);
    assertTrue(e.getMessage().contains("`glue_prod`.`sales`"), e.getMessage());
    // a table create or listing in a missing database reports the database
    assertInstanceOf(NoSuchNamespaceException.class, errors.translate(Call.CREATE_TABLE, "sales", "orders",
        EntityNotFoundException.builder().build()));
    assertInstanceOf(NoSuchNamespaceException.class, errors.translate(Call.GET_TABLES, "sales", null,
        EntityNotFoundException.builder().build()));
  }

  @Test
  void alreadyExistsOnATableCallIsTableAlreadyExists() {
    Exception e = errors.translate(Call.CREATE_TABLE, "sales", "orders", AlreadyExistsException.builder().build());
    assertInstanceOf(TableAlreadyExistsException.class, e);
    assertTrue(e.getMessage().contains("`glue_prod`.`sales`.`orders`"), e.getMessage());
  }

  @Test
  void alreadyExistsOnADatabaseCallIsNamespaceAlreadyExists() {
    Exception e = errors.translate(Call.CREATE_DATABASE, "sales", null, AlreadyExistsException.builder().build());
    assertInstanceOf(NamespaceAlreadyExistsException.class, e);
    assertTrue(e.getMessage().contains("`glue_prod`.`sales`"), e.getMessage());
  }

  @Test
  void aStaleVersionIsGluecatsRetryableException() {
    Exception e = errors.translate(Call.UPDATE_TABLE, "sales", "orders", details(
        ConcurrentModificationException.builder(), "ConcurrentModificationException", "Version mismatch", 400).build());
    GlueConcurrentModificationException c = assertInstanceOf(GlueConcurrentModificationException.class, e);
    assertTrue(c.isRetryable());
    assertTrue(c.getMessage().contains("sales.orders"), c.getMessage());
    assertTrue(c.getMessage().contains("nothing was overwritten"), c.getMessage());
  }

  @Test
  void accessDeniedIsWrappedWithCatalogAccountAndRole() {
    Exception e = errors.translate(Call.GET_TABLE, "sales", "orders", details(AccessDeniedException.builder(),
        "AccessDeniedException", "User is not authorized to perform: glue:GetTable", 400).build());
    GlueCatalogException g = assertInstanceOf(GlueCatalogException.class, e);
    assertFalse(g instanceof GlueConcurrentModificationException);
    for (String fragment : new String[] {"GetTable", "sales.orders", "glue_prod", "123456789012",
        "arn:aws:iam::123456789012:role/analytics", "AccessDeniedException", "not authorized", "req-1"}) {
      assertTrue(g.getMessage().contains(fragment), "expected '" + fragment + "' in: " + g.getMessage());
    }
    assertInstanceOf(AccessDeniedException.class, g.getCause());
  }

  @Test
  void stsErrorsAndOtherAwsErrorsAreWrappedTheSameWay() {
    Exception sts = errors.translate(Call.GET_DATABASES, "*", null, details(StsException.builder(),
        "AccessDenied", "not authorized to perform sts:AssumeRole", 403).build());
    assertInstanceOf(GlueCatalogException.class, sts);
    assertTrue(sts.getMessage().contains("sts:AssumeRole"), sts.getMessage());
    assertTrue(sts.getMessage().contains("role arn:aws:iam::123456789012:role/analytics"), sts.getMessage());

    Exception throttled = errors.translate(Call.GET_TABLE, "sales", "orders",
        details(GlueException.builder(), "ThrottlingException", "Rate exceeded", 400).build());
    assertInstanceOf(GlueCatalogException.class, throttled);
    assertTrue(throttled.getMessage().contains("ThrottlingException"), throttled.getMessage());
    assertTrue(throttled.getMessage().contains("Glue throttled this catalog's requests")
        && throttled.getMessage().contains("spark.sql.catalog.glue_prod.glue.max-attempts (now the SDK's default")
        && throttled.getMessage().contains("spark.sql.catalog.glue_prod.glue.retry-mode=adaptive"), throttled.getMessage());
    Exception stsThrottled = errors.translate(Call.GET_DATABASES, "*", null, details(StsException.builder(),
        "Throttling", "Rate exceeded", 400).build());
    assertFalse(stsThrottled.getMessage().contains("glue.max-attempts"), stsThrottled.getMessage());

    Exception client = errors.translate(Call.GET_TABLE, "sales", "orders",
        SdkClientException.create("Unable to execute HTTP request: Connection refused"));
    assertInstanceOf(GlueCatalogException.class, client);
    assertTrue(client.getMessage().contains("Connection refused"), client.getMessage());
  }

  /** What every access-denied message holds: the catalog, the object, the action, the ARN, the role, what was written. */
  private static void assertNames(Exception e, String... fragments) {
    GlueCatalogException g = assertInstanceOf(GlueCatalogException.class, e);
    for (String fragment : fragments) {
      assertTrue(g.getMessage().contains(fragment), "expected '" + fragment + "' in: " + g.getMessage());
    }
    assertTrue(g.getMessage().startsWith("Access denied"), g.getMessage());
    assertTrue(GlueErrors.isAccessDenied(g), g.getMessage());
  }

  private final GlueErrors inRegion = new GlueErrors(CatalogOptions.parse("glue_prod", Map.of("glue.id",
      "123456789012", "role.arn", "arn:aws:iam::123456789012:role/analytics", "region", "eu-west-1")));

  @Test
  void glueJsonAccessDeniedNamesTheActionTheTablesArnAndTheRole() {
    Exception e = inRegion.translate(Call.CREATE_TABLE, "sales", "orders", details(AccessDeniedException.builder(),
        "AccessDeniedException", "User is not authorized to perform: glue:CreateTable", 400).build());
    assertNames(e, "catalog 'glue_prod'", "table 'sales.orders'", "glue:CreateTable",
        "arn:aws:glue:eu-west-1:123456789012:table/sales/orders", "role arn:aws:iam::123456789012:role/analytics",
        "nothing was written to Glue", "req-1", "docs/troubleshooting.md");
    assertInstanceOf(AccessDeniedException.class, e.getCause());
  }

  @Test
  void aGlue403WithAnXmlBodyIsAccessDeniedWithOrWithoutItsCode() {
    // the SDK's JSON protocol reads no code from an XML body: a plain GlueException with status 403
    Exception coded = inRegion.translate(Call.CREATE_DATABASE, "sales", null,
        details(GlueException.builder(), "AccessDenied", "not authorized to perform: glue:CreateDatabase", 403).build());
    assertNames(coded, "catalog 'glue_prod'", "database 'sales'", "glue:CreateDatabase",
        "arn:aws:glue:eu-west-1:123456789012:database/sales", "nothing was written to Glue");
    Exception codeless = inRegion.translate(Call.GET_DATABASES, "*", null,
        GlueException.builder().statusCode(403).requestId("req-2").build());
    assertNames(codeless, "glue:GetDatabases", "arn:aws:glue:eu-west-1:123456789012:catalog", "HTTP 403");
    Exception update = inRegion.translate(Call.UPDATE_TABLE, "sales", "orders",
        details(GlueException.builder(), null, null, 403).build());
    assertNames(update, "glue:UpdateTable", "arn:aws:glue:eu-west-1:123456789012:table/sales/orders");
    // another 403 with a code of its own is no access denial
    Exception expired = inRegion.translate(Call.GET_TABLE, "sales", "orders",
        details(GlueException.builder(), "ExpiredTokenException", "The security token included in the request is "
            + "expired", 403).build());
    assertFalse(expired.getMessage().startsWith("Access denied"), expired.getMessage());
  }

  @Test
  void stsAccessDeniedNamesAssumeRoleAndTheRoleWhateverGlueCallNeededIt() {
    Exception e = inRegion.translate(Call.CREATE_TABLE, "sales", "orders", details(StsException.builder(),
        "AccessDenied", "User: arn:aws:iam::123456789012:user/u is not authorized to perform: sts:AssumeRole", 403)
        .build());
    assertNames(e, "catalog 'glue_prod'", "sts:AssumeRole", "arn:aws:iam::123456789012:role/analytics",
        "table 'sales.orders'", "glue:CreateTable", "no Glue call was made");
    // the SDK may wrap the credentials provider's failure
    Exception wrapped = inRegion.translate(Call.GET_TABLE, "sales", "orders", SdkClientException.builder()
        .message("Unable to load credentials").cause(details(StsException.builder(), "AccessDenied", "denied", 403)
            .build()).build());
    assertNames(wrapped, "sts:AssumeRole", "arn:aws:iam::123456789012:role/analytics");
  }

  @Test
  void withoutGlueIdOrRoleTheArnSaysWhatIsUnknown() {
    GlueErrors plain = new GlueErrors(CatalogOptions.parse("c", Map.of("region", "us-east-1")));
    Exception e = plain.translate(Call.BATCH_CREATE_PARTITION, "sales", "orders", details(AccessDeniedException.builder(),
        "AccessDeniedException", "denied", 400).build());
    assertNames(e, "catalog 'c'", "glue:BatchCreatePartition", "arn:aws:glue:us-east-1:<account>:table/sales/orders");
    assertFalse(e.getMessage().contains("role arn"), e.getMessage());
    // the role's account is the caller's, so it is Glue's account when glue.id is unset
    GlueErrors role = new GlueErrors(CatalogOptions.parse("c", Map.of("region", "us-east-1",
        "role.arn", "arn:aws:iam::210987654321:role/r")));
    assertNames(role.translate(Call.GET_TABLE, "s", "t", AccessDeniedException.builder().statusCode(400).build()),
        "arn:aws:glue:us-east-1:210987654321:table/s/t");
  }

  @Test
  void s3aAccessDeniedNamesTheS3ActionTheObjectAndTheLocation() {
    java.nio.file.AccessDeniedException s3a = new java.nio.file.AccessDeniedException("s3a://lake/wh/sales.db/orders",
        null, "PUT 0-byte object  on s3a://lake/wh/sales.db/orders: S3Exception: Access Denied (Status Code: 403)");
    Exception e = inRegion.storageDenied("s3:PutObject", "table 'sales.orders'", "s3a://lake/wh/sales.db/orders", s3a);
    assertNames(e, "catalog 'glue_prod'", "table 'sales.orders'", "s3:PutObject",
        "arn:aws:s3:::lake/wh/sales.db/orders", "s3a://lake/wh/sales.db/orders", "nothing was written to Glue");
    assertTrue(GlueErrors.isAccessDenied(new IllegalStateException("wrapped", s3a)));
    assertFalse(GlueErrors.isAccessDenied(new IllegalStateException("other", new java.io.IOException("x"))));
  }

  /** The XML 403 an emulator with IAM enforced (moto) answers a Glue call with, unmarshalled by the SDK itself. */
  @Test
  void theSdkItselfTurnsAnXml403IntoAGlueExceptionThatIsAccessDenied() throws Exception {
    com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
        new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    byte[] body = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ErrorResponse><Errors><Error><Code>AccessDenied</Code>"
        + "<Message>User: arn:aws:iam::123456789012:user/reader is not authorized to perform: glue:CreateTable"
        + "</Message></Error></Errors><RequestId>r-xml</RequestId></ErrorResponse>")
        .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    server.createContext("/", exchange -> {
      exchange.getRequestBody().readAllBytes();
      exchange.getResponseHeaders().add("Content-Type", "text/xml");
      exchange.sendResponseHeaders(403, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    try (software.amazon.awssdk.services.glue.GlueClient glue = software.amazon.awssdk.services.glue.GlueClient
        .builder().region(software.amazon.awssdk.regions.Region.EU_WEST_1)
        .endpointOverride(java.net.URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
        .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
            software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create("k", "s")))
        .build()) {
      software.amazon.awssdk.core.exception.SdkException thrown = assertThrows(
          software.amazon.awssdk.core.exception.SdkException.class,
          () -> glue.createTable(r -> r.databaseName("sales").tableInput(t -> t.name("orders"))));
      assertNames(inRegion.translate(Call.CREATE_TABLE, "sales", "orders", thrown), "glue:CreateTable",
          "arn:aws:glue:eu-west-1:123456789012:table/sales/orders", "HTTP 403");
    } finally {
      server.stop(0);
    }
  }

  @Test
  void perPartitionErrorsNameTheTableTheCatalogAndAtMostFivePartitions() {
    java.util.List<String> failed = new java.util.ArrayList<>();
    for (int i = 0; i < 7; i++) {
      failed.add("[d" + i + "]: InternalServiceException");
    }
    Exception e = errors.partitionErrors(Call.BATCH_CREATE_PARTITION, "sales", "orders", failed);
    assertInstanceOf(io.gluecat.GlueCatalogException.class, e);
    String m = e.getMessage();
    assertTrue(m.contains("BatchCreatePartition on table 'sales.orders' failed for 7 partition(s)"), m);
    assertTrue(m.contains("[d4]: InternalServiceException; ..."), m);
    assertFalse(m.contains("[d5]"), m);
  }
}
