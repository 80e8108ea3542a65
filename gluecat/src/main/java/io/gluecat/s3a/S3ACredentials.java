package io.gluecat.s3a;

import io.gluecat.CatalogHadoopConf;
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
 */
public final class S3ACredentials {
  private S3ACredentials() {}

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
