package io.gluecat.glue;

import io.gluecat.cache.StatementCalls;
import io.gluecat.metrics.CatalogMetrics;
import java.time.Duration;
import java.util.List;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.core.metrics.CoreMetric;
import software.amazon.awssdk.metrics.MetricCollection;
import software.amazon.awssdk.metrics.MetricPublisher;
import software.amazon.awssdk.metrics.SdkMetric;

/**
 * What a catalog's Glue and STS clients report to its {@link CatalogMetrics} (and, with the option
 * {@code log.statement-calls}, to the statement's {@link StatementCalls}). Two SDK hooks, each for what only it
 * sees: the SDK's metric publisher gets every call once it ended, with its attempts (each retried attempt, and
 * whether the service throttled it, as the SDK's retry loop saw it, whatever an interceptor did) and duration;
 * the interceptor gets the exception a failed call ended in, for its AWS error code. A sync client publishes on
 * the calling thread, so the statement is the caller's.
 */
final class GlueCallMetrics implements MetricPublisher, ExecutionInterceptor {
  /** The SDK's {@code ERROR_TYPE} of a throttled attempt (a throttling error code, or HTTP 429). */
  private static final String THROTTLING = "Throttling";
  private static final String ATTEMPT = "ApiCallAttempt";

  private final CatalogMetrics metrics;
  private final StatementCalls statements;

  GlueCallMetrics(CatalogMetrics metrics, StatementCalls statements) {
    this.metrics = metrics;
    this.statements = statements;
  }

  @Override
  public void publish(MetricCollection call) {
    String operation = first(call, CoreMetric.OPERATION_NAME);
    if (operation == null) {
      return;
    }
    Integer retries = first(call, CoreMetric.RETRY_COUNT);
    Duration duration = first(call, CoreMetric.API_CALL_DURATION);
    Boolean succeeded = first(call, CoreMetric.API_CALL_SUCCESSFUL);
    int throttles = 0;
    for (MetricCollection attempt : call.children()) {
      if (ATTEMPT.equals(attempt.name()) && attempt.metricValues(CoreMetric.ERROR_TYPE).contains(THROTTLING)) {
        throttles++;
      }
    }
    long nanos = duration == null ? -1 : duration.toNanos();
    int retried = retries == null ? 0 : retries;
    metrics.call(operation, nanos, retried, throttles);
    if (statements != null) {
      statements.record(operation, retried, throttles, !Boolean.TRUE.equals(succeeded), Math.max(nanos, 0));
    }
  }

  @Override
  public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
    String operation = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
    if (operation != null) {
      metrics.failure(operation, errorCode(context.exception()));
    }
  }

  /** The AWS error code of a service error; else the HTTP status, or the client-side exception's class. */
  static String errorCode(Throwable failure) {
    if (failure instanceof AwsServiceException) {
      AwsServiceException e = (AwsServiceException) failure;
      String code = e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
      return code != null && !code.isEmpty() ? code : "HTTP" + e.statusCode();
    }
    return failure.getClass().getSimpleName();
  }

  private static <T> T first(MetricCollection collection, SdkMetric<T> metric) {
    List<T> values = collection.metricValues(metric);
    return values.isEmpty() ? null : values.get(0);
  }

  @Override
  public void close() {
    // nothing held: the metrics belong to the catalog name, the statement calls to the gateway
  }
}
