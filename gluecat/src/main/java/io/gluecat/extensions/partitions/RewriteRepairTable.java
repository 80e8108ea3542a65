package io.gluecat.extensions.partitions;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.partitions.GluePartitionManagement;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.RecoverPartitions;
import org.apache.spark.sql.catalyst.plans.logical.RepairTable;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.command.RepairTableCommand;

/**
 * {@code ALTER TABLE t RECOVER PARTITIONS} and {@code [MSCK] REPAIR TABLE t [ADD|DROP|SYNC PARTITIONS]} of gluecat's
 * file source tables, run as {@link RepairByName}. Spark has no v2 form of either: in a named catalog its planner
 * refuses them for a catalog plugin's table ({@code NOT_SUPPORTED_COMMAND_FOR_V2_TABLE}); in session mode it turns
 * them into its v1 {@code RepairTableCommand}, which would look for the table in its built-in catalog. This rule
 * replaces both, before Spark's checks; Delta and Hive-format tables are left as they are.
 */
public final class RewriteRepairTable extends Rule<LogicalPlan> {
  private final SparkSession spark;

  public RewriteRepairTable(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof RecoverPartitions recover) {
      return ours(recover.child()).<LogicalPlan>map(t -> new RepairByName(t, true, false,
          "ALTER TABLE RECOVER PARTITIONS")).orElse(plan);
    }
    if (plan instanceof RepairTable repair) {
      return ours(repair.child()).<LogicalPlan>map(t -> new RepairByName(t, repair.enableAddPartitions(),
          repair.enableDropPartitions(), "MSCK REPAIR TABLE")).orElse(plan);
    }
    if (plan instanceof RepairTableCommand command) {
      Optional<GlueTarget> target = GlueTarget.of(spark, command.tableName()).filter(GlueTarget::inSessionCatalog)
          .filter(RewriteRepairTable::fileTable);
      return target.<LogicalPlan>map(t -> new RepairByName(t, command.enableAddPartitions(),
          command.enableDropPartitions(), command.cmd())).orElse(plan);
    }
    return plan;
  }

  private static Optional<GlueTarget> ours(LogicalPlan child) {
    return GlueTarget.of(child, GluePartitionManagement.class);
  }

  private static boolean fileTable(GlueTarget target) {
    try {
      return target.catalog().loadTable(target.ident()) instanceof GluePartitionManagement;
    } catch (Exception e) {
      return false; // Spark's own lookup reports it
    }
  }
}
