package io.gluecat;

import io.gluecat.catalog.AbstractGlueCatalog;

/**
 * The class Spark loads: {@code spark.sql.catalog.<name>=io.gluecat.GlueCatalog}. All logic lives in
 * AbstractGlueCatalog; Spark 4.0 has no table summaries (TableSummary came with 4.1), so this line's class does
 * not extend the other Spark 4 lines' Spark4GlueCatalog (compat-spark40/pom.xml leaves that source out).
 */
public class GlueCatalog extends AbstractGlueCatalog {
}
