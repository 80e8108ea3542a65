package io.gluecat.extensions.describe;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.files.FileTable;
import org.apache.spark.sql.catalyst.plans.logical.DescribeRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;

/**
 * {@code DESCRIBE [TABLE] [EXTENDED|FORMATTED] t} of a gluecat file source table, in both catalog modes. Spark
 * describes a catalog plugin's table with its V2 command (its own catalog's tables with its V1
 * {@code DescribeTableCommand}), whose layout differs: column defaults only under EXTENDED, the table's details
 * from the V2 table's properties (a table property whose key is also an option key left out, no Provider or
 * Created Time). This rule replaces the statement, before Spark's planner, with {@link DescribeTableByName},
 * which answers the V1 command's rows. A partition spec, Delta tables and views are left to Spark.
 */
public final class RewriteDescribeTable extends Rule<LogicalPlan> {
  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof DescribeRelation describe && !SparkCompat.describesPartition(describe)) {
      return GlueTarget.of(describe.relation(), FileTable.class).<LogicalPlan>map(t -> new DescribeTableByName(t,
          describe.isExtended(), Scala.javaList(describe.output()))).orElse(plan);
    }
    return plan;
  }
}
