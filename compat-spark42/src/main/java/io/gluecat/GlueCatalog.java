package io.gluecat;

import io.gluecat.catalog.AbstractGlueCatalog;
import java.util.Arrays;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableInfo;
import org.apache.spark.sql.connector.catalog.TableSummary;

/**
 * The class Spark loads: {@code spark.sql.catalog.<name>=io.gluecat.GlueCatalog}. All logic lives in
 * AbstractGlueCatalog; Spark 4.1 and 4.2 add table summaries.
 */
public class GlueCatalog extends AbstractGlueCatalog {

  /**
   * Spark 4.1's (and 4.2's) default loads every table to learn its type, which would fail the whole listing on one
   * entry gluecat cannot load (an Iceberg table, say). Every table gluecat lists is external.
   */
  @Override
  public TableSummary[] listTableSummaries(String[] namespace) throws NoSuchNamespaceException {
    return Arrays.stream(listTables(namespace))
        .map(ident -> TableSummary.of(ident, TableSummary.EXTERNAL_TABLE_TYPE))
        .toArray(TableSummary[]::new);
  }

  /** Spark 4.2 sends CREATE TABLE LIKE to the catalog, in both catalog modes (see AbstractGlueCatalog). */
  @Override
  public Table createTableLike(Identifier ident, TableInfo info, Table source)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    return createTableLike(ident, info.schema(), info.partitions(), info.properties(), source);
  }
}
