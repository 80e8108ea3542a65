package io.gluecat.extensions.delta;

import io.gluecat.catalog.GlueTarget;

import io.gluecat.delta.DeltaSupport;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
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
}
