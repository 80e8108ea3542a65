package io.gluecat.extensions.views;

import io.gluecat.catalog.GlueTarget;

import io.gluecat.entry.TableName;
import io.gluecat.views.GlueViews;
import io.gluecat.entry.ViewEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;

/** A view name of a gluecat catalog, as the view commands of the session extension use it. */
record GlueView(GlueTarget target, TableName name) {

  /** The view at {@code target}; a nested namespace (which Glue does not have) is refused naming the view. */
  static GlueView of(GlueTarget target) {
    TableName name = target.catalog().tableName(target.ident());
    if (name == null) {
      throw new IllegalArgumentException(String.format("gluecat catalog '%s' cannot hold view %s: views are named "
          + "<database>.<view> (Glue has one level of databases)", target.catalog().name(), target.qualified()));
    }
    return new GlueView(target, name);
  }

  /** A session catalog name of one of Spark's v1 commands, when spark_catalog is a gluecat catalog. */
  static Optional<GlueView> session(SparkSession spark, TableIdentifier table) {
    if (spark.sessionState().catalog().isTempView(table)) {
      return Optional.empty();
    }
    List<String> parts = new ArrayList<>();
    parts.add(GlueTarget.SESSION_CATALOG);
    parts.add(table.database().isDefined() ? table.database().get()
        : spark.sessionState().catalog().getCurrentDatabase());
    parts.add(table.table());
    return GlueTarget.of(spark, parts).filter(GlueTarget::inSessionCatalog).map(GlueView::of);
  }

  GlueViews views() {
    return target.catalog().views();
  }

  String qualified() {
    return target.qualified();
  }

  /** The name as Spark's view checks take it (catalog, database, view). */
  TableIdentifier identifier() {
    return new TableIdentifier(name.table(), scala.Option.apply(name.database()),
        scala.Option.apply(target.catalog().name()));
  }

  /** Whether a table (not a view) has the name. */
  boolean isTable() {
    return target.catalog().tableExists(target.ident());
  }

  /** The Spark view of that name; a table there, or nothing, fails naming the statement to use. */
  ViewEntry existing(String statement, String tableStatement) throws NoSuchTableException {
    Optional<ViewEntry> view = views().find(name);
    if (view.isPresent()) {
      return views().requireSpark(view.get());
    }
    if (isTable()) {
      throw new IllegalArgumentException(String.format("%s %s: %s is a table, not a view; use %s instead.",
          statement, qualified(), qualified(), tableStatement));
    }
    throw new NoSuchTableException(io.gluecat.compat.Scala.list(target.catalog().name(), name.database(),
        name.table()));
  }
}
