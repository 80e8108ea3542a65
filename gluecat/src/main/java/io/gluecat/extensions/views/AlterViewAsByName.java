package io.gluecat.extensions.views;


import io.gluecat.compat.Scala;
import io.gluecat.entry.ViewEntry;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * ALTER VIEW v AS ... of a gluecat view (Spark 3.5 and 4.1, session mode on every line): a new query, columns and
 * query context; the view keeps its properties, comment and owner, as Spark's own catalog does.
 */
final class AlterViewAsByName extends ViewCommand {
  private final String sql;
  private final LogicalPlan query;

  AlterViewAsByName(GlueView view, String sql, LogicalPlan query) {
    super(view);
    this.sql = sql;
    this.query = query;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    ViewEntry existing = view.existing("ALTER VIEW", "ALTER TABLE");
    ViewQuery defined = ViewQuery.of(spark, view, sql, query, Scala.list(), true);
    view.views().replace(ViewEntry.builder(existing.database(), existing.name(), defined.sql())
        .schema(defined.schema()).comment(existing.comment().orElse(null)).owner(existing.owner().orElse(null))
        .collation(existing.collation().orElse(null)).currentCatalog(defined.currentCatalog())
        .currentNamespace(defined.currentNamespace()).sqlConfigs(defined.sqlConfigs())
        .schemaMode(existing.schemaMode().orElse(null)).queryColumnNames(defined.queryColumnNames())
        .properties(existing.properties()).createVersion(existing.createVersion()).build());
    return List.of();
  }
}
