package io.gluecat.cache;

import org.apache.spark.sql.catalyst.QueryPlanningTracker;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.SQLExecution;
import scala.Option;

/**
 * Reads that the statement just parsed on this thread should make together as soon as it starts reading Glue:
 * how the session extension prefetches a statement's tables on Spark 3.5, which runs no extension rule before
 * its table resolution (4.x has one, see {@code PrefetchTables}). The parser knows the names but not yet the
 * statement: its analysis, and so its scope (see {@link StatementScope}), begins only afterwards. So the parse
 * leaves the reads pending on the thread, and the first Glue read of a statement's scope claims them: they run
 * then, inside that scope, so every entry they read belongs to that statement and nothing read earlier is served.
 *
 * <p>The pending reads are for one statement only. A read claims them when it belongs to the statement that
 * was parsed: one whose analysis tracker timed its parsing around this parse (what {@code SparkSession.sql}
 * does), or the eager execution of the parsed command itself (EXPLAIN analyses its query only when it runs).
 * The first read of any other statement drops them, and so does the next parse.
 */
public final class StatementWarmup {
  private static final ThreadLocal<Pending> PENDING = new ThreadLocal<>();

  private StatementWarmup() {
  }

  /**
   * A statement was parsed on this thread between {@code startMs} and {@code endMs} (wall clock, as Spark times
   * its phases) into {@code plan}; {@code reads} is what to read when it starts, or null for nothing. Replaces
   * what an earlier parse left. Ignored inside a statement: a view's text parsed while analysing another.
   */
  public static void parsed(Object plan, long startMs, long endMs, Runnable reads) {
    if (StatementScope.current() != null) {
      return;
    }
    if (reads == null) {
      PENDING.remove();
    } else {
      PENDING.set(new Pending(plan, startMs, endMs, reads));
    }
  }

  /** Called before each read of a statement: runs what the parse left when this is its statement. */
  static void claim() {
    Pending pending = PENDING.get();
    if (pending == null) {
      return;
    }
    StatementScope.Marker marker = StatementScope.current();
    if (marker == null) {
      return; // not a statement (a direct call to the catalog): the parsed statement has not started yet
    }
    PENDING.remove();
    if (pending.of(marker)) {
      pending.reads.run();
    }
  }

  private static final class Pending {
    final Object plan;
    final long startMs;
    final long endMs;
    final Runnable reads;

    Pending(Object plan, long startMs, long endMs, Runnable reads) {
      this.plan = plan;
      this.startMs = startMs;
      this.endMs = endMs;
      this.reads = reads;
    }

    boolean of(StatementScope.Marker marker) {
      if (marker.tracker != null) {
        Option<QueryPlanningTracker.PhaseSummary> parsing =
            marker.tracker.phases().get(QueryPlanningTracker.PARSING());
        return parsing.isDefined() && parsing.get().startTimeMs() <= startMs && endMs <= parsing.get().endTimeMs();
      }
      try {
        QueryExecution qe = SQLExecution.getQueryExecution(Long.parseLong(marker.execution));
        return qe != null && qe.logical() == plan;
      } catch (RuntimeException e) { // not a number, or not known (anymore)
        return false;
      }
    }
  }
}
