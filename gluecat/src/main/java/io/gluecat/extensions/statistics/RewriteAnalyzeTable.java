package io.gluecat.extensions.statistics;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.Scala;
import io.gluecat.files.FileTable;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.AnalyzeColumn;
import org.apache.spark.sql.catalyst.plans.logical.AnalyzeTable;
import org.apache.spark.sql.catalyst.plans.logical.DescribeColumn;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;

/**
 * {@code ANALYZE TABLE} (table, partitions, columns) and {@code DESCRIBE EXTENDED t col} of gluecat's file source
 * tables, in both catalog modes. Spark refuses ANALYZE for a catalog plugin's table ("not supported for v2
 * tables"), and its V2 DESCRIBE of a column takes column statistics only from a V2 scan (and would print them as
 * Java {@code Optional}s, without the histogram row); this rule replaces both, before Spark's planner, with {@link AnalyzeByName} and
 * {@link DescribeColumnByName}. Delta and Hive-format tables are left to Spark (and Delta).
 */
public final class RewriteAnalyzeTable extends Rule<LogicalPlan> {
  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof AnalyzeTable analyze) {
      Map<String, scala.Option<String>> spec = Scala.javaMap(analyze.partitionSpec());
      return fileTable(analyze.child()).<LogicalPlan>map(t -> new AnalyzeByName(t, !spec.isEmpty(),
          analyze.noScan(), null, false)).orElse(plan);
    }
    if (plan instanceof AnalyzeColumn analyze) {
      List<String> columns = analyze.columnNames().isDefined() ? Scala.javaList(analyze.columnNames().get()) : null;
      return fileTable(analyze.child()).<LogicalPlan>map(t -> new AnalyzeByName(t, false, false, columns,
          analyze.allColumns())).orElse(plan);
    }
    if (plan instanceof DescribeColumn describe && describe.isExtended()
        && describe.column() instanceof Attribute column) {
      List<Attribute> output = Scala.javaList(describe.output());
      return fileTable(describe.relation()).<LogicalPlan>map(t -> new DescribeColumnByName(t, column.name(),
          output)).orElse(plan);
    }
    return plan;
  }

  private static Optional<GlueTarget> fileTable(LogicalPlan child) {
    return GlueTarget.of(child, FileTable.class);
  }
}
