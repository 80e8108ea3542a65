package io.gluecat.it.runtime;

/** The runtime journey with gluecat as spark_catalog (session mode), in the same JVM as the named one. */
class SessionModeRuntimeJourneyIT extends RuntimeJourney {
  @Override
  protected boolean sessionMode() {
    return true;
  }
}
