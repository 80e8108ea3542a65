package io.gluecat.it.trino;

/** Every Iceberg case of TrinoCompatIcebergIT again with gluecat as spark_catalog: two-part names reach Iceberg's. */
class TrinoCompatSessionModeIcebergIT extends TrinoCompatIcebergIT {
  @Override
  protected boolean sessionMode() {
    return true;
  }
}
