package io.gluecat.extensions.describe;

import io.gluecat.catalog.AbstractGlueCatalog;
import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.DescribedPartition;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.files.FileTable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.ResolvedTable;
import org.apache.spark.sql.catalyst.plans.logical.DescribeRelation;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.V1Table;

/**
 * {@code DESCRIBE [TABLE] [EXTENDED|FORMATTED] t} of a gluecat file source table, in both catalog modes. Spark
 * describes a catalog plugin's table with its V2 command (its own catalog's tables with its V1
 * {@code DescribeTableCommand}), whose layout differs: column defaults only under EXTENDED, the table's details
 * from the V2 table's properties (a table property whose key is also an option key left out, no Provider or
 * Created Time). This rule replaces the statement, before Spark's planner, with {@link DescribeTableByName},
 * which answers the V1 command's rows, also for a partition of a table whose partitions Glue keeps (Spark 3.5
 * refuses a catalog plugin's partition; Spark 4 prints its values only). Delta tables and views are left to Spark.
 *
 * <p>{@code DESCRIBE EXTENDED t AS JSON} (Spark 4.1 on) is Spark's own command, which renders a {@code V1Table}'s
 * CatalogTable: the rule gives it the table as DESCRIBE shows it ({@link FileTable#describedTable}), so the
 * storage properties the catalog adds for reading the table (its S3A settings) are not printed as the table's.
 * The command is matched by name, as it exists from Spark 4.1 only.
 */
public final class RewriteDescribeTable extends Rule<LogicalPlan> {
  /** Spark's command for {@code DESCRIBE .. AS JSON}. */
  private static final String JSON_COMMAND = "DescribeRelationJsonCommand";

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    Optional<DescribedPartition> partition = SparkCompat.describedPartition(plan);
    if (partition.isPresent()) {
      return describePartition(partition.get()).orElse(plan);
    }
    if (plan instanceof DescribeRelation describe && !SparkCompat.describesPartition(describe)) {
      return GlueTarget.of(describe.relation(), FileTable.class).<LogicalPlan>map(t -> new DescribeTableByName(t,
          describe.isExtended(), Scala.javaList(describe.output()))).orElse(plan);
    }
    if (JSON_COMMAND.equals(plan.nodeName()) && plan.children().size() == 1
        && plan.children().head() instanceof ResolvedTable resolved
        && resolved.catalog() instanceof AbstractGlueCatalog && resolved.table() instanceof FileTable file) {
      // a plain V1Table: the rule does not match the rewritten plan again
      return plan.withNewChildren(Scala.list(ResolvedTable.create(resolved.catalog(), resolved.identifier(),
          new V1Table(file.describedTable()))));
    }
    return plan;
  }

  /**
   * A DESCRIBE of a partition of a file source table whose partitions Glue keeps, naming every partition column
   * once (Spark's own errors otherwise).
   */
  private static Optional<LogicalPlan> describePartition(DescribedPartition describe) {
    if (!(describe.relation() instanceof ResolvedTable resolved) || !(resolved.table() instanceof FileTable file)) {
      return Optional.empty();
    }
    return fullSpec(describe.spec(), file).flatMap(spec -> GlueTarget.of(resolved, FileTable.class)
        .map(t -> new DescribeTableByName(t, describe.extended(), describe.output(), spec)));
  }

  /**
   * A spec naming each partition column of a table whose partitions Glue keeps once (any case), keyed by the
   * columns' names in their order; empty otherwise (Spark's own errors then).
   */
  static Optional<Map<String, String>> fullSpec(Map<String, String> given, FileTable file) {
    if (!file.partitionCommands().inGlue()) {
      return Optional.empty();
    }
    Map<String, String> spec = new LinkedHashMap<>();
    for (String column : file.partitionSchema().fieldNames()) {
      given.forEach((k, v) -> {
        if (k.equalsIgnoreCase(column)) {
          spec.put(column, v);
        }
      });
    }
    return spec.size() == given.size() && spec.size() == file.partitionSchema().size() ? Optional.of(spec)
        : Optional.empty();
  }
}
