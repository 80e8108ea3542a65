package io.gluecat;

import io.gluecat.catalog.AbstractGlueCatalog;

/**
 * The class Spark loads: {@code spark.sql.catalog.<name>=io.gluecat.GlueCatalog}. All logic lives in
 * AbstractGlueCatalog; this Spark line adds nothing.
 */
public class GlueCatalog extends AbstractGlueCatalog {
}
