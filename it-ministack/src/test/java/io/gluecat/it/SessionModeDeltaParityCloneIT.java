package io.gluecat.it;

/**
 * DeltaParityCloneIT in session mode: gluecat is spark_catalog, so two-part names (database.table) reach Glue.
 * CLONE and, before Spark 4.2, CREATE TABLE LIKE are sent by Delta and Spark to the built-in catalog in this
 * mode; those tests skip themselves here (docs/how-it-works.md, "Limits").
 */
class SessionModeDeltaParityCloneIT extends DeltaParityCloneIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
