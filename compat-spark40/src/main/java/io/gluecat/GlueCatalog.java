package io.gluecat;

import io.gluecat.catalog.AbstractGlueCatalog;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.ProcedureCatalog;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;

/**
 * The class Spark loads: {@code spark.sql.catalog.<name>=io.gluecat.GlueCatalog}. All logic lives in
 * AbstractGlueCatalog; Spark 4.0 has no table summaries (TableSummary came with 4.1), so this line's class does
 * not extend the other Spark 4 lines' Spark4GlueCatalog (compat-spark40/pom.xml leaves that source out). Iceberg's
 * procedures run by its name, handed to the Iceberg catalog behind it (as Spark4GlueCatalog does).
 */
public class GlueCatalog extends AbstractGlueCatalog implements ProcedureCatalog {
  @Override
  public UnboundProcedure loadProcedure(Identifier ident) {
    return ((ProcedureCatalog) icebergProcedures(ident)).loadProcedure(ident);
  }
}
