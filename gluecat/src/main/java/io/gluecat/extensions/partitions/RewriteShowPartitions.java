package io.gluecat.extensions.partitions;

import io.gluecat.catalog.AbstractGlueCatalog;
import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.Scala;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.ResolvedTable;
import org.apache.spark.sql.catalyst.analysis.UnresolvedPartitionSpec;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTable;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.ShowPartitions;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.command.ShowPartitionsCommand;

/**
 * SHOW PARTITIONS of gluecat's file source and Hive-format tables (docs/extensions.md, "SHOW PARTITIONS"). Spark
 * answers it only for tables that offer partition management (v2) or from its built-in catalog (v1), neither of
 * which these tables are: in a named catalog the statement stays a {@code ShowPartitions} of the resolved table,
 * which Spark's checks would refuse; in session mode Spark turns it into its v1 {@code ShowPartitionsCommand}
 * for a {@code V1Table}. This analyzer rule replaces both with {@link ShowPartitionsByName}, which asks Glue.
 * Delta tables are left to Delta.
 */
public final class RewriteShowPartitions extends Rule<LogicalPlan> {
  private final SparkSession spark;

  public RewriteShowPartitions(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    if (plan instanceof ShowPartitions show && show.table() instanceof ResolvedTable resolved
        && resolved.catalog() instanceof AbstractGlueCatalog catalog
        && ShowPartitionsByName.served(resolved.table())) {
      Optional<Map<String, String>> spec = spec(show);
      if (spec.isPresent()) {
        return new ShowPartitionsByName(new GlueTarget(catalog, resolved.identifier()), resolved.table(),
            spec.get(), Scala.javaList(show.output()));
      }
    }
    if (plan instanceof ShowPartitionsCommand command) {
      Optional<GlueTarget> target = GlueTarget.of(spark, command.tableName()).filter(GlueTarget::inSessionCatalog);
      if (target.isPresent()) {
        Table table = load(target.get()).filter(ShowPartitionsByName::served).orElse(null);
        if (table != null) {
          return new ShowPartitionsByName(target.get(), table, command.spec().isDefined()
              ? Scala.javaMap(command.spec().get()) : Map.of(), Scala.javaList(command.output()));
        }
      }
    }
    return plan;
  }

  /** The statement's spec as written (empty without one); absent when Spark resolved it already (not ours). */
  private static Optional<Map<String, String>> spec(ShowPartitions show) {
    if (show.pattern().isEmpty()) {
      return Optional.of(Map.of());
    }
    return show.pattern().get() instanceof UnresolvedPartitionSpec unresolved
        ? Optional.of(Scala.javaMap(unresolved.spec())) : Optional.empty();
  }

  private static Optional<Table> load(GlueTarget target) {
    try {
      return Optional.of(target.catalog().loadTable(target.ident()));
    } catch (Exception e) {
      return Optional.empty(); // Spark's own lookup reports it
    }
  }

  /**
   * For a parsed SHOW PARTITIONS of a gluecat table that only gluecat's extension answers, the statement and the
   * name as users write it ("SHOW PARTITIONS glue.db.t"); empty for anything else (Delta tables included).
   */
  public static Optional<String> runOnlyByTheExtension(SparkSession spark, LogicalPlan plan) {
    if (!(plan instanceof ShowPartitions show) || !(show.table() instanceof UnresolvedTable name)) {
      return Optional.empty();
    }
    if (spark.sessionState().catalog().isTempView(Scala.list(Scala.javaList(name.multipartIdentifier())))) {
      return Optional.empty();
    }
    return GlueTarget.of(spark, name.multipartIdentifier())
        .filter(t -> load(t).filter(ShowPartitionsByName::served).isPresent())
        .map(t -> "SHOW PARTITIONS " + t.qualified());
  }
}
