package io.gluecat.extensions.delta;

import io.gluecat.catalog.AbstractGlueCatalog;
import io.gluecat.catalog.GlueTarget;
import io.gluecat.delta.DeltaSupport;
import io.gluecat.entry.EntryFormat;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.ResolvedTable;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.execution.command.CreateTableLikeCommand;

/**
 * The analyzer rule of {@link io.gluecat.extensions.GlueCatalogExtensions}: replaces a statement that would reach Spark's built-in
 * catalog (or Delta's path-only code) with gluecat's command for it, when the table is a gluecat table. Every
 * statement handled here is a whole plan of its own, so only the plan's root is looked at.
 */
public final class RewriteGlueStatements extends Rule<LogicalPlan> {
  private final SparkSession spark;

  public RewriteGlueStatements(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (DeltaSupport.AVAILABLE) {
      refuseUnloadable(plan);
      Optional<LogicalPlan> delta = DeltaStatements.rewrite(spark, plan);
      if (delta.isPresent()) {
        return delta.get();
      }
    }
    if (plan instanceof CreateTableLikeCommand like) {
      // Spark 3.5 and 4.1 parse CREATE TABLE LIKE (two-part names) into this v1 command, which runs on the built-in
      // catalog whatever the current catalog is; the names resolve as Spark resolves them elsewhere
      Optional<GlueTarget> target = GlueTarget.of(spark, like.targetTable());
      Optional<GlueTarget> source = GlueTarget.of(spark, like.sourceTable());
      if (target.isPresent() && !spark.sessionState().catalog().isTempView(like.sourceTable())) {
        return new CreateTableLikeByName(target.get(), like, source);
      }
    }
    return plan;
  }

  /**
   * REORG TABLE of a gluecat Delta table, on a pair where Delta fails it with a linkage error (in its own analysis,
   * or in every task: DeltaSupport.reorgRefusal): refused here first, this rule running before Delta's, with the
   * words of the catalog's start-up warning (the versions, the cause, the fix). Nothing was written.
   */
  private static void refuseUnloadable(LogicalPlan plan) {
    if (plan.getClass().getSimpleName().equals("DeltaReorgTable") && plan.children().size() == 1
        && plan.children().head() instanceof ResolvedTable resolved
        && resolved.catalog() instanceof AbstractGlueCatalog catalog
        && EntryFormat.isDelta(resolved.table().properties().get(TableCatalog.PROP_PROVIDER))) {
      DeltaSupport.reorgRefusal(catalog.name()).ifPresent(message -> {
        throw new UnsupportedOperationException(message);
      });
    }
  }
}
