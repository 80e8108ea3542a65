package io.gluecat.glue;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gluecat.metrics.CatalogMetrics;
import java.net.SocketException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollector;
import software.amazon.awssdk.services.glue.model.GlueException;
import software.amazon.awssdk.services.glue.model.ThrottlingException;

/** What the SDK's metric collection of one call becomes in the catalog's metrics. */
class GlueCallMetricsTest {

  @Test
  void aCallWithAThrottledAndARetriedAttempt() {
    CatalogMetrics metrics = new CatalogMetrics("glue");
    MetricCollector call = MetricCollector.create("ApiCall");
    call.reportMetric(CoreMetric.OPERATION_NAME, "GetTable");
    call.reportMetric(CoreMetric.SERVICE_ID, "Glue");
    call.reportMetric(CoreMetric.RETRY_COUNT, 2);
    call.reportMetric(CoreMetric.API_CALL_DURATION, Duration.ofMillis(30));
    call.reportMetric(CoreMetric.API_CALL_SUCCESSFUL, true);
    call.createChild("ApiCallAttempt").reportMetric(CoreMetric.ERROR_TYPE, "Throttling");
    call.createChild("ApiCallAttempt").reportMetric(CoreMetric.ERROR_TYPE, "ServerError");
    call.createChild("ApiCallAttempt");
    new GlueCallMetrics(metrics, null).publish(call.collect());
    assertEquals(1, metrics.registry().counter("GetTable.calls").getCount());
    assertEquals(2, metrics.registry().counter("GetTable.retries").getCount());
    assertEquals(1, metrics.registry().counter("GetTable.throttles").getCount());
    assertEquals(1, metrics.registry().timer("GetTable.latency").getCount());
  }

  @Test
  void failuresAreNamedByTheirAwsErrorCode() {
    assertEquals("ThrottlingException", GlueCallMetrics.errorCode(ThrottlingException.builder()
        .awsErrorDetails(AwsErrorDetails.builder().errorCode("ThrottlingException").build()).statusCode(400).build()));
    assertEquals("HTTP403", GlueCallMetrics.errorCode(GlueException.builder()
        .awsErrorDetails(AwsErrorDetails.builder().build()).statusCode(403).build()));
    assertEquals("SdkClientException", GlueCallMetrics.errorCode(SdkClientException.builder()
        .cause(new SocketException("Connection reset")).build()));
  }
}
