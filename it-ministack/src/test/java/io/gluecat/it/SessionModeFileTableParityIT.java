package io.gluecat.it;

/** {@link FileTableParityIT} with gluecat as spark_catalog. */
class SessionModeFileTableParityIT extends FileTableParityIT {
  @Override
  protected boolean sessionMode() {
    return true;
  }
}
