package io.gluecat.it;

/**
 * DeltaParityCloneIT in session mode: gluecat is spark_catalog, so two-part names (database.table) reach Glue.
 * CLONE, CONVERT TO DELTA and, before Spark 4.2, CREATE TABLE LIKE reach Glue here through gluecat's session
 * extension (docs/extensions.md), which the test session lists before Delta's.
 */
class SessionModeDeltaParityCloneIT extends DeltaParityCloneIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
