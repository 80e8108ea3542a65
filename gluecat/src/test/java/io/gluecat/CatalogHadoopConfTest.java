package io.gluecat;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

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
    expected.put("fs.s3a.aws.credentials.provider", "io.gluecat.s3a.CatalogRoleCredentialsProvider");
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
}
