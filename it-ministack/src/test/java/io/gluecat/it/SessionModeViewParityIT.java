package io.gluecat.it;

/** {@link ViewParityIT} with gluecat as spark_catalog. */
class SessionModeViewParityIT extends ViewParityIT {
  @Override
  protected boolean sessionMode() {
    return true;
  }
}
