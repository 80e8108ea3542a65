package io.gluecat;

import io.gluecat.catalog.Spark4GlueCatalog;
import io.gluecat.entry.TableName;
import io.gluecat.entry.ViewEntry;
import io.gluecat.entry.ViewFormat;
import java.util.Arrays;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NoSuchViewException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.ViewAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Relation;
import org.apache.spark.sql.connector.catalog.RelationCatalog;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableInfo;
import org.apache.spark.sql.connector.catalog.TableSummary;
import org.apache.spark.sql.connector.catalog.View;

/**
 * The class Spark loads: {@code spark.sql.catalog.<name>=io.gluecat.GlueCatalog}. All logic lives in
 * AbstractGlueCatalog and io.gluecat.views; Spark 4.1 and 4.2 add table summaries (Spark4GlueCatalog), Spark 4.2
 * views (its RelationCatalog), converted here between Spark's View and gluecat's ViewEntry.
 */
public class GlueCatalog extends Spark4GlueCatalog implements RelationCatalog {

  /** Spark 4.2 loads views apart ({@link #loadRelation}); a table load finds tables only. */
  @Override
  protected boolean viewsAsTables() {
    return false;
  }

  /** SHOW TABLES keeps listing tables only (views are SHOW VIEWS'), in one Glue listing. */
  @Override
  public TableSummary[] listRelationSummaries(String[] namespace) throws NoSuchNamespaceException {
    return listTableSummaries(namespace);
  }

  /** One GetTable tells a view from a table; a table then loads as {@link #loadTable(Identifier)} does. */
  @Override
  public Relation loadRelation(Identifier ident) throws NoSuchTableException {
    Optional<View> view = view(ident);
    if (view.isPresent()) {
      return view.get();
    }
    return loadTable(ident);
  }

  @Override
  public View loadView(Identifier ident) throws NoSuchViewException {
    return view(ident).orElseThrow(() -> new NoSuchViewException(ident));
  }

  @Override
  public boolean viewExists(Identifier ident) {
    TableName name = tableName(ident);
    return name != null && views().find(name).isPresent();
  }

  @Override
  public Identifier[] listViews(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length != 1) {
      throw new NoSuchNamespaceException(namespace);
    }
    return views().list(namespace[0].toLowerCase(java.util.Locale.ROOT)).stream()
        .map(v -> Identifier.of(new String[] {namespace[0].toLowerCase(java.util.Locale.ROOT)}, v))
        .toArray(Identifier[]::new);
  }

  @Override
  public View createView(Identifier ident, View info) throws ViewAlreadyExistsException, NoSuchNamespaceException {
    try {
      views().create(entry(ident, info));
    } catch (TableAlreadyExistsException e) {
      throw new ViewAlreadyExistsException(ident);
    }
    return info;
  }

  @Override
  public View replaceView(Identifier ident, View info) throws NoSuchViewException {
    try {
      views().replace(entry(ident, info));
    } catch (NoSuchTableException e) {
      throw new NoSuchViewException(ident);
    }
    return info;
  }

  @Override
  public View createOrReplaceView(Identifier ident, View info)
      throws ViewAlreadyExistsException, NoSuchNamespaceException {
    try {
      views().createOrReplace(entry(ident, info));
    } catch (TableAlreadyExistsException e) {
      throw new ViewAlreadyExistsException(ident);
    }
    return info;
  }

  @Override
  public boolean dropView(Identifier ident) {
    TableName name = tableName(ident);
    return name != null && views().drop(name);
  }

  @Override
  public void renameView(Identifier oldIdent, Identifier newIdent)
      throws NoSuchViewException, ViewAlreadyExistsException {
    TableName from = tableName(oldIdent);
    TableName to = tableName(newIdent);
    if (from == null) {
      throw new NoSuchViewException(oldIdent);
    }
    if (to == null) {
      throw new IllegalArgumentException(String.format("gluecat catalog '%s' cannot rename view %s to %s: views "
          + "are named <database>.<view> (Glue has one level of databases)", name(), from, newIdent));
    }
    try {
      views().rename(from, to);
    } catch (NoSuchTableException e) {
      throw new NoSuchViewException(oldIdent);
    } catch (TableAlreadyExistsException e) {
      throw new ViewAlreadyExistsException(newIdent);
    }
  }

  @Override
  public void invalidateView(Identifier ident) {
    TableName name = tableName(ident);
    if (name != null) {
      parts().glue().refreshed(name);
    }
  }

  private Optional<View> view(Identifier ident) {
    TableName name = tableName(ident);
    return name == null ? Optional.empty() : views().find(name).map(views()::requireSpark).map(GlueCatalog::toSpark);
  }

  private ViewEntry entry(Identifier ident, View info) {
    TableName name = tableName(ident);
    if (name == null) {
      throw new IllegalArgumentException(String.format("gluecat catalog '%s' cannot create view %s: views are "
          + "named <database>.<view> (Glue has one level of databases)", name(), ident));
    }
    return ViewFormat.fromSpark(name(), name.database(), name.table(), info.queryText(), info.schema(),
        info.properties(), info.currentCatalog(), Arrays.asList(info.currentNamespace()), info.sqlConfigs(),
        info.schemaMode(), Arrays.asList(info.queryColumnNames()));
  }

  private static View toSpark(ViewEntry view) {
    return new View.Builder()
        .withSchema(view.schema())
        .withProperties(ViewFormat.sparkProperties(view))
        .withQueryText(view.sql())
        .withCurrentCatalog(view.currentCatalog().orElse(null))
        .withCurrentNamespace(view.currentNamespace().toArray(new String[0]))
        .withSqlConfigs(view.sqlConfigs())
        .withSchemaMode(view.schemaMode().orElse(null))
        .withQueryColumnNames(view.queryColumnNames().toArray(new String[0]))
        .build();
  }

  /** Spark 4.2 sends CREATE TABLE LIKE to the catalog, in both catalog modes (see AbstractGlueCatalog). */
  @Override
  public Table createTableLike(Identifier ident, TableInfo info, Table source)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    return createTableLike(ident, info.schema(), info.partitions(), info.properties(), source);
  }
}
