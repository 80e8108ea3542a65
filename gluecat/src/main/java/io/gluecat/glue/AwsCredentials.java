package io.gluecat.glue;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * How gluecat gets AWS credentials, for Glue and for S3A alike: the SDK's default chain, or a role assumed
 * with it through an STS client of its own. Every call builds new instances, so that two users of it
 * never share cached credentials.
 */
public final class AwsCredentials {
  private AwsCredentials() {}

  /** The role to assume, if any. */
  public static final class Role {
    final String arn;
    final Optional<String> externalId;
    final String sessionName;
    final Optional<URI> stsEndpoint;

    public Role(String arn, Optional<String> externalId, String sessionName, Optional<URI> stsEndpoint) {
      this.arn = arn;
      this.externalId = externalId;
      this.sessionName = sessionName;
      this.stsEndpoint = stsEndpoint;
    }
  }

  /**
   * The credentials for {@code role} (or the default chain's without one); what must be closed with them is
   * added to {@code resources}. Credentials are refreshed before they expire, on the calling thread.
   */
  public static AwsCredentialsProvider provider(Optional<Role> role, Region region, String userAgent,
      List<AutoCloseable> resources) {
    return provider(role, region, userAgent, resources, c -> { });
  }

  /** The same, with {@code instrument} applied to the STS client's configuration (a catalog's metrics). */
  static AwsCredentialsProvider provider(Optional<Role> role, Region region, String userAgent,
      List<AutoCloseable> resources, java.util.function.Consumer<ClientOverrideConfiguration.Builder> instrument) {
    DefaultCredentialsProvider base = DefaultCredentialsProvider.builder().build();
    resources.add(base);
    if (role.isEmpty()) {
      return base;
    }
    Role r = role.get();
    StsClient sts = StsClient.builder()
        .region(region)
        .credentialsProvider(base)
        .applyMutation(b -> r.stsEndpoint.ifPresent(b::endpointOverride))
        .overrideConfiguration(c -> instrument.accept(c.putAdvancedOption(SdkAdvancedClientOption.USER_AGENT_SUFFIX, userAgent)))
        .build();
    resources.add(sts);
    StsAssumeRoleCredentialsProvider assumed = StsAssumeRoleCredentialsProvider.builder()
        .stsClient(sts)
        .refreshRequest(q -> q.roleArn(r.arn).roleSessionName(r.sessionName).externalId(r.externalId.orElse(null)))
        .asyncCredentialUpdateEnabled(false)
        .build();
    resources.add(assumed);
    return assumed;
  }

  /** gluecat's user agent suffix, which names the catalog (and, for S3A's credentials, says so). */
  public static String userAgent(String catalog, String purpose) {
    String v = AwsCredentials.class.getPackage().getImplementationVersion();
    return "gluecat/" + (v == null ? "dev" : v) + " catalog/" + catalog + (purpose.isEmpty() ? "" : " " + purpose);
  }
}
