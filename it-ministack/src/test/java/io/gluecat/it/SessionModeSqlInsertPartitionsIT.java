package io.gluecat.it;

/** Every SQL INSERT partition test again, with gluecat as spark_catalog (two-part names reach Glue). */
class SessionModeSqlInsertPartitionsIT extends SqlInsertPartitionsIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
