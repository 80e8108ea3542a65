package io.gluecat.iceberg;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.config.CatalogOptions;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What Iceberg's catalog behind a gluecat catalog is configured with: the gluecat catalog's own settings. */
class IcebergPropertiesTest {
  /** Where gluecat's runtime jar relocates the AWS SDK: Iceberg makes its own AWS clients. */
  private static final Optional<String> OWN_CLIENTS = Optional.empty();
  private static final Optional<String> LENT = Optional.of("token-1");

  private static CatalogOptions options(String... keysAndValues) {
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return CatalogOptions.parse("lake", map);
  }

  @Test
  void theGlueAccountRegionEndpointAndWarehouseAreTheCatalogsOwn() {
    Map<String, String> p = IcebergProperties.of(options("glue.id", "123456789012", "region", "eu-west-1",
        "glue.endpoint", "http://localhost:4566", "warehouse", "s3a://lake/warehouse/", "glue.skip-archive", "true"), Map.of(), OWN_CLIENTS);

    assertEquals("org.apache.iceberg.aws.glue.GlueCatalog", p.get("catalog-impl"));
    assertEquals("123456789012", p.get("glue.id"));
    assertEquals("eu-west-1", p.get("client.region"));
    assertEquals("http://localhost:4566", p.get("glue.endpoint"));
    assertEquals("s3a://lake/warehouse", p.get("warehouse"));
    assertEquals("true", p.get("glue.skip-archive"));
    // files through Hadoop, with the catalog's storage settings, as its other tables' files
    assertEquals("io.gluecat.iceberg.CatalogHadoopFileIO", p.get("io-impl"));
    // every statement sees Glue's current entry, as for the catalog's other tables
    assertEquals("false", p.get("cache-enabled"));
    assertFalse(p.containsKey("client.factory"), "no role: Iceberg's default credentials, as gluecat's");
  }

  @Test
  void aRoleIsAssumedByIcebergsFactoryInTheCatalogsRegion() {
    Map<String, String> p = IcebergProperties.of(options("region", "us-east-1",
        "role.arn", "arn:aws:iam::123456789012:role/lake-reader", "role.external-id", "ext-42"), Map.of(), OWN_CLIENTS);

    assertEquals("org.apache.iceberg.aws.AssumeRoleAwsClientFactory", p.get("client.factory"));
    assertEquals("arn:aws:iam::123456789012:role/lake-reader", p.get("client.assume-role.arn"));
    assertEquals("us-east-1", p.get("client.assume-role.region"));
    assertEquals("ext-42", p.get("client.assume-role.external-id"));
    assertEquals("gluecat-lake", p.get("client.assume-role.session-name"));
  }

  @Test
  void aRoleWithoutARegionOrWithAnStsEndpointIsRefusedNamingTheCatalog() {
    UnsupportedOperationException noRegion = assertThrows(UnsupportedOperationException.class,
        () -> IcebergProperties.of(options("role.arn", "arn:aws:iam::123456789012:role/r"), Map.of(), OWN_CLIENTS));
    assertTrue(noRegion.getMessage().contains("'lake'") && noRegion.getMessage().contains("region"),
        noRegion.getMessage());
    UnsupportedOperationException sts = assertThrows(UnsupportedOperationException.class,
        () -> IcebergProperties.of(options("region", "us-east-1", "role.arn", "arn:aws:iam::123456789012:role/r",
            "sts.endpoint", "http://localhost:4566"), Map.of(), OWN_CLIENTS));
    assertTrue(sts.getMessage().contains("'lake'") && sts.getMessage().contains("sts.endpoint"), sts.getMessage());
  }

  @Test
  void theCatalogsStorageSettingsReachIcebergsFilesWithoutSecrets() {
    CatalogOptions options = options("region", "eu-west-1", "role.arn", "arn:aws:iam::123456789012:role/lake-reader",
        "hadoop.fs.s3a.endpoint", "http://localhost:4566", "hadoop.fs.s3a.secret.key", "not-for-iceberg-properties");
    Map<String, String> p = IcebergProperties.of(options, new CatalogHadoopConf(options).properties(), OWN_CLIENTS);

    // what gluecat derives (S3A's region, the role's provider), and the hadoop.* options
    assertEquals("eu-west-1", p.get("gluecat.hadoop.fs.s3a.endpoint.region"));
    assertEquals(CatalogHadoopConf.PROVIDER_CLASS, p.get("gluecat.hadoop.fs.s3a.aws.credentials.provider"));
    assertEquals("arn:aws:iam::123456789012:role/lake-reader", p.get("gluecat.hadoop.fs.s3a.gluecat.role.arn"));
    assertEquals("http://localhost:4566", p.get("gluecat.hadoop.fs.s3a.endpoint"));
    assertFalse(p.values().contains("not-for-iceberg-properties"), "no secret among Iceberg's properties: " + p);
  }

  @Test
  void theCatalogFileIoAddsTheSettingsToIcebergsConfiguration() {
    org.apache.hadoop.conf.Configuration given = new org.apache.hadoop.conf.Configuration(false);
    given.set("fs.s3a.endpoint", "http://session:4566");
    given.set("fs.s3a.path.style.access", "true");
    CatalogHadoopFileIO io = new CatalogHadoopFileIO();
    io.setConf(given);
    io.initialize(Map.of("gluecat.hadoop.fs.s3a.endpoint", "http://catalog:4566",
        "gluecat.hadoop.fs.s3a.endpoint.region", "eu-west-1", "warehouse", "s3a://lake/"));

    assertEquals("http://catalog:4566", io.conf().get("fs.s3a.endpoint"), "the catalog's settings win");
    assertEquals("eu-west-1", io.conf().get("fs.s3a.endpoint.region"));
    assertEquals("true", io.conf().get("fs.s3a.path.style.access"), "Iceberg's own settings stay");
    assertEquals(null, io.conf().get("warehouse"), "only the catalog's storage settings");
    assertEquals("http://session:4566", given.get("fs.s3a.endpoint"), "Iceberg's configuration is not changed");
  }

  @Test
  void theCachesTtlIsIcebergsTableCache() {
    Map<String, String> p = IcebergProperties.of(options("cache.ttl", "5m"), Map.of(), OWN_CLIENTS);

    assertEquals("true", p.get("cache-enabled"));
    assertEquals("300000", p.get("cache.expiration-interval-ms"));
  }

  @Test
  void icebergOptionsPassAsGivenButNeverOverWhatTheCatalogDerives() {
    CatalogOptions given = options("iceberg.io-impl", "org.apache.iceberg.aws.s3.S3FileIO", "iceberg.s3.endpoint",
        "http://localhost:4566");
    IcebergProperties.checkOptions(given);
    Map<String, String> p = IcebergProperties.of(given, Map.of(), OWN_CLIENTS);
    assertEquals("org.apache.iceberg.aws.s3.S3FileIO", p.get("io-impl"));
    assertEquals("http://localhost:4566", p.get("s3.endpoint"));

    for (String derived : new String[] {"glue.id", "catalog-impl", "Client.Region", "client.assume-role.arn"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
          () -> IcebergProperties.checkOptions(options("iceberg." + derived, "x")));
      assertTrue(e.getMessage().contains("'lake'") && e.getMessage().contains("iceberg." + derived), e.getMessage());
    }
    IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> options("iceberg.", "x"));
    assertTrue(empty.getMessage().contains("iceberg."), empty.getMessage());
  }

  @Test
  void withTheCatalogsGlueClientLentIcebergReachesGlueThroughIt() {
    Map<String, String> p = IcebergProperties.of(options("region", "us-east-1"), Map.of(), LENT);

    assertEquals("io.gluecat.iceberg.CatalogAwsClientFactory", p.get("client.factory"));
    assertEquals("token-1", p.get("gluecat.glue-client"));
  }

  @Test
  void withTheClientLentARoleNeedsNothingOfIcebergsOwnAndAnStsEndpointIsServed() {
    Map<String, String> p = IcebergProperties.of(options("region", "us-east-1",
        "role.arn", "arn:aws:iam::123456789012:role/r", "sts.endpoint", "http://localhost:4566"), Map.of(), LENT);

    assertEquals("io.gluecat.iceberg.CatalogAwsClientFactory", p.get("client.factory"));
    assertFalse(p.keySet().stream().anyMatch(k -> k.startsWith("client.assume-role.")), p.toString());
  }

  @Test
  void withAnotherFileIoIcebergsOwnS3ClientsAssumeTheRole() {
    Map<String, String> p = IcebergProperties.of(options("region", "us-east-1", "role.arn",
        "arn:aws:iam::123456789012:role/r", "iceberg.io-impl", "org.apache.iceberg.aws.s3.S3FileIO"), Map.of(), LENT);

    assertEquals("io.gluecat.iceberg.CatalogAwsClientFactory", p.get("client.factory"), "Glue: the lent client");
    assertEquals("arn:aws:iam::123456789012:role/r", p.get("client.assume-role.arn"), "S3: Iceberg's, with the role");
    UnsupportedOperationException sts = assertThrows(UnsupportedOperationException.class,
        () -> IcebergProperties.of(options("region", "us-east-1", "role.arn", "arn:aws:iam::123456789012:role/r",
            "sts.endpoint", "http://localhost:4566", "iceberg.io-impl", "org.apache.iceberg.aws.s3.S3FileIO"),
            Map.of(), LENT));
    assertTrue(sts.getMessage().contains("iceberg.io-impl"), sts.getMessage());
  }

  @Test
  void theLentClientTokenIsTheCatalogsToSet() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> IcebergProperties.checkOptions(options("iceberg.gluecat.glue-client", "other")));
    assertTrue(e.getMessage().contains("iceberg.gluecat.glue-client"), e.getMessage());
  }
}
