package io.gluecat.extensions.delta;

import io.gluecat.catalog.GlueTarget;

import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.EliminateSubqueryAliases$;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.plans.logical.CloneTableStatement;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.delta.commands.ConvertToDeltaCommand;
import org.apache.spark.sql.execution.datasources.v2.DataSourceV2Relation;

/** The Delta statements gluecat runs itself (kept apart so that a session without Delta never loads them). */
final class DeltaStatements {
  private DeltaStatements() {}

  static Optional<LogicalPlan> rewrite(SparkSession spark, LogicalPlan plan) {
    if (plan instanceof ConvertToDeltaCommand convert) {
      // Delta looks a name up in the built-in catalog; gluecat converts its own tables (both modes)
      return GlueTarget.of(spark, convert.tableIdentifier())
          .map(target -> new ConvertToDeltaByName(target, convert));
    }
    if (plan instanceof CloneTableStatement clone) {
      return cloneTarget(spark, clone.target()).map(target -> new CloneByName(target, clone));
    }
    return Optional.empty();
  }

  /**
   * The gluecat table a CLONE writes when Delta would get it wrong: a new table in session mode (Delta would
   * create it in the built-in catalog), or an existing gluecat table in either mode (Delta would update the
   * built-in catalog's entry). A new table of a named catalog is Delta's: it creates it through the catalog.
   */
  private static Optional<GlueTarget> cloneTarget(SparkSession spark, LogicalPlan target) {
    LogicalPlan plan = EliminateSubqueryAliases$.MODULE$.apply(target);
    if (plan instanceof UnresolvedRelation relation) {
      return GlueTarget.of(spark, relation.multipartIdentifier()).filter(GlueTarget::inSessionCatalog);
    }
    if (plan instanceof DataSourceV2Relation relation && relation.catalog().isDefined()
        && relation.identifier().isDefined()) {
      Identifier ident = relation.identifier().get();
      java.util.List<String> parts = new java.util.ArrayList<>();
      parts.add(relation.catalog().get().name());
      parts.addAll(java.util.List.of(ident.namespace()));
      parts.add(ident.name());
      return GlueTarget.of(spark, parts);
    }
    return Optional.empty();
  }
}
