package io.gluecat.it;

/** Every Delta parity test again, with gluecat as spark_catalog (two-part names reach Glue). */
class SessionModeDeltaParityIT extends DeltaParityIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
