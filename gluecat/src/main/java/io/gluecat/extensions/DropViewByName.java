package io.gluecat.extensions;

import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.compat.Scala;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.expressions.Attribute;

/** DROP VIEW [IF EXISTS] of a gluecat name (Spark 3.5 and 4.1, session mode on every line); a table is refused. */
final class DropViewByName extends GlueCommandPlan {
  private final GlueView view;
  private final boolean ifExists;

  DropViewByName(GlueView view, boolean ifExists) {
    this.view = view;
    this.ifExists = ifExists;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    if (view.views().drop(view.name())) {
      spark.sessionState().catalog().invalidateCachedTable(view.identifier());
      return List.of();
    }
    if (view.isTable()) {
      throw new IllegalArgumentException(String.format("DROP VIEW %s: %s is a table, not a view; use DROP TABLE "
          + "instead. Nothing was dropped.", view.qualified(), view.qualified()));
    }
    if (!ifExists) {
      throw new NoSuchTableException(Scala.list(view.target().catalog().name(), view.name().database(),
          view.name().table()));
    }
    return List.of();
  }

  @Override
  protected List<Attribute> columns() {
    return List.of();
  }

  @Override
  public String simpleString(int maxFields) {
    return "DropViewByName " + view.qualified();
  }
}
