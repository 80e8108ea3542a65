package io.gluecat.s3a;

import io.gluecat.glue.AwsCredentials;
import io.gluecat.storage.CatalogHadoopConf;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;

/**
 * A catalog's role for {@code io.gluecat.s3a.CatalogCredentialsProvider} (one class per Spark line,
 * because S3A takes SDK v1 providers on Hadoop 3.3 and SDK v2 providers on Hadoop 3.4): a catalog's role,
 * assumed with the default credential chain, as described by the {@code fs.s3a.gluecat.*} settings that
 * {@link CatalogHadoopConf} derives from the catalog's options.
 *
 * <p>S3A creates a provider for every FileSystem it opens, on the driver and on executors; one role session
 * per distinct role setting is kept for the JVM's life, so that they do not each call AssumeRole.
 */
public final class RoleCredentials {
  private static final Map<List<String>, AwsCredentialsProvider> SESSIONS = new ConcurrentHashMap<>();

  private RoleCredentials() {}

  /** The role session the configuration describes; fails, naming the setting, when it names no role. */
  public static AwsCredentialsProvider of(Configuration conf) {
    String arn = conf.getTrimmed(CatalogHadoopConf.ROLE_ARN);
    if (arn == null || arn.isEmpty()) {
      throw new IllegalArgumentException(String.format("%s needs %s, which a gluecat catalog with role.arn sets "
          + "for its tables; it cannot be used on its own", CatalogHadoopConf.PROVIDER_CLASS,
          CatalogHadoopConf.ROLE_ARN));
    }
    String catalog = conf.getTrimmed(CatalogHadoopConf.ROLE_CATALOG, "");
    String externalId = conf.getTrimmed(CatalogHadoopConf.ROLE_EXTERNAL_ID);
    String sessionName = conf.getTrimmed(CatalogHadoopConf.ROLE_SESSION_NAME, "gluecat-s3a");
    String stsEndpoint = conf.getTrimmed(CatalogHadoopConf.ROLE_STS_ENDPOINT);
    String region = conf.getTrimmed(CatalogHadoopConf.ROLE_REGION);
    List<String> key = Arrays.asList(arn, externalId, sessionName, stsEndpoint, region, catalog);
    return SESSIONS.computeIfAbsent(key, k -> AwsCredentials.provider(
        Optional.of(new AwsCredentials.Role(arn, Optional.ofNullable(externalId), sessionName,
            Optional.ofNullable(stsEndpoint).map(URI::create))),
        region == null ? new DefaultAwsRegionProviderChain().getRegion() : Region.of(region),
        AwsCredentials.userAgent(catalog, "s3a"),
        new ArrayList<>())); // kept open for the JVM's life, like the map that holds them
  }
}
