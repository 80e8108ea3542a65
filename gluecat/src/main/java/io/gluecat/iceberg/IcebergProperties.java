package io.gluecat.iceberg;

import io.gluecat.config.CatalogOptions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The properties of the Iceberg catalog behind a gluecat catalog's Iceberg tables, all derived from the gluecat
 * catalog's own options, so that it reaches the same Glue account, region and endpoint under the same role: Iceberg's
 * GlueCatalog; files through Iceberg's Hadoop FileIO with the catalog's own storage settings, as its other tables
 * have them ({@link CatalogHadoopFileIO}); Iceberg's table cache on only while gluecat's own cache across statements
 * is ({@code cache.ttl}). Whatever else Iceberg takes comes from the catalog's {@code iceberg.*} options, as given.
 */
final class IcebergProperties {
  static final String GLUE_CATALOG = "org.apache.iceberg.aws.glue.GlueCatalog";
  static final String CATALOG_FILE_IO = "io.gluecat.iceberg.CatalogHadoopFileIO";
  static final String ASSUME_ROLE_FACTORY = "org.apache.iceberg.aws.AssumeRoleAwsClientFactory";
  static final String LENT_CLIENT_FACTORY = "io.gluecat.iceberg.CatalogAwsClientFactory";
  /** The token by which {@link CatalogAwsClientFactory} finds the Glue client its gluecat catalog lends. */
  static final String LENT_CLIENT = "gluecat.glue-client";
  private static final String ASSUME_ROLE = "client.assume-role.";

  /** The Iceberg properties gluecat sets from its own options, which an {@code iceberg.*} option may not set. */
  static final List<String> DERIVED = List.of("catalog-impl", "warehouse", "glue.id", "glue.endpoint",
      "glue.skip-archive", "client.region", "client.factory", "cache-enabled", "cache.expiration-interval-ms", LENT_CLIENT);

  private IcebergProperties() {}

  /**
   * Refuses, when the catalog starts, an {@code iceberg.*} option that would set what gluecat derives: an Iceberg
   * catalog on another account, region or endpoint than the gluecat catalog that names its tables.
   */
  static void checkOptions(CatalogOptions options) {
    for (String key : options.icebergOptions().keySet()) {
      String lower = key.toLowerCase(Locale.ROOT);
      if (DERIVED.contains(lower) || lower.startsWith(ASSUME_ROLE)) {
        throw new IllegalArgumentException(String.format("gluecat catalog '%s': option '%s%s' is not allowed: gluecat "
            + "sets Iceberg's %s from the catalog's own options (glue.id, region, glue.endpoint, glue.skip-archive, "
            + "warehouse, role.arn, cache.ttl), so that Iceberg tables are read where the catalog's other tables are",
            options.catalogName(), CatalogOptions.ICEBERG_PREFIX, key, key));
      }
    }
  }

  /**
   * The properties Iceberg's SparkCatalog is initialized with for this gluecat catalog, whose tables' storage
   * settings (secrets left out) are {@code storageSettings}. With {@code lentClient} (the token of the Glue client
   * the catalog lends, see {@link IcebergTables#lend}), Iceberg reaches Glue through the catalog's own client, role
   * included; without it (an AWS SDK relocated into gluecat's runtime jar, whose client Iceberg cannot take), Iceberg
   * makes its own clients, assuming the role with its AssumeRoleAwsClientFactory.
   */
  static Map<String, String> of(CatalogOptions options, Map<String, String> storageSettings,
      java.util.Optional<String> lentClient) {
    Map<String, String> p = new LinkedHashMap<>();
    p.put("catalog-impl", GLUE_CATALOG);
    p.put("io-impl", CATALOG_FILE_IO);
    storageSettings.forEach((k, v) -> p.put(CatalogHadoopFileIO.SETTING_PREFIX + k, v));
    options.warehouse().ifPresent(w -> p.put("warehouse", w));
    options.glueId().ifPresent(id -> p.put("glue.id", id));
    options.glueEndpoint().ifPresent(e -> p.put("glue.endpoint", e.toString()));
    p.put("glue.skip-archive", Boolean.toString(options.skipArchive()));
    options.region().ifPresent(r -> p.put("client.region", r));
    lentClient.ifPresent(token -> {
      p.put("client.factory", LENT_CLIENT_FACTORY);
      p.put(LENT_CLIENT, token);
    });
    // Iceberg's own AWS clients assume the role: all of them without a lent Glue client; with one, only the S3
    // and KMS clients of another FileIO (iceberg.io-impl), as gluecat's FileIO reads with the catalog's settings
    boolean ownFileIo = options.icebergOptions().keySet().stream().anyMatch(k -> k.equalsIgnoreCase("io-impl"));
    options.roleArn().filter(role -> lentClient.isEmpty() || ownFileIo).ifPresent(role -> {
      if (options.stsEndpoint().isPresent()) {
        throw new UnsupportedOperationException(String.format("gluecat catalog '%s': its Iceberg tables cannot be "
            + "served with role.arn and sts.endpoint together %s: Iceberg's AssumeRoleAwsClientFactory takes no STS "
            + "endpoint. Remove sts.endpoint, or read Iceberg tables through a catalog without role.arn",
            options.catalogName(), lentClient.isEmpty() ? "from gluecat's runtime jar" : "and iceberg.io-impl"));
      }
      String region = options.region().orElseThrow(() -> new UnsupportedOperationException(String.format(
          "gluecat catalog '%s': its Iceberg tables need the option region with role.arn (Iceberg's "
              + "AssumeRoleAwsClientFactory asks STS in that region)", options.catalogName())));
      if (lentClient.isEmpty()) {
        p.put("client.factory", ASSUME_ROLE_FACTORY);
      }
      p.put(ASSUME_ROLE + "arn", role);
      p.put(ASSUME_ROLE + "region", region);
      p.put(ASSUME_ROLE + "session-name", options.roleSessionName());
      options.roleExternalId().ifPresent(id -> p.put(ASSUME_ROLE + "external-id", id));
    });
    Duration ttl = options.cacheTtl();
    p.put("cache-enabled", Boolean.toString(!ttl.isZero()));
    if (!ttl.isZero()) {
      p.put("cache.expiration-interval-ms", Long.toString(ttl.toMillis()));
    }
    p.putAll(options.icebergOptions());
    return p;
  }
}
