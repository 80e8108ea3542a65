package io.gluecat.it;

/** {@link IcebergTablesIT} with gluecat as spark_catalog: Iceberg tables by two-part names. */
class SessionModeIcebergTablesIT extends IcebergTablesIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
