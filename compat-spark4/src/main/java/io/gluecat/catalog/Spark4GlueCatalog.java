package io.gluecat.catalog;

import java.util.Arrays;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.connector.catalog.TableSummary;

/**
 * AbstractGlueCatalog with what the Spark 4 lines (4.1 and 4.2) add to every catalog: table summaries. The
 * GlueCatalog of compat-spark41 and compat-spark42 extends it; Spark 3.5's has no such method.
 */
public abstract class Spark4GlueCatalog extends AbstractGlueCatalog {

  /**
   * Spark 4's default loads every table to learn its type, which would fail the whole listing on one
   * entry gluecat cannot load (an Iceberg table, say). Every table gluecat lists is external.
   */
  @Override
  public TableSummary[] listTableSummaries(String[] namespace) throws NoSuchNamespaceException {
    return Arrays.stream(listTables(namespace))
        .map(ident -> TableSummary.of(ident, TableSummary.EXTERNAL_TABLE_TYPE))
        .toArray(TableSummary[]::new);
  }
}
