package io.gluecat.extensions.partitions;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.Scala;
import io.gluecat.files.FileTable;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.SetTableLocation;
import org.apache.spark.sql.catalyst.plans.logical.SetTableSerDeProperties;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.execution.command.AlterTableSerDePropertiesCommand;
import org.apache.spark.sql.execution.command.AlterTableSetLocationCommand;

/**
 * {@code ALTER TABLE t [PARTITION (..)] SET SERDE | SERDEPROPERTIES} and {@code ALTER TABLE t PARTITION (..) SET
 * LOCATION} of gluecat's file source tables, run as {@link SerdePropertiesByName} and {@link PartitionLocationByName}.
 * Spark runs both for its own catalog's tables only (its V1 commands): in a named catalog its planner refuses them
 * for a catalog plugin's table; in session mode it turns them into {@code AlterTableSerDePropertiesCommand} and
 * {@code AlterTableSetLocationCommand}, which would look for the table in its built-in catalog. This rule replaces
 * both forms, before Spark's checks; Delta and Hive-format tables, and {@code SET LOCATION} without a partition
 * (a V2 table change gluecat takes), are left as they are.
 */
public final class RewriteTableStorage extends Rule<LogicalPlan> {
  private final SparkSession spark;

  public RewriteTableStorage(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof SetTableSerDeProperties serde) {
      return GlueTarget.of(serde.child(), FileTable.class).<LogicalPlan>map(t -> new SerdePropertiesByName(t,
          optional(serde.serdeClassName()), optional(serde.serdeProperties()).map(Scala::javaMap),
          optional(serde.partitionSpec()).map(Scala::javaMap))).orElse(plan);
    }
    if (plan instanceof SetTableLocation location && location.partitionSpec().isDefined()) {
      return GlueTarget.of(location.table(), FileTable.class).<LogicalPlan>map(t -> new PartitionLocationByName(t,
          Scala.javaMap(location.partitionSpec().get()), location.location())).orElse(plan);
    }
    if (plan instanceof AlterTableSerDePropertiesCommand command) {
      return sessionFileTable(command.tableName()).<LogicalPlan>map(t -> new SerdePropertiesByName(t,
          optional(command.serdeClassName()), optional(command.serdeProperties()).map(Scala::javaMap),
          optional(command.partSpec()).map(Scala::javaMap))).orElse(plan);
    }
    if (plan instanceof AlterTableSetLocationCommand command && command.partitionSpec().isDefined()) {
      return sessionFileTable(command.tableName()).<LogicalPlan>map(t -> new PartitionLocationByName(t,
          Scala.javaMap(command.partitionSpec().get()), command.location())).orElse(plan);
    }
    return plan;
  }

  /** A name of a V1 command that session-mode gluecat serves as a file source table. */
  private Optional<GlueTarget> sessionFileTable(TableIdentifier name) {
    return GlueTarget.of(spark, name).filter(GlueTarget::inSessionCatalog).filter(t -> {
      try {
        return t.catalog().loadTable(t.ident()) instanceof FileTable;
      } catch (Exception e) {
        return false; // Spark's own lookup reports it
      }
    });
  }

  private static <T> Optional<T> optional(scala.Option<T> option) {
    return option.isDefined() ? Optional.of(option.get()) : Optional.empty();
  }
}
