package io.gluecat.legacyhive;

/**
 * The cases with the bridge as transport and gluecat as spark_catalog of a session of its own (session
 * mode): the Hive path keeps spark_catalog of its session, so gluecat's session is a new session of the same
 * SparkContext.
 */
class LegacyHiveGlueCompatSessionModeIT extends LegacyHiveGlueCompatCases {
  @Override
  LegacyHive.Mode transportMode() {
    return LegacyHive.Mode.BRIDGE;
  }

  @Override
  boolean sessionMode() {
    return true;
  }
}
