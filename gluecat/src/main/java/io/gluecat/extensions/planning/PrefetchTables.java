package io.gluecat.extensions.planning;

import io.gluecat.extensions.GlueTarget;

import io.gluecat.catalog.AbstractGlueCatalog;
import io.gluecat.compat.Scala;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.AnalysisContext;
import org.apache.spark.sql.catalyst.analysis.RelationTimeTravel;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.SubqueryExpression;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the Glue entries of the tables a statement names all at once, before Spark resolves them one by one.
 * An analyzer rule of the batch that runs before Spark's table resolution (the hint batch, Spark 4.1 and 4.2;
 * the resolution rules of extensions run after Spark's own, too late): by then CTE references are substituted,
 * so the relations still unresolved are temporary views or tables. Each gluecat catalog reads the entries of
 * its tables together ({@link AbstractGlueCatalog#prefetchTables}) into the statement's cache, where Spark's
 * loads then find them: the same GetTable calls, made at once.
 *
 * <p>Only names Spark will certainly load from that catalog are read, so no call is added: not temporary
 * views, not names under time travel (loaded another way), not unqualified names when a SQL PATH may send them
 * elsewhere, nothing while a view's text is analysed (its names resolve against the view's catalog). The plan
 * is returned unchanged, and a failure never fails the statement: the load reports it as without the rule.
 */
public final class PrefetchTables extends Rule<LogicalPlan> {
  private static final Logger LOG = LoggerFactory.getLogger(PrefetchTables.class);
  /** Spark 4.2's SQL PATH: with it on, an unqualified name may resolve in another catalog or namespace. */
  private static final String PATH_ENABLED = "spark.sql.path.enabled";

  /** Builds the rule for a session (typed loosely: the session class differs between Spark lines). */
  public static final scala.Function1<Object, Rule<LogicalPlan>> BUILDER =
      new scala.runtime.AbstractFunction1<Object, Rule<LogicalPlan>>() {
        @Override
        public Rule<LogicalPlan> apply(Object session) {
          return new PrefetchTables((SparkSession) session);
        }
      };

  private final SparkSession spark;

  public PrefetchTables(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    try {
      if (AnalysisContext.get().catalogAndNamespace().isEmpty()) {
        prefetch(plan);
      }
    } catch (RuntimeException e) {
      LOG.debug("Prefetching the statement's tables failed; Spark loads them one by one", e);
    }
    return plan;
  }

  private void prefetch(LogicalPlan plan) {
    List<List<String>> names = new ArrayList<>();
    collect(plan, names, new IdentityHashMap<>());
    if (names.size() < 2) {
      return;
    }
    boolean pathEnabled = Boolean.parseBoolean(spark.conf().get(PATH_ENABLED, "false"));
    Map<AbstractGlueCatalog, Set<Identifier>> byCatalog = new LinkedHashMap<>();
    for (List<String> parts : names) {
      if (!certainTable(parts, pathEnabled)) {
        continue;
      }
      Optional<GlueTarget> target = GlueTarget.of(spark, parts);
      target.ifPresent(t -> byCatalog.computeIfAbsent(t.catalog(), c -> new LinkedHashSet<>()).add(t.ident()));
    }
    byCatalog.forEach((catalog, idents) -> catalog.prefetchTables(idents));
  }

  /** Whether Spark resolves {@code parts} as a table of the catalog the name points to (never a temp view). */
  private boolean certainTable(List<String> parts, boolean pathEnabled) {
    if (parts.size() == 1 && pathEnabled) {
      return false;
    }
    String first = parts.get(0);
    if (parts.size() > 1 && (first.equalsIgnoreCase("session") || first.equalsIgnoreCase("system"))) {
      return false; // Spark 4.2's session-qualified temp view names
    }
    return !spark.sessionState().catalog().isTempView(Scala.list(parts));
  }

  /** The names of the plan's unresolved relations, subqueries included; time-travel relations left out. */
  private static void collect(LogicalPlan plan, List<List<String>> names, IdentityHashMap<Object, Boolean> seen) {
    if (seen.put(plan, Boolean.TRUE) != null || plan instanceof RelationTimeTravel) {
      return;
    }
    if (plan instanceof UnresolvedRelation relation) {
      names.add(Scala.javaList(relation.multipartIdentifier()));
      return;
    }
    for (LogicalPlan child : Scala.javaList(plan.children())) {
      collect(child, names, seen);
    }
    for (Expression expression : Scala.javaList(plan.expressions())) {
      collectSubqueries(expression, names, seen);
    }
  }

  private static void collectSubqueries(Expression expression, List<List<String>> names,
      IdentityHashMap<Object, Boolean> seen) {
    if (expression instanceof SubqueryExpression subquery) {
      collect(subquery.plan(), names, seen);
    }
    for (Expression child : Scala.javaList(expression.children())) {
      collectSubqueries(child, names, seen);
    }
  }
}
