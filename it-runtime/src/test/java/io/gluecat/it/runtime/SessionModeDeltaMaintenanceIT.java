package io.gluecat.it.runtime;

/** {@link DeltaMaintenanceIT} with gluecat as spark_catalog. */
class SessionModeDeltaMaintenanceIT extends DeltaMaintenanceIT {
  @Override
  protected boolean sessionMode() {
    return true;
  }
}
