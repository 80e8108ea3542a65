package io.gluecat.s3a;

import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;

/**
 * S3A credentials of a gluecat catalog (the S3A of Hadoop 3.4 and 3.5 takes AWS SDK v2 providers): its static keys or
 * its role, see {@link S3ACredentials}. gluecat sets it as its tables' {@code fs.s3a.aws.credentials.provider}.
 *
 * <p>S3A-facing: S3A loads it by name and needs the SDK v2 interface hadoop-aws itself sees, so the runtime
 * jar carries this class unrelocated. It therefore uses gluecat only through {@link S3ACredentials#session}
 * and {@link S3ACredentials.Keys}, whose signatures name no SDK type (RuntimeJarIT and S3AProviderIT check it).
 */
public final class CatalogCredentialsProvider implements AwsCredentialsProvider {
  private final S3ACredentials.Session credentials;

  public CatalogCredentialsProvider(URI bucket, Configuration conf) {
    this.credentials = S3ACredentials.session(bucket, conf);
  }

  @Override
  public AwsCredentials resolveCredentials() {
    S3ACredentials.Keys k = credentials.keys();
    return k.sessionToken == null
        ? AwsBasicCredentials.create(k.accessKeyId, k.secretAccessKey)
        : AwsSessionCredentials.create(k.accessKeyId, k.secretAccessKey, k.sessionToken);
  }
}
