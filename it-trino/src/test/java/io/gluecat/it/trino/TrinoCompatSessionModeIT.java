package io.gluecat.it.trino;

/** Every gluecat → Trino case again with gluecat as spark_catalog: two-part names reach Glue. */
class TrinoCompatSessionModeIT extends TrinoCompatGluecatToTrinoIT {
  @Override
  protected boolean sessionMode() {
    return true;
  }
}
