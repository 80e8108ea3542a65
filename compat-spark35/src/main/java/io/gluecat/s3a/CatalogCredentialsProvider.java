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
 * S3A credentials of a gluecat catalog (Hadoop 3.3's S3A takes AWS SDK v1 providers; gluecat resolves them
 * with SDK v2): its static keys or its role, see {@link S3ACredentials}. gluecat sets it as its tables'
 * {@code fs.s3a.aws.credentials.provider}.
 */
public final class CatalogCredentialsProvider implements AWSCredentialsProvider {
  private final AwsCredentialsProvider credentials;

  public CatalogCredentialsProvider(URI bucket, Configuration conf) {
    this.credentials = S3ACredentials.of(bucket, conf);
  }

  @Override
  public AWSCredentials getCredentials() {
    software.amazon.awssdk.auth.credentials.AwsCredentials c = credentials.resolveCredentials();
    return c instanceof AwsSessionCredentials
        ? new BasicSessionCredentials(c.accessKeyId(), c.secretAccessKey(), ((AwsSessionCredentials) c).sessionToken())
        : new BasicAWSCredentials(c.accessKeyId(), c.secretAccessKey());
  }

  @Override
  public void refresh() {
    // static keys do not change; a role session refreshes itself before it expires
  }
}
