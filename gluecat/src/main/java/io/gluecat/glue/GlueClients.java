package io.gluecat.glue;

import io.gluecat.config.CatalogOptions;
import java.util.List;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.retries.api.RetryStrategy;
import software.amazon.awssdk.services.glue.GlueClient;

/** A catalog's own Glue client, built from its options: region, credentials, endpoint, user agent, retries. */
final class GlueClients {
  private GlueClients() {}

  /**
   * The client; it and the credentials' own clients are added to {@code resources}, for the catalog to close.
   * The Glue client and the STS client of the catalog's role report to {@code metrics}.
   */
  static GlueClient glue(CatalogOptions options, List<AutoCloseable> resources, GlueCallMetrics metrics) {
    Region region = resolveRegion(options);
    String userAgent = AwsCredentials.userAgent(options.catalogName(), "");
    AwsCredentialsProvider credentials = AwsCredentials.provider(options.roleArn().map(arn -> new AwsCredentials.Role(
        arn, options.roleExternalId(), options.roleSessionName(), options.stsEndpoint())), region, userAgent, resources,
        c -> instrument(c, metrics));
    GlueClient glue = GlueClient.builder()
        .region(region)
        .credentialsProvider(credentials)
        .applyMutation(b -> options.glueEndpoint().ifPresent(b::endpointOverride))
        .overrideConfiguration(c -> {
          c.putAdvancedOption(SdkAdvancedClientOption.USER_AGENT_SUFFIX, userAgent);
          instrument(c, metrics);
          // the SDK's own retry strategy (its mode, backoff and which errors retry), with the catalog's mode and attempts
          if (options.glueRetryMode().isPresent()) {
            RetryStrategy strategy = AwsRetryStrategy.forRetryMode(retryMode(options.glueRetryMode().get()));
            c.retryStrategy(options.glueMaxAttempts().<RetryStrategy>map(n -> strategy.toBuilder().maxAttempts(n).build())
                .orElse(strategy));
          } else {
            options.glueMaxAttempts().ifPresent(attempts -> c.retryStrategy(b -> b.maxAttempts(attempts)));
          }
        })
        .build();
    resources.add(glue);
    return glue;
  }

  /** A client made elsewhere (a unit test's in-memory Glue), added to {@code resources} as the catalog's own is. */
  static GlueClient given(GlueClient client, List<AutoCloseable> resources) {
    resources.add(client);
    return client;
  }

  /** The SDK's mode for an option value of {@link CatalogOptions#RETRY_MODES}; adaptive is the SDK's current one. */
  static RetryMode retryMode(String option) {
    switch (option) {
      case "adaptive": return RetryMode.ADAPTIVE_V2;
      case "legacy": return RetryMode.LEGACY;
      default: return RetryMode.STANDARD;
    }
  }

  /** The catalog's metrics hooks: the SDK's metric publisher (calls, attempts, time) and an interceptor (failures). */
  private static void instrument(ClientOverrideConfiguration.Builder c, GlueCallMetrics metrics) {
    c.addMetricPublisher(metrics).addExecutionInterceptor(metrics);
  }

  private static Region resolveRegion(CatalogOptions options) {
    if (options.region().isPresent()) {
      return Region.of(options.region().get());
    }
    try {
      return new DefaultAwsRegionProviderChain().getRegion();
    } catch (SdkException e) {
      throw new IllegalArgumentException(String.format(
          "gluecat catalog '%s': no AWS region. Set spark.sql.catalog.%s.%s (or AWS_REGION for all catalogs)",
          options.catalogName(), options.catalogName(), CatalogOptions.REGION), e);
    }
  }
}
