package io.gluecat.it.trino;

/** Every Trino → gluecat case again with gluecat as spark_catalog. */
class TrinoCompatSessionModeTrinoToGluecatIT extends TrinoCompatTrinoToGluecatIT {
  @Override
  protected boolean sessionMode() {
    return true;
  }
}
