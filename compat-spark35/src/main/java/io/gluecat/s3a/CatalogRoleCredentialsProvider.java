package io.gluecat.s3a;

import com.amazonaws.auth.AWSCredentials;
import com.amazonaws.auth.AWSCredentialsProvider;
import com.amazonaws.auth.BasicAWSCredentials;
import com.amazonaws.auth.BasicSessionCredentials;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;

/**
 * S3A credentials from a gluecat catalog's role (Hadoop 3.3's S3A takes AWS SDK v1 providers; the role
 * itself is assumed with gluecat's SDK v2 STS client). A catalog with {@code role.arn} sets this as its
 * tables' {@code fs.s3a.aws.credentials.provider}; see {@link RoleCredentials}.
 *
 * <p>S3A-facing: the runtime jar carries this class unrelocated (as on the Hadoop 3.4 line, where that
 * matters), so it uses gluecat only through {@link RoleCredentials#session} and {@link RoleCredentials.Keys},
 * whose signatures name no SDK type.
 */
public final class CatalogRoleCredentialsProvider implements AWSCredentialsProvider {
  private final RoleCredentials.Session role;

  public CatalogRoleCredentialsProvider(URI bucket, Configuration conf) {
    this.role = RoleCredentials.session(conf);
  }

  @Override
  public AWSCredentials getCredentials() {
    RoleCredentials.Keys k = role.keys();
    return k.sessionToken == null
        ? new BasicAWSCredentials(k.accessKeyId, k.secretAccessKey)
        : new BasicSessionCredentials(k.accessKeyId, k.secretAccessKey, k.sessionToken);
  }

  @Override
  public void refresh() {
    // the role session refreshes itself before it expires
  }
}
