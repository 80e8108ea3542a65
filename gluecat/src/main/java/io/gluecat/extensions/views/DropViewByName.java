package io.gluecat.extensions.views;


import io.gluecat.compat.Scala;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;

/** DROP VIEW [IF EXISTS] of a gluecat name (Spark 3.5 and 4.1, session mode on every line); a table is refused. */
final class DropViewByName extends ViewCommand {
  private final boolean ifExists;

  DropViewByName(GlueView view, boolean ifExists) {
    super(view);
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
}
