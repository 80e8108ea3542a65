package io.gluecat;

import io.gluecat.views.GlueViews;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The class Spark loads: {@code spark.sql.catalog.<name>=io.gluecat.GlueCatalog}. All logic lives in
 * AbstractGlueCatalog and io.gluecat.views; this Spark line adds reads of Glue views.
 */
public class GlueCatalog extends AbstractGlueCatalog {
  private GlueViews views;

  @Override
  public void initialize(String name, CaseInsensitiveStringMap sparkOptions) {
    super.initialize(name, sparkOptions);
    this.views = new GlueViews(name, parts().glue());
  }

  /**
   * Spark 3.5 reads a view from a catalog plugin only as a table: a V1Table of type VIEW whose partitions the
   * catalog does not track, which Spark then expands as its own catalog's views. A table loads as before.
   */
  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    TableName name = tableName(ident);
    Optional<Table> view = name == null ? Optional.empty() : views.v1View(name);
    return view.isPresent() ? view.get() : super.loadTable(ident);
  }
}
