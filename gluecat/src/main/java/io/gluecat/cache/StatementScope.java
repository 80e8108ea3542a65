package io.gluecat.cache;

import org.apache.spark.SparkContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.QueryPlanningTracker;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SQLExecution;
import scala.Option;

/**
 * Which statement the calling thread is working on, as far as Spark tells: the query being analysed (its
 * {@link QueryPlanningTracker}, which Spark sets for the thread while it analyses and plans a query), or
 * the query being executed (the root SQL execution id, a local property Spark sets while it executes one,
 * nested executions included). Outside both, for example a direct call to the catalog from user code, there
 * is no statement, and nothing is shared.
 *
 * <p>A statement's analysis and its execution are told apart by Spark, but for a command (DDL and writes,
 * which Spark executes eagerly right after their analysis, with no user code in between) they are one
 * statement: the execution of a command continues the scope of the analysis that ran last on the thread.
 * The execution of a query (a SELECT collected later) starts a scope of its own, since user code may have
 * run since its analysis.
 */
final class StatementScope {
  private static final String ROOT_EXECUTION_ID = "spark.sql.execution.root.id";
  private static final String EXECUTION_ID = "spark.sql.execution.id";

  private StatementScope() {
  }

  /** What the thread is doing right now; null outside any statement. */
  static Marker current() {
    String execution = null;
    Option<SparkSession> session = SparkSession.getActiveSession();
    if (session.isDefined()) {
      SparkContext sc = session.get().sparkContext();
      execution = sc.getLocalProperty(ROOT_EXECUTION_ID);
      if (execution == null) {
        execution = sc.getLocalProperty(EXECUTION_ID);
      }
    }
    if (execution != null) {
      return new Marker(null, execution);
    }
    Option<QueryPlanningTracker> tracker = QueryPlanningTracker.get();
    return tracker.isDefined() ? new Marker(tracker.get(), null) : null;
  }

  /** Whether the execution {@code id} runs a command (which Spark runs right after analysing it). */
  static boolean executesCommand(String id) {
    try {
      QueryExecution qe = SQLExecution.getQueryExecution(Long.parseLong(id));
      return qe != null && qe.logical() instanceof Command;
    } catch (RuntimeException e) { // not a number, or not known (anymore): not a command we can vouch for
      return false;
    }
  }

  /** A query being analysed (tracker) or executed (execution id): exactly one is set. */
  static final class Marker {
    final QueryPlanningTracker tracker;
    final String execution;

    Marker(QueryPlanningTracker tracker, String execution) {
      this.tracker = tracker;
      this.execution = execution;
    }
  }
}
