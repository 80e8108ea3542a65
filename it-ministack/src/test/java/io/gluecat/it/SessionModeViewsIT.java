package io.gluecat.it;

/** Every view test again, with gluecat as spark_catalog: two-part names reach Glue through the extension. */
class SessionModeViewsIT extends ViewsIT {

  @Override
  protected boolean sessionMode() {
    return true;
  }
}
