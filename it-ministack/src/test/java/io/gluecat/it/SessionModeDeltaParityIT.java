package io.gluecat.it;

/**
 * The Delta parity tests again, with gluecat as spark_catalog (two-part names reach Glue): every test whose
 * statements Spark or Delta resolve differently in session mode. Those that only load, alter or run Delta's
 * commands on an existing table, the same way in both modes (CatalogModeTest.namedModeOnly), report skipped here.
 */
class SessionModeDeltaParityIT extends DeltaParityIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
