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

    Exception client = errors.translate(Call.GET_TABLE, "sales", "orders",
        SdkClientException.create("Unable to execute HTTP request: Connection refused"));
    assertInstanceOf(GlueCatalogException.class, client);
    assertTrue(client.getMessage().contains("Connection refused"), client.getMessage());
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
