package io.gluecat.legacyhive;

/** The cases on the real Glue client for Hive, gluecat in session mode; skipped without the client's jar. */
class LegacyHiveGlueCompatGlueHiveClientSessionModeIT extends LegacyHiveGlueCompatCases {
  @Override
  void assumeTransportAvailable() {
    LegacyHiveGlueCompatGlueHiveClientIT.assumeGlueHiveClient();
  }

  @Override
  LegacyHive.Mode transportMode() {
    return LegacyHive.Mode.GLUE_HIVE_CLIENT;
  }

  @Override
  boolean sessionMode() {
    return true;
  }
}
