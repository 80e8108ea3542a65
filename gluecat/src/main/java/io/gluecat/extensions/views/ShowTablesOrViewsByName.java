package io.gluecat.extensions.views;

import io.gluecat.catalog.GlueTarget;

import io.gluecat.catalog.AbstractGlueCatalog;
import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.compat.Scala;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.util.StringUtils$;

/**
 * SHOW VIEWS [IN db] [LIKE pattern] of a gluecat database (Spark 3.5 and 4.1, session mode on every line): the
 * database's views of every dialect; and SHOW TABLES [IN db] [LIKE pattern] in session mode: its tables and
 * views, as Spark's own catalog lists both there. In session mode the session's temporary views follow, as Spark
 * lists them.
 */
final class ShowTablesOrViewsByName extends GlueCommandPlan {
  private final AbstractGlueCatalog catalog;
  private final String database;
  private final String pattern;
  private final boolean tables;

  private ShowTablesOrViewsByName(AbstractGlueCatalog catalog, String database, String pattern,
      List<Attribute> output, boolean tables) {
    super(output);
    this.catalog = catalog;
    this.database = database.toLowerCase(Locale.ROOT);
    this.pattern = pattern;
    this.tables = tables;
  }

  /** SHOW VIEWS: the database's views. */
  static ShowTablesOrViewsByName views(AbstractGlueCatalog catalog, String database, String pattern,
      List<Attribute> output) {
    return new ShowTablesOrViewsByName(catalog, database, pattern, output, false);
  }

  /** SHOW TABLES in session mode: the database's tables and views. */
  static ShowTablesOrViewsByName tables(AbstractGlueCatalog catalog, String database, String pattern,
      List<Attribute> output) {
    return new ShowTablesOrViewsByName(catalog, database, pattern, output, true);
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    List<String> names = tables ? catalog.views().listWithTables(database) : catalog.views().list(database);
    if (pattern != null) {
      names = Scala.javaList(StringUtils$.MODULE$.filterPattern(Scala.list(names), pattern));
    }
    List<Row> rows = new ArrayList<>();
    for (String name : names.stream().sorted().toList()) {
      rows.add(RowFactory.create(database, name, false));
    }
    if (catalog.name().equalsIgnoreCase(GlueTarget.SESSION_CATALOG)) {
      for (TableIdentifier temp : Scala.javaList(spark.sessionState().catalog().listLocalTempViews(
          pattern == null ? "*" : pattern))) {
        rows.add(RowFactory.create("", temp.table(), true));
      }
    }
    return rows;
  }

  @Override
  public String simpleString(int maxFields) {
    return (tables ? "ShowTablesByName " : "ShowViewsByName ") + catalog.name() + "." + database;
  }
}
