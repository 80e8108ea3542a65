package io.gluecat.s3a;

import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.auth.BasicSessionCredentials;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * S3A credentials from a gluecat catalog's role (Hadoop 3.3's S3A takes AWS SDK v1 providers; the role
 * itself is assumed with gluecat's SDK v2 STS client). A catalog with {@code role.arn} sets this as its
 * tables' {@code fs.s3a.aws.credentials.provider}; see {@link RoleCredentials}.
 */
public final class CatalogRoleCredentialsProvider implements AWSCredentialsProvider {
  private final AwsCredentialsProvider role;

  public CatalogRoleCredentialsProvider(URI bucket, Configuration conf) {
    this.role = RoleCredentials.of(conf);
  }

  @Override
  public AWSCredentials getCredentials() {
    software.amazon.awssdk.auth.credentials.AwsCredentials c = role.resolveCredentials();
    return c instanceof AwsSessionCredentials
        ? new BasicSessionCredentials(c.accessKeyId(), c.secretAccessKey(), ((AwsSessionCredentials) c).sessionToken())
        : new BasicAWSCredentials(c.accessKeyId(), c.secretAccessKey());
  }

  @Override
  public void refresh() {
    // the role session refreshes itself before it expires
  }
}
