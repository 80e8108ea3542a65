package io.gluecat.cache;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.SparkContext;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerEvent;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.QueryPlanningTracker;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.execution.QueryExecution;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionEnd;
import org.apache.spark.sql.execution.ui.SparkListenerSQLExecutionStart;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * One INFO line per statement with the Glue and STS calls a catalog made for it (the catalog option
 * {@code log.statement-calls}): the calls by operation, their retries, throttled attempts and failures, and the
 * time spent in them, under the statement's description as Spark's SQL tab shows it (the job description, when
 * the application set one, else Spark's call site).
 *
 * <p>Calls are added to the statement the calling thread works on ({@link StatementLocal}: a command's analysis
 * and execution are one statement). A statement is over when Spark ends its root SQL execution; a listener on
 * Spark's bus then logs it, shortly after. The analysis of a query is found again from its execution (its
 * {@code QueryPlanningTracker}); a command whose execution made no call (an INSERT into a Delta table reads its
 * entry while it is analysed) is matched to the command execution that started next after its last call. A
 * statement that never executes (one that failed in its analysis, or a query analysed and not run) is logged as
 * {@code (not executed)} when the next statement ends, under the job description or call site it was analysed
 * with. So in a driver that runs statements on several threads at once, such calls may be logged under a
 * neighbouring statement's description, or in two lines; each call is counted in one line only.
 */
public final class StatementCalls implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StatementCalls.class);

  private final String catalog;
  private final StatementLocal<Tally> current = new StatementLocal<>(Tally::new);
  private final SparkContext context;
  private final SparkListener listener = new Listener();
  // all guarded by this
  private final Map<Long, Tally> byExecution = new HashMap<>();
  /** Statements seen only in their analysis so far, by tracker; kept (weakly referenced) until logged. */
  private final List<Tally> analysed = new ArrayList<>();
  private final Map<Long, Long> started = new HashMap<>();
  private final Map<Long, String> descriptions = new HashMap<>();

  private StatementCalls(String catalog, SparkContext context) {
    this.catalog = catalog;
    this.context = context;
    context.addSparkListener(listener);
  }

  /** The statement log of {@code catalog}, listening on the active session's Spark; null without one. */
  public static StatementCalls start(String catalog) {
    Option<SparkSession> session = SparkSession.getActiveSession();
    if (session.isEmpty()) {
      session = SparkSession.getDefaultSession();
    }
    return session.isEmpty() ? null : new StatementCalls(catalog, session.get().sparkContext());
  }

  /** One finished call, made by the calling thread. Calls outside any statement are not logged. */
  public void record(String operation, int retries, int throttles, boolean failed, long nanos) {
    StatementScope.Marker marker = StatementScope.current();
    Tally tally = marker == null ? null : current.get();
    if (tally == null) {
      return;
    }
    synchronized (this) {
      if (tally.logged) { // logged as not executed while the thread was still at it: the rest goes to a new line
        tally.reset();
      }
      if (tally.description == null) {
        tally.description = description();
      }
      tally.add(operation, retries, throttles, failed, nanos);
      if (marker.execution != null) {
        Long id = parse(marker.execution);
        if (id != null && !tally.executions.contains(id)) {
          tally.executions.add(id);
          byExecution.put(id, tally);
          analysed.remove(tally);
        }
      } else if (tally.executions.isEmpty()) {
        tally.lastAnalysisCall = System.currentTimeMillis();
        if (tally.tracker == null || tally.tracker.get() != marker.tracker) {
          tally.tracker = new WeakReference<>(marker.tracker);
        }
        if (!analysed.contains(tally)) {
          analysed.add(tally);
        }
      }
    }
  }

  private synchronized void executionStarted(SparkListenerSQLExecutionStart start) {
    Option<Object> root = start.rootExecutionId();
    if (root.isEmpty() || ((Long) root.get()) == start.executionId()) {
      started.put(start.executionId(), start.time());
      descriptions.put(start.executionId(), start.description());
    }
  }

  /** The calling thread's job description, else Spark's call site, as Spark describes an execution. */
  private String description() {
    String job = context.getLocalProperty("spark.job.description");
    return job != null ? job : context.getCallSite().shortForm();
  }

  private void executionEnded(SparkListenerSQLExecutionEnd end) {
    long id = end.executionId();
    Tally tally;
    String description;
    List<Tally> notExecuted = new ArrayList<>();
    synchronized (this) {
      Long start = started.remove(id);
      description = descriptions.remove(id);
      if (start == null) {
        return; // a nested execution: its calls belong to its root's statement
      }
      tally = byExecution.remove(id);
      QueryExecution qe = end.qe();
      Tally analysis = qe == null ? null : removeAnalysis(qe.tracker());
      if (analysis != null && analysis != tally) {
        tally = tally == null ? analysis : tally.plus(analysis);
      }
      if (tally == null && qe != null && qe.logical() instanceof Command) {
        tally = latestAnalysisBefore(start);
      }
      if (tally != null) {
        tally.logged = true;
      }
      for (java.util.Iterator<Tally> i = analysed.iterator(); i.hasNext(); ) {
        Tally t = i.next();
        if (t.lastAnalysisCall <= start) {
          i.remove();
          t.logged = true;
          notExecuted.add(t.copy());
        }
      }
      tally = tally == null ? null : tally.copy();
    }
    if (LOG.isInfoEnabled()) {
      for (Tally t : notExecuted) {
        LOG.info(line(t.description, -1, t));
      }
      if (tally != null) {
        LOG.info(line(description, id, tally));
      }
    }
  }

  /** The analysis-only statement analysed with {@code tracker}, removed; null if none. */
  private Tally removeAnalysis(QueryPlanningTracker tracker) {
    for (Tally t : analysed) {
      if (t.tracker != null && t.tracker.get() == tracker) {
        analysed.remove(t);
        return t;
      }
    }
    return null;
  }

  /** The analysis-only statement whose last call came last before {@code start}, removed; null if none. */
  private Tally latestAnalysisBefore(long start) {
    Tally latest = null;
    for (Tally t : analysed) {
      if (t.lastAnalysisCall <= start && (latest == null || t.lastAnalysisCall > latest.lastAnalysisCall)) {
        latest = t;
      }
    }
    analysed.remove(latest);
    return latest;
  }

  /** The log line: {@code gluecat catalog glue: statement "<description>" (SQL execution 7): 3 Glue calls ...}. */
  String line(String description, long execution, Tally t) {
    StringBuilder b = new StringBuilder("gluecat catalog ").append(catalog).append(": statement \"")
        .append(description == null ? "" : description.replace('\n', ' '))
        .append(execution < 0 ? "\" (not executed): " : "\" (SQL execution " + execution + "): ").append(t.calls).append(t.calls == 1 ? " Glue call" : " Glue calls")
        .append(" in ").append(t.nanos / 1_000_000).append(" ms (");
    List<String> ops = new ArrayList<>();
    t.byOperation.forEach((op, n) -> ops.add(op + " " + n));
    b.append(String.join(", ", ops)).append("), ").append(t.retries).append(t.retries == 1 ? " retry, " : " retries, ")
        .append(t.throttles).append(" throttled, ").append(t.failed).append(" failed");
    return b.toString();
  }

  private static Long parse(String id) {
    try {
      return Long.parseLong(id);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  @Override
  public void close() {
    context.removeSparkListener(listener);
  }

  /** What one statement's calls add up to. */
  static final class Tally {
    final Map<String, Integer> byOperation = new TreeMap<>();
    final List<Long> executions = new ArrayList<>();
    String description;
    WeakReference<QueryPlanningTracker> tracker;
    boolean logged;
    long lastAnalysisCall;
    int calls;
    int retries;
    int throttles;
    int failed;
    long nanos;

    void add(String operation, int retried, int throttled, boolean failure, long took) {
      byOperation.merge(operation, 1, Integer::sum);
      calls++;
      retries += retried;
      throttles += throttled;
      failed += failure ? 1 : 0;
      nanos += took;
    }

    void reset() {
      byOperation.clear();
      executions.clear();
      logged = false;
      calls = retries = throttles = failed = 0;
      nanos = 0;
    }

    /** What the tally holds now, for logging outside the lock. */
    Tally copy() {
      Tally c = plus(null);
      c.description = description;
      return c;
    }

    Tally plus(Tally other) {
      Tally sum = new Tally();
      for (Tally t : other == null ? new Tally[] {this} : new Tally[] {this, other}) {
        t.byOperation.forEach((op, n) -> sum.byOperation.merge(op, n, Integer::sum));
        sum.calls += t.calls;
        sum.retries += t.retries;
        sum.throttles += t.throttles;
        sum.failed += t.failed;
        sum.nanos += t.nanos;
      }
      return sum;
    }
  }

  private final class Listener extends SparkListener {
    @Override
    public void onOtherEvent(SparkListenerEvent event) {
      if (event instanceof SparkListenerSQLExecutionStart) {
        executionStarted((SparkListenerSQLExecutionStart) event);
      } else if (event instanceof SparkListenerSQLExecutionEnd) {
        executionEnded((SparkListenerSQLExecutionEnd) event);
      }
    }
  }
}
