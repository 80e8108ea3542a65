package io.gluecat.catalog;

import java.util.Arrays;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.connector.catalog.TableSummary;

/**
 * AbstractGlueCatalog with what the Spark 4 lines from 4.1 on add to every catalog: table summaries. The
 * GlueCatalog of compat-spark41 and compat-spark42 extends it; Spark 3.5 and 4.0 have no such method (so this
 * source is in compat-spark4/src/since-4.1, which the 4.0 module does not compile).
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
