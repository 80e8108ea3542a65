package io.gluecat.it;

/**
 * The Delta parity tests again, with gluecat as spark_catalog (two-part names reach Glue): every test whose
 * statements Spark or Delta resolve differently in session mode. The four that load or alter an already
 * resolved table the same way in both modes (see DeltaParityIT.namedModeOnly) report skipped here.
 */
class SessionModeDeltaParityIT extends DeltaParityIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
