package io.gluecat.testkit;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.GlueException;

/** The moto fixture as a second Glue: IAM enforced per principal, a refusal in the shape moto gives it. */
class MotoTest {
  private static Moto moto;

  @BeforeAll
  static void start() {
    moto = Moto.withIam();
  }

  @AfterAll
  static void stop() {
    moto.close();
  }

  @Test
  void aPrincipalMayCallOnlyWhatItsPolicyAllows() {
    AwsBasicCredentials reader = moto.principal("kit-reader", "{\"Version\":\"2012-10-17\",\"Statement\":[{"
        + "\"Effect\":\"Allow\",\"Action\":[\"glue:GetDatabase\",\"glue:GetDatabases\"],\"Resource\":\"*\"}]}");
    try (GlueClient admin = glue(moto.admin()); GlueClient glue = glue(reader)) {
      admin.createDatabase(r -> r.databaseInput(d -> d.name("kit_db")));
      assertTrue(glue.getDatabases(r -> {}).databaseList().stream().anyMatch(d -> d.name().equals("kit_db")));
      GlueException denied = assertThrows(GlueException.class,
          () -> glue.createDatabase(r -> r.databaseInput(d -> d.name("kit_denied"))));
      // moto's 403 has an XML body the Glue (JSON) client cannot read: no error code reaches the SDK
      assertEquals(403, denied.statusCode());
      assertFalse(admin.getDatabases(r -> {}).databaseList().stream().anyMatch(d -> d.name().equals("kit_denied")));
    }
  }

  @Test
  void theProcessBackendRunsMotoAsAChildProcess() {
    // the kit's own suite sets -Dgluecat.fixtures=process: the fallback stays exercised (containers:
    // FixtureContainersTest)
    assumeTrue("process".equals(io.gluecat.testkit.containers.Backend.mode()), "not on the process backend");
    assertFalse(moto.inContainer());
    assertTrue(moto.logFile().getFileName().toString().startsWith("moto-"), moto.logFile().toString());
  }

  @Test
  void keysMotoDoesNotKnowAreRefused() {
    try (GlueClient stranger = glue(AwsBasicCredentials.create("AKIAUNKNOWN000000000", "secret"))) {
      GlueException refused = assertThrows(GlueException.class, () -> stranger.getDatabases(r -> {}));
      assertEquals(403, refused.statusCode());
    }
  }

  private static GlueClient glue(AwsBasicCredentials credentials) {
    return GlueClient.builder().endpointOverride(moto.endpoint()).region(Region.of(Moto.REGION))
        .credentialsProvider(StaticCredentialsProvider.create(credentials)).build();
  }
}
