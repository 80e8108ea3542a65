package io.gluecat.s3a;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * S3A credentials from a gluecat catalog's role (Hadoop 3.4's S3A takes AWS SDK v2 providers). A catalog
 * with {@code role.arn} sets this as its tables' {@code fs.s3a.aws.credentials.provider}; see
 * {@link RoleCredentials}. S3A's own assumed-role provider would need the SDK bundle.
 *
 * <p>S3A-facing: S3A loads it by name and needs the SDK v2 interface hadoop-aws itself sees, so the runtime
 * jar carries this class unrelocated. It therefore uses gluecat only through {@link RoleCredentials#session}
 * and {@link RoleCredentials.Keys}, whose signatures name no SDK type (RuntimeJarIT checks both).
 */
public final class CatalogRoleCredentialsProvider implements AwsCredentialsProvider {
  private final RoleCredentials.Session role;

  public CatalogRoleCredentialsProvider(URI bucket, Configuration conf) {
    this.role = RoleCredentials.session(conf);
  }

  @Override
  public AwsCredentials resolveCredentials() {
    RoleCredentials.Keys k = role.keys();
    return k.sessionToken == null
        ? AwsBasicCredentials.create(k.accessKeyId, k.secretAccessKey)
        : AwsSessionCredentials.create(k.accessKeyId, k.secretAccessKey, k.sessionToken);
  }
}
