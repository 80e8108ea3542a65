package io.gluecat.it;

/** Every Hive-format write test again, with gluecat as spark_catalog (two-part names reach Glue). */
class SessionModeHiveFormatWritesIT extends HiveFormatWritesIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
