package io.gluecat.extensions.planning;

import io.gluecat.catalog.GlueTarget;

import io.gluecat.cache.StatementWarmup;
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
import org.apache.spark.sql.catalyst.plans.logical.UnresolvedWith;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.execution.command.ExplainCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the Glue entries of the tables a statement names all at once, before Spark resolves them one by one.
 * On Spark 4.1 and 4.2, an analyzer rule of the batch that runs before Spark's table resolution (the hint batch;
 * the resolution rules of extensions run after Spark's own, too late): by then CTE references are substituted,
 * so the relations still unresolved are temporary views or tables. Spark 3.5 has no such batch for extensions:
 * there the extension's parser hands the parsed statement's names to {@link #parsed}, and the reads wait on
 * the thread until the statement's first Glue read ({@link StatementWarmup}). Either way each gluecat catalog
 * reads the entries of its tables together ({@link AbstractGlueCatalog#prefetchTables}) into the statement's
 * cache, where Spark's loads then find them: the same GetTable calls, made at once.
 *
 * <p>Only names Spark will certainly load from that catalog are read, so no call is added: not temporary
 * views, not CTE names, not names under time travel (loaded another way), not unqualified names when a SQL
 * PATH may send them elsewhere, nothing while a view's text is analysed (its names resolve against the view's
 * catalog). The plan is returned unchanged, and a failure never fails the statement: the load reports it as
 * without the prefetch.
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
        List<List<String>> names = new ArrayList<>();
        collect(plan, names, new IdentityHashMap<>(), null);
        reads(spark, names).ifPresent(Runnable::run);
      }
    } catch (RuntimeException e) {
      LOG.debug("Prefetching the statement's tables failed; Spark loads them one by one", e);
    }
    return plan;
  }

  /**
   * Spark 3.5: the extension's parser parsed {@code plan} between {@code startMs} and {@code endMs}; its tables
   * are read when the statement starts reading Glue. Before analysis, CTE references are still unresolved
   * relations: names that a CTE of the statement defines are left out, wherever they appear.
   */
  public static void parsed(SparkSession spark, LogicalPlan plan, long startMs, long endMs) {
    Runnable reads = null;
    try {
      List<List<String>> names = new ArrayList<>();
      Set<String> ctes = new java.util.HashSet<>();
      collect(plan, names, new IdentityHashMap<>(), ctes);
      names.removeIf(parts -> parts.size() == 1 && ctes.contains(parts.get(0).toLowerCase(java.util.Locale.ROOT)));
      reads = reads(spark, names).orElse(null);
    } catch (RuntimeException e) {
      LOG.debug("Finding the parsed statement's tables failed; Spark loads them one by one", e);
    }
    StatementWarmup.parsed(plan, startMs, endMs, reads);
  }

  /** The reads of the tables among {@code names}, by catalog; empty when fewer than two would be read. */
  private static Optional<Runnable> reads(SparkSession spark, List<List<String>> names) {
    if (names.size() < 2) {
      return Optional.empty();
    }
    boolean pathEnabled = Boolean.parseBoolean(spark.conf().get(PATH_ENABLED, "false"));
    Map<AbstractGlueCatalog, Set<Identifier>> byCatalog = new LinkedHashMap<>();
    for (List<String> parts : names) {
      if (!certainTable(spark, parts, pathEnabled)) {
        continue;
      }
      Optional<GlueTarget> target = GlueTarget.of(spark, parts);
      target.ifPresent(t -> byCatalog.computeIfAbsent(t.catalog(), c -> new LinkedHashSet<>()).add(t.ident()));
    }
    if (byCatalog.values().stream().mapToInt(Set::size).sum() < 2) {
      return Optional.empty();
    }
    return Optional.of(() -> byCatalog.forEach((catalog, idents) -> {
      try {
        catalog.prefetchTables(idents);
      } catch (RuntimeException e) {
        LOG.debug("Prefetching the statement's tables failed; Spark loads them one by one", e);
      }
    }));
  }

  /** Whether Spark resolves {@code parts} as a table of the catalog the name points to (never a temp view). */
  private static boolean certainTable(SparkSession spark, List<String> parts, boolean pathEnabled) {
    if (parts.size() == 1 && pathEnabled) {
      return false;
    }
    String first = parts.get(0);
    if (parts.size() > 1 && (first.equalsIgnoreCase("session") || first.equalsIgnoreCase("system"))) {
      return false; // Spark 4.2's session-qualified temp view names
    }
    return !spark.sessionState().catalog().isTempView(Scala.list(parts));
  }

  /**
   * The names of the plan's unresolved relations, subqueries included; time-travel relations left out. With
   * {@code ctes} (a parsed plan), also those of CTE definitions and of EXPLAIN's statement, and the CTE names.
   */
  private static void collect(LogicalPlan plan, List<List<String>> names, IdentityHashMap<Object, Boolean> seen,
      Set<String> ctes) {
    if (seen.put(plan, Boolean.TRUE) != null || plan instanceof RelationTimeTravel) {
      return;
    }
    if (plan instanceof UnresolvedRelation relation) {
      names.add(Scala.javaList(relation.multipartIdentifier()));
      return;
    }
    if (ctes != null && plan instanceof UnresolvedWith with) {
      for (Object cte : Scala.javaList(with.cteRelations())) { // (name, body, ..): a pair on 3.5, longer on 4.x
        scala.Product definition = (scala.Product) cte;
        ctes.add(((String) definition.productElement(0)).toLowerCase(java.util.Locale.ROOT));
        collect((LogicalPlan) definition.productElement(1), names, seen, ctes);
      }
    }
    if (ctes != null && plan instanceof ExplainCommand explain) {
      collect(explain.logicalPlan(), names, seen, ctes);
    }
    for (LogicalPlan child : Scala.javaList(plan.children())) {
      collect(child, names, seen, ctes);
    }
    for (Expression expression : Scala.javaList(plan.expressions())) {
      collectSubqueries(expression, names, seen, ctes);
    }
  }

  private static void collectSubqueries(Expression expression, List<List<String>> names,
      IdentityHashMap<Object, Boolean> seen, Set<String> ctes) {
    if (expression instanceof SubqueryExpression subquery) {
      collect(subquery.plan(), names, seen, ctes);
    }
    for (Expression child : Scala.javaList(expression.children())) {
      collectSubqueries(child, names, seen, ctes);
    }
  }
}
