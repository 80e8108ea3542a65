package io.gluecat.catalog;

import java.util.Arrays;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.ProcedureCatalog;
import org.apache.spark.sql.connector.catalog.TableSummary;
import org.apache.spark.sql.connector.catalog.procedures.UnboundProcedure;

/**
 * AbstractGlueCatalog with what the Spark 4 lines from 4.1 on add to every catalog: table summaries (which Spark 3.5
 * and 4.0 lack, so this source is in compat-spark4/src/since-4.1, which the 4.0 module does not compile), and
 * Iceberg's procedures by the catalog's name: Spark 4 resolves {@code CALL <catalog>.system.<name>(...)} against a
 * procedure catalog without any session extension, and this one hands the procedure to the Iceberg catalog behind
 * it (Spark 4.0's GlueCatalog does the same). The GlueCatalog of compat-spark41 and compat-spark42 extends it.
 */
public abstract class Spark4GlueCatalog extends AbstractGlueCatalog implements ProcedureCatalog {

  @Override
  public UnboundProcedure loadProcedure(Identifier ident) {
    return ((ProcedureCatalog) icebergProcedures(ident)).loadProcedure(ident);
  }

  /** SHOW PROCEDURES: Iceberg's, where its runtime is on the classpath; none otherwise. */
  @Override
  public Identifier[] listProcedures(String[] namespace) {
    if (!io.gluecat.iceberg.IcebergTables.AVAILABLE) {
      return new Identifier[0];
    }
    return ((ProcedureCatalog) icebergProcedures(Identifier.of(namespace, "*"))).listProcedures(namespace);
  }

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
