package io.gluecat.storage;

import io.gluecat.config.CatalogOptions;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

/** Which Hadoop settings a catalog's tables get, from which options. */
class CatalogHadoopConfTest {

  private static Map<String, String> derive(String... keyValues) {
    Map<String, String> options = new HashMap<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      options.put(keyValues[i], keyValues[i + 1]);
    }
    return CatalogHadoopConf.derive(CatalogOptions.parse("lake", options));
  }

  @Test
  void nothingWithoutOptions() {
    assertEquals(Map.of(), derive());
  }

  @Test
  void hadoopOptionsPassThroughWithTheirSpelling() {
    assertEquals(Map.of("fs.s3a.endpoint", "http://127.0.0.1:4566", "fs.s3a.path.style.access", "true"),
        derive("hadoop.fs.s3a.endpoint", "http://127.0.0.1:4566", "HADOOP.fs.s3a.path.style.access", "true"));
  }

  @Test
  void regionAndRoleServeS3A() {
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("fs.s3a.endpoint.region", "eu-west-1");
    expected.put("fs.s3a.aws.credentials.provider", "io.gluecat.s3a.CatalogCredentialsProvider");
    expected.put("fs.s3a.gluecat.role.arn", "arn:aws:iam::123456789012:role/lake");
    expected.put("fs.s3a.gluecat.role.external-id", "partner-7");
    expected.put("fs.s3a.gluecat.role.session-name", "gluecat-lake");
    expected.put("fs.s3a.gluecat.sts.endpoint", "https://sts.eu-west-1.amazonaws.com");
    expected.put("fs.s3a.gluecat.region", "eu-west-1");
    expected.put("fs.s3a.gluecat.catalog", "lake");
    assertEquals(expected, derive("region", "eu-west-1", "role.arn", "arn:aws:iam::123456789012:role/lake",
        "role.external-id", "partner-7", "sts.endpoint", "https://sts.eu-west-1.amazonaws.com"));
  }

  @Test
  void explicitS3ASettingsWin() {
    Map<String, String> conf = derive("region", "eu-west-1", "role.arn", "arn:aws:iam::123456789012:role/lake",
        "hadoop.fs.s3a.endpoint.region", "us-east-2", "hadoop.fs.s3a.access.key", "AKIDEXAMPLE");
    assertEquals("us-east-2", conf.get("fs.s3a.endpoint.region"));
    assertFalse(conf.containsKey("fs.s3a.aws.credentials.provider"), "given keys replace the role");
    assertFalse(conf.containsKey("fs.s3a.gluecat.role.arn"));

    conf = derive("role.arn", "arn:aws:iam::123456789012:role/lake",
        "hadoop.fs.s3a.aws.credentials.provider", "com.example.Provider");
    assertEquals("com.example.Provider", conf.get("fs.s3a.aws.credentials.provider"));
    assertFalse(conf.containsKey("fs.s3a.gluecat.role.arn"));
  }

  @Test
  void writeOptionsLayerTheCatalogThenTheTableThenTheCaller() {
    CatalogHadoopConf conf = new CatalogHadoopConf(CatalogOptions.parse("lake", Map.of(
        "hadoop.fs.s3a.endpoint", "http://catalog", "hadoop.fs.s3a.path.style.access", "true",
        "hadoop.fs.s3a.connection.maximum", "10")));
    Map<String, String> options = conf.writeOptions("lake.db.t",
        Map.of("fs.s3a.path.style.access", "false", "sep", ";"), Map.of("fs.s3a.connection.maximum", "99"));
    assertEquals("http://catalog", options.get("fs.s3a.endpoint"));
    assertEquals("true", options.get("fs.s3a.path.style.access"), "a table's own Hadoop settings are ignored");
    assertEquals("99", options.get("fs.s3a.connection.maximum"), "the caller's options win over both");
    assertEquals(";", options.get("sep"));
  }

  @Test
  void sparksWriteInfoKeepsEverythingButGainsTheSettings() {
    CatalogHadoopConf conf = new CatalogHadoopConf(CatalogOptions.parse("lake",
        Map.of("hadoop.fs.s3a.endpoint", "http://catalog")));
    StructType schema = new StructType().add("id", "long");
    LogicalWriteInfo info = new LogicalWriteInfo() {
      @Override
      public CaseInsensitiveStringMap options() {
        return new CaseInsensitiveStringMap(Map.of("mergeSchema", "true",
            "fs.s3a.endpoint", "http://caller"));
      }

      @Override
      public String queryId() {
        return "q-1";
      }

      @Override
      public StructType schema() {
        return schema;
      }
    };
    LogicalWriteInfo merged = conf.withDeltaWriteOptions(info);
    assertEquals("q-1", merged.queryId());
    assertSame(schema, merged.schema());
    assertEquals("true", merged.options().get("mergeSchema"));
    assertEquals("http://caller", merged.options().get("fs.s3a.endpoint"), "the caller's options win");
    assertSame(info, new CatalogHadoopConf(CatalogOptions.parse("bare", Map.of())).withDeltaWriteOptions(info),
        "a catalog without settings leaves the write as it is");
  }

  @Test
  void secretsNeverTravelWithTablesAndS3AKeysComeByReference() {
    CatalogHadoopConf conf = new CatalogHadoopConf(CatalogOptions.parse("lake", Map.of(
        "hadoop.fs.s3a.endpoint", "http://catalog",
        "hadoop.fs.s3a.aws.credentials.provider", "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
        "hadoop.fs.s3a.access.key", "AKID-planted", "hadoop.fs.s3a.secret.key", "SECRET-planted",
        "hadoop.fs.s3a.encryption.key", "SSEC-planted",
        "hadoop.fs.azure.account.key.acct.dfs.core.windows.net", "AZURE-planted")));
    Map<String, String> shared = conf.storageProperties("lake.db.t", Map.of());
    assertFalse(shared.toString().contains("planted"), shared.toString());
    assertEquals("io.gluecat.s3a.CatalogCredentialsProvider", shared.get("fs.s3a.aws.credentials.provider"),
        "S3A's static-key provider is replaced by gluecat's, which finds the keys by reference");
    String ref = shared.get(CatalogHadoopConf.CATALOG_REF);
    assertTrue(ref.startsWith("lake#"), ref);
    assertEquals(java.util.Optional.of("SECRET-planted"),
        io.gluecat.storage.CatalogSecrets.get(ref, "fs.s3a.secret.key"));
    assertEquals("http://catalog", shared.get("fs.s3a.endpoint"));
  }

  @Test
  void anEntrysHadoopSettingsAndClassNamesAreIgnored() {
    CatalogHadoopConf conf = new CatalogHadoopConf(CatalogOptions.parse("lake", Map.of(
        "hadoop.fs.s3a.endpoint", "http://catalog")));
    Map<String, String> loaded = conf.storageProperties("lake.db.t", Map.of("fs.s3a.endpoint", "http://elsewhere",
        "fs.s3a.bucket.b.endpoint", "http://elsewhere", "dfs.nameservices", "x", "hadoop.security.credential.provider.path",
        "jceks://x", "parquet.crypto.factory.class", "com.example.Evil", "header", "true", "compression", "snappy"));
    assertEquals(Map.of("fs.s3a.endpoint", "http://catalog", "header", "true", "compression", "snappy"), loaded);
  }

  /** Hadoop's defaults name S3A for s3a:, so without hadoop-aws the load fails; the message names the jar. */
  @Test
  void anUnloadableS3AFileSystemNamesHadoopAwsOfTheRunningHadoop() {
    String message = FileSystemRefusals.unloadable("glue", "table glue.sales.orders", "s3a://lake/orders",
        "s3a", "java.lang.ClassNotFoundException: Class org.apache.hadoop.fs.s3a.S3AFileSystem not found", "3.3.4");
    org.junit.jupiter.api.Assertions.assertTrue(message.startsWith("gluecat catalog 'glue': table glue.sales.orders is "
        + "at s3a://lake/orders, but the Hadoop file system configured for the scheme 's3a' cannot be loaded"), message);
    org.junit.jupiter.api.Assertions.assertTrue(message.contains("org.apache.hadoop:hadoop-aws:3.3.4"), message);
    org.junit.jupiter.api.Assertions.assertFalse(FileSystemRefusals.unloadable("glue", "t", "x://a", "x",
        "no class", "3.3.4").contains("hadoop-aws"));
  }

  @Test
  void theSettingsALoadAddsAreTheCatalogsEvenUnderAnEntrysIgnoredKey() {
    CatalogHadoopConf conf = new CatalogHadoopConf(CatalogOptions.parse("lake", Map.of("region", "eu-west-1",
        "hadoop.fs.s3a.endpoint", "http://catalog")));
    assertEquals(java.util.Set.of("fs.s3a.endpoint", "fs.s3a.endpoint.region"),
        conf.addedSettings(Map.of("fs.s3a.endpoint", "http://elsewhere", "compression", "snappy")));
  }
}
