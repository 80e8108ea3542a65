package io.gluecat.s3a;

import io.gluecat.storage.CatalogHadoopConf;
import io.gluecat.storage.CatalogSecrets;
import java.net.URI;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsSessionCredentials;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The credentials behind {@code io.gluecat.s3a.CatalogCredentialsProvider} (one class per Spark line,
 * because S3A takes SDK v1 providers on Hadoop 3.3 and SDK v2 providers on Hadoop 3.4), for one bucket:
 * <ol>
 *   <li>the catalog's static keys ({@code hadoop.fs.s3a[.bucket.<b>].access.key}, {@code .secret.key},
 *       {@code .session.token}), found through the table's reference to the catalog (see CatalogSecrets),
 *       because secret settings never travel with a table;</li>
 *   <li>else the catalog's role ({@code role.arn}), assumed with the default chain (see RoleCredentials);</li>
 *   <li>else the SDK's default chain, as S3A's own default would.</li>
 * </ol>
 *
 * <p>The providers S3A loads by name call this class only through {@link #session} and {@link Keys}, whose
 * signatures carry no AWS SDK type: in the runtime jar gluecat's SDK is relocated, while those providers are
 * kept unrelocated (S3A on Hadoop 3.4 needs them to implement the unrelocated SDK v2 interface), so a call
 * from them that named an SDK type would name one the relocated code no longer has (runtime/README.md).
 */
public final class S3ACredentials {
  private S3ACredentials() {}

  /** The credentials for one bucket, as the S3A-facing providers see them. */
  public static Session session(URI bucket, Configuration conf) {
    return new Session(of(bucket, conf));
  }

  /** A bucket's credentials as plain strings, refreshed by the provider behind them. */
  public static final class Session {
    private final AwsCredentialsProvider provider;

    private Session(AwsCredentialsProvider provider) {
      this.provider = provider;
    }

    /** The current keys. */
    public Keys keys() {
      software.amazon.awssdk.auth.credentials.AwsCredentials c = provider.resolveCredentials();
      return new Keys(c.accessKeyId(), c.secretAccessKey(),
          c instanceof AwsSessionCredentials ? ((AwsSessionCredentials) c).sessionToken() : null);
    }
  }

  /** Access key, secret key and session token (null for long-term keys). */
  public static final class Keys {
    public final String accessKeyId;
    public final String secretAccessKey;
    public final String sessionToken;

    Keys(String accessKeyId, String secretAccessKey, String sessionToken) {
      this.accessKeyId = accessKeyId;
      this.secretAccessKey = secretAccessKey;
      this.sessionToken = sessionToken;
    }

    @Override
    public String toString() {
      return "Keys[" + accessKeyId + ", secret and token hidden]";
    }
  }

  public static AwsCredentialsProvider of(URI bucket, Configuration conf) {
    String ref = conf.getTrimmed(CatalogHadoopConf.CATALOG_REF, "");
    String name = bucket == null ? null : bucket.getHost();
    Optional<String> access = secret(ref, name, "access.key");
    Optional<String> secret = secret(ref, name, "secret.key");
    if (access.isPresent() && secret.isPresent()) {
      Optional<String> token = secret(ref, name, "session.token");
      return StaticCredentialsProvider.create(token.isPresent()
          ? AwsSessionCredentials.create(access.get(), secret.get(), token.get())
          : AwsBasicCredentials.create(access.get(), secret.get()));
    }
    String arn = conf.getTrimmed(CatalogHadoopConf.ROLE_ARN);
    if (arn != null && !arn.isEmpty()) {
      return RoleCredentials.of(conf);
    }
    return DefaultCredentialsProvider.builder().build();
  }

  /** A bucket's own setting first, then the catalog-wide one, as S3A itself prefers them. */
  private static Optional<String> secret(String ref, String bucket, String key) {
    if (ref.isEmpty()) {
      return Optional.empty();
    }
    Optional<String> own = bucket == null ? Optional.empty()
        : CatalogSecrets.get(ref, "fs.s3a.bucket." + bucket + "." + key);
    return own.isPresent() ? own : CatalogSecrets.get(ref, "fs.s3a." + key);
  }
}
