package io.gluecat.it.trino;

/** Every Trino Hive connector → gluecat case again with gluecat as spark_catalog. */
class TrinoCompatSessionModeTrinoHiveToGluecatIT extends TrinoCompatTrinoHiveToGluecatIT {
  @Override
  protected boolean sessionMode() {
    return true;
  }
}
