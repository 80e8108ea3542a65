package io.gluecat.extensions.views;


import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * Stands for the name in Spark's CREATE VIEW and ALTER VIEW ... AS of a named gluecat catalog on Spark 3.5 and 4.1,
 * in place of the identifier Spark would resolve (and then refuse, as no catalog plugin holds views there), while
 * Spark analyses the view's query; {@link RewriteViewCommands} then replaces the statement. Never run.
 */
final class PendingViewName extends ViewCommand {

  PendingViewName(GlueView view) {
    super(view);
  }

  GlueView view() {
    return view;
  }

  @Override
  protected List<Row> execute(SparkSession spark) {
    throw new IllegalStateException("view name " + view.qualified() + " was not replaced by gluecat's view command");
  }
}
