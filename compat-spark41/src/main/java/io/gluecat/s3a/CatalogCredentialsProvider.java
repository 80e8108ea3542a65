package io.gluecat.s3a;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;

/**
 * S3A credentials of a gluecat catalog (Hadoop 3.4's S3A takes AWS SDK v2 providers): its static keys or
 * its role, see {@link S3ACredentials}. gluecat sets it as its tables' {@code fs.s3a.aws.credentials.provider}.
 */
public final class CatalogCredentialsProvider implements AwsCredentialsProvider {
  private final AwsCredentialsProvider credentials;

  public CatalogCredentialsProvider(URI bucket, Configuration conf) {
    this.credentials = S3ACredentials.of(bucket, conf);
  }

  @Override
  public AwsCredentials resolveCredentials() {
    return credentials.resolveCredentials();
  }
}
