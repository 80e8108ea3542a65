package io.gluecat.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.testkit.MiniStack;
import java.net.URI;
import java.net.URLClassLoader;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The runtime jar's S3A credentials provider, loaded as S3A loads it: by name, from the runtime jar, beside
 * the AWS SDK and Hadoop a Spark installation has. S3A (Hadoop 3.4) accepts a provider only if it implements
 * the SDK v2 {@code AwsCredentialsProvider} it sees itself, unrelocated; on Hadoop 3.3 the SDK v1 interface.
 * The provider assumes the catalog's role through MiniStack's STS with gluecat's relocated SDK and hands the
 * keys over in the unrelocated types.
 */
class S3AProviderIT {
  private static final String PROVIDER = "io.gluecat.s3a.CatalogCredentialsProvider";
  private static final String ROLE = "arn:aws:iam::000000000000:role/gluecat-runtime-s3a";

  private static MiniStack ministack;
  private static URLClassLoader runtime;

  @BeforeAll
  static void start() {
    ministack = MiniStack.shared();
    runtime = Artifacts.runtimeLoader();
    // the base credentials the role is assumed with: the default chain, as on a cluster
    System.setProperty("aws.accessKeyId", MiniStack.ACCESS_KEY_ID);
    System.setProperty("aws.secretAccessKey", MiniStack.SECRET_ACCESS_KEY);
  }

  @AfterAll
  static void close() throws Exception {
    runtime.close();
  }

  private static Configuration roleSettings() {
    // the settings a catalog with role.arn gives its tables (CatalogHadoopConf), as S3A passes them on
    Configuration conf = new Configuration(false);
    conf.set("fs.s3a.aws.credentials.provider", PROVIDER);
    conf.set("fs.s3a.gluecat.role.arn", ROLE);
    conf.set("fs.s3a.gluecat.role.session-name", "gluecat-runtime-check");
    conf.set("fs.s3a.gluecat.sts.endpoint", ministack.endpoint().toString());
    conf.set("fs.s3a.gluecat.region", MiniStack.REGION.id());
    conf.set("fs.s3a.gluecat.catalog", "lake");
    return conf;
  }

  @Test
  void theProviderImplementsTheInterfaceS3aSees() throws Exception {
    Class<?> provider = Class.forName(PROVIDER, true, runtime);
    assertSame(runtime, provider.getClassLoader(), "the provider must come from the runtime jar");
    Class<?> expected = Class.forName(s3aInterface(), false, S3AProviderIT.class.getClassLoader());
    assertTrue(expected.isAssignableFrom(provider), PROVIDER + " in the runtime jar does not implement " + expected.getName()
        + " as S3A sees it; it implements " + java.util.Arrays.toString(provider.getInterfaces()));
  }

  @Test
  void theProviderAssumesTheCatalogRoleAndAnswersInTheUnrelocatedTypes() throws Exception {
    // what S3A does: the (URI, Configuration) constructor, then the interface's method
    Object provider = Class.forName(PROVIDER, true, runtime).getConstructor(URI.class, Configuration.class)
        .newInstance(URI.create("s3a://some-bucket"), roleSettings());
    Object credentials;
    String token;
    if ("v2".equals(Artifacts.property("gluecat.s3a.sdk"))) {
      credentials = Class.forName("software.amazon.awssdk.auth.credentials.AwsCredentialsProvider")
          .getMethod("resolveCredentials").invoke(provider);
      Class<?> session = Class.forName("software.amazon.awssdk.auth.credentials.AwsSessionCredentials");
      assertTrue(session.isInstance(credentials), credentials.getClass().getName());
      token = (String) session.getMethod("sessionToken").invoke(credentials);
    } else {
      credentials = Class.forName("com.amazonaws.auth.AWSCredentialsProvider")
          .getMethod("getCredentials").invoke(provider);
      Class<?> session = Class.forName("com.amazonaws.auth.AWSSessionCredentials");
      assertTrue(session.isInstance(credentials), credentials.getClass().getName());
      token = (String) session.getMethod("getSessionToken").invoke(credentials);
    }
    assertNotNull(token);
    assertFalse(token.isEmpty());
    // the role's keys, not the base keys the role was assumed with
    String accessKey = (String) credentials.getClass().getMethod(
        "v2".equals(Artifacts.property("gluecat.s3a.sdk")) ? "accessKeyId" : "getAWSAccessKeyId").invoke(credentials);
    assertFalse(MiniStack.ACCESS_KEY_ID.equals(accessKey), "S3A would get the base keys, not the role's");
  }

  @Test
  void withoutKeysOrARoleTheProviderAnswersWithTheDefaultChain() throws Exception {
    Configuration conf = roleSettings();
    conf.unset("fs.s3a.gluecat.role.arn");
    Object provider = Class.forName(PROVIDER, true, runtime).getConstructor(URI.class, Configuration.class)
        .newInstance(URI.create("s3a://some-bucket"), conf);
    boolean v2 = "v2".equals(Artifacts.property("gluecat.s3a.sdk"));
    Object credentials = v2
        ? Class.forName("software.amazon.awssdk.auth.credentials.AwsCredentialsProvider")
            .getMethod("resolveCredentials").invoke(provider)
        : Class.forName("com.amazonaws.auth.AWSCredentialsProvider").getMethod("getCredentials").invoke(provider);
    String accessKey = (String) credentials.getClass().getMethod(v2 ? "accessKeyId" : "getAWSAccessKeyId")
        .invoke(credentials);
    assertEquals(MiniStack.ACCESS_KEY_ID, accessKey);   // the base keys of the default chain (system properties)
  }

  private static String s3aInterface() {
    return "v2".equals(Artifacts.property("gluecat.s3a.sdk"))
        ? "software.amazon.awssdk.auth.credentials.AwsCredentialsProvider"
        : "com.amazonaws.auth.AWSCredentialsProvider";
  }
}
