package io.gluecat.it;

/** Every Hive-format table test again, with gluecat as spark_catalog (two-part names reach Glue). */
class SessionModeHiveFormatTablesIT extends HiveFormatTablesIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
