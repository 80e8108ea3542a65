package io.gluecat.legacyhive;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The cases on the real AWS Glue Data Catalog client for Hive against MiniStack, gluecat in named mode. Runs
 * only when the client's jar is given ({@value LegacyHive#CLIENT_JAR_PROPERTY} or
 * {@value LegacyHive#CLIENT_JAR_ENV}); the client is not on Maven Central and needs a Hive patched for it, so
 * without one the suite is skipped, with that reason.
 */
class LegacyHiveGlueCompatGlueHiveClientIT extends LegacyHiveGlueCompatCases {
  @Override
  void assumeTransportAvailable() {
    assumeGlueHiveClient();
  }

  static void assumeGlueHiveClient() {
    assumeTrue(LegacyHive.clientJars().isPresent(), "the AWS Glue Data Catalog client for Hive is not on Maven Central "
        + "and needs a Hive patched for it; give its jar with -D" + LegacyHive.CLIENT_JAR_PROPERTY + "=<jar> or "
        + LegacyHive.CLIENT_JAR_ENV + " (and the patched Hive with " + LegacyHive.CLIENT_CLASSPATH_PROPERTY
        + ") to run these cases on it; the bridge suites ran them without it");
  }

  @Override
  LegacyHive.Mode transportMode() {
    return LegacyHive.Mode.GLUE_HIVE_CLIENT;
  }
}
