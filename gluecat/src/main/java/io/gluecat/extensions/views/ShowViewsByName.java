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
 * database's views of every dialect, and in session mode the session's temporary views, as Spark lists them.
 */
final class ShowViewsByName extends GlueCommandPlan {
  private final AbstractGlueCatalog catalog;
  private final String database;
  private final String pattern;
  private final List<Attribute> output;

  ShowViewsByName(AbstractGlueCatalog catalog, String database, String pattern, List<Attribute> output) {
    this.catalog = catalog;
    this.database = database.toLowerCase(Locale.ROOT);
    this.pattern = pattern;
    this.output = output;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    List<String> names = catalog.views().list(database);
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
  protected List<Attribute> columns() {
    return output;
  }

  @Override
  public String simpleString(int maxFields) {
    return "ShowViewsByName " + catalog.name() + "." + database;
  }
}
