package io.gluecat;

import io.gluecat.catalog.Spark4GlueCatalog;

/**
 * The class Spark loads: {@code spark.sql.catalog.<name>=io.gluecat.GlueCatalog}. All logic lives in
 * AbstractGlueCatalog; Spark 4.1 adds table summaries (Spark4GlueCatalog, shared with Spark 4.2).
 */
public class GlueCatalog extends Spark4GlueCatalog {
}
