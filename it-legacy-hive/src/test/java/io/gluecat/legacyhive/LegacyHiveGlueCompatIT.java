package io.gluecat.legacyhive;

/** The cases with the bridge as transport and gluecat as a catalog of its own (named mode). */
class LegacyHiveGlueCompatIT extends LegacyHiveGlueCompatCases {
  @Override
  LegacyHive.Mode transportMode() {
    return LegacyHive.Mode.BRIDGE;
  }
}
