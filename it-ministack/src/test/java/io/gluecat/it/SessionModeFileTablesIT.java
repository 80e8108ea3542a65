package io.gluecat.it;

/** Every file source table test again, with gluecat as spark_catalog (two-part names reach Glue). */
class SessionModeFileTablesIT extends FileTablesIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
