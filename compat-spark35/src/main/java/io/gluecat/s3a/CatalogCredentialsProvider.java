package io.gluecat.s3a;

import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.auth.BasicSessionCredentials;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/**
 * S3A credentials of a gluecat catalog (Hadoop 3.3's S3A takes AWS SDK v1 providers; gluecat resolves them
 * with SDK v2): its static keys or its role, see {@link S3ACredentials}. gluecat sets it as its tables'
 * {@code fs.s3a.aws.credentials.provider}.
 *
 * <p>S3A-facing: the runtime jar carries this class unrelocated (as on the Hadoop 3.4 line, where that
 * matters), so it uses gluecat only through {@link S3ACredentials#session} and {@link S3ACredentials.Keys},
 * whose signatures name no SDK type.
 */
public final class CatalogCredentialsProvider implements AWSCredentialsProvider {
  private final S3ACredentials.Session credentials;

  public CatalogCredentialsProvider(URI bucket, Configuration conf) {
    this.credentials = S3ACredentials.session(bucket, conf);
  }

  @Override
  public AWSCredentials getCredentials() {
    S3ACredentials.Keys k = credentials.keys();
    return k.sessionToken == null
        ? new BasicAWSCredentials(k.accessKeyId, k.secretAccessKey)
        : new BasicSessionCredentials(k.accessKeyId, k.secretAccessKey, k.sessionToken);
  }

  @Override
  public void refresh() {
    // static keys do not change; a role session refreshes itself before it expires
  }
}
