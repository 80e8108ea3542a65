package io.gluecat.s3a;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * S3A credentials from a gluecat catalog's role (Hadoop 3.4's S3A takes AWS SDK v2 providers). A catalog
 * with {@code role.arn} sets this as its tables' {@code fs.s3a.aws.credentials.provider}; see
 * {@link RoleCredentials}. S3A's own assumed-role provider would need the SDK bundle.
 */
public final class CatalogRoleCredentialsProvider implements AwsCredentialsProvider {
  private final AwsCredentialsProvider role;

  public CatalogRoleCredentialsProvider(URI bucket, Configuration conf) {
    this.role = RoleCredentials.of(conf);
  }

  @Override
  public AwsCredentials resolveCredentials() {
    return role.resolveCredentials();
  }
}
