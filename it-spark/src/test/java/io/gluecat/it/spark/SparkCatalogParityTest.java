package io.gluecat.it.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.BeforeEach;

/**
 * Parity with Spark's own catalog: each statement runs twice in the same JVM, once on a table of this test's
 * gluecat database ({@link #t}, named or session mode) and once on a table of the same name in a database of
 * Spark's built-in catalog (the shared session's {@code spark_catalog}: Delta's catalog over Spark's in-memory
 * catalog, as a user without gluecat has it). What a user sees is compared: the rows, or the error's condition,
 * SQLSTATE and message, with the names and locations that must differ replaced by placeholders.
 *
 * <p>Statements are templates: {@code {name}} stands for the table {@code name} of the side that runs it
 * ({@code SELECT * FROM {t}}), {@code {db}} for that side's database.
 */
public abstract class SparkCatalogParityTest extends CatalogModeTest {
  private static final Pattern NAME = Pattern.compile("\\{([a-z_][a-z0-9_]*)\\}");
  private static final Pattern LOCATION = Pattern.compile("(file|s3a?):/[^\\s,\\]\\)'\"]*");

  /** The database of Spark's built-in catalog that holds this test's control tables. */
  protected String controlDb;

  @BeforeEach
  protected void setUpControlDatabase() {
    controlDb = unique("ctrl");
    onSpark(() -> spark().sql("CREATE DATABASE spark_catalog." + controlDb + " LOCATION '"
        + newDirectory("ctrl") + "'").collectAsList());
  }

  /** The statement as it runs through gluecat. */
  protected String gluecatStatement(String template) {
    return fill(template, database(), this::t);
  }

  /** The statement as it runs on Spark's own catalog. */
  protected String sparkStatement(String template) {
    String database = "spark_catalog." + controlDb;
    return fill(template, database, table -> database + "." + table);
  }

  private static String fill(String template, String database, java.util.function.Function<String, String> table) {
    Matcher m = NAME.matcher(template);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1);
      m.appendReplacement(out, Matcher.quoteReplacement("db".equals(name) ? database : table.apply(name)));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** What one side answered: rows, or an error. */
  public static final class Outcome {
    public final List<String> rows;
    public final String condition;
    public final String sqlState;
    public final String message;
    public final Throwable error;

    private Outcome(List<String> rows, Throwable error, String condition, String sqlState, String message) {
      this.rows = rows;
      this.error = error;
      this.condition = condition;
      this.sqlState = sqlState;
      this.message = message;
    }

    public boolean failed() {
      return error != null;
    }

    /** The same outcome without the rows that {@code drop} matches (rows a comparison leaves out, saying why). */
    public Outcome without(Predicate<String> drop) {
      return failed() ? this
          : new Outcome(rows.stream().filter(drop.negate()).collect(Collectors.toList()), null, null, null, null);
    }

    /** What a comparison looks at: the rows, or the condition, SQLSTATE and message. */
    public String seen() {
      return failed() ? "error " + condition + " (" + sqlState + "): " + message : "rows " + rows;
    }

    @Override
    public String toString() {
      return seen();
    }
  }

  /** Runs the statement through gluecat. */
  protected Outcome gluecat(String template) {
    String statement = gluecatStatement(template);
    return outcome(() -> session().sql(statement).collectAsList());
  }

  /** Runs the statement on Spark's own catalog, in the shared session. */
  protected Outcome spark(String template) {
    String statement = sparkStatement(template);
    return onSpark(() -> outcome(() -> spark().sql(statement).collectAsList()));
  }

  /** Runs the statement on both sides, Spark's catalog first, and returns {spark, gluecat}. */
  protected Outcome[] both(String template) {
    Outcome spark = spark(template);
    return new Outcome[] {spark, gluecat(template)};
  }

  /** Statements both sides must run without error (the set-up of a comparison). */
  protected void onBoth(String... templates) {
    for (String template : templates) {
      Outcome[] both = both(template);
      assertTrue(!both[0].failed(), () -> "Spark's catalog refused " + sparkStatement(template) + ": " + both[0]);
      assertTrue(!both[1].failed(), () -> "gluecat refused " + gluecatStatement(template) + ": " + both[1]);
    }
  }

  /** Both sides give the same rows (in the same order) or the same error. */
  protected Outcome assertSameOutcome(String template) {
    return assertSameOutcome(template, row -> false);
  }

  /** {@link #assertSameOutcome(String)}, comparing rows without those {@code ignored} matches. */
  protected Outcome assertSameOutcome(String template, Predicate<String> ignored) {
    Outcome[] both = both(template);
    Outcome spark = both[0].without(ignored);
    Outcome gluecat = both[1].without(ignored);
    assertEquals(spark.seen(), gluecat.seen(), () -> "through gluecat (" + catalogMode() + " mode), "
        + gluecatStatement(template) + " answers otherwise than on Spark's own catalog"
        + (both[1].failed() ? "; gluecat's error: " + stackTop(both[1].error) : ""));
    return both[1];
  }

  /** Both sides refuse the statement with the same condition and SQLSTATE, whatever their messages say. */
  protected void assertSameCondition(String template) {
    Outcome[] both = both(template);
    assertTrue(both[0].failed(), () -> "Spark's catalog ran " + sparkStatement(template));
    assertEquals(both[0].condition + " " + both[0].sqlState, both[1].condition + " " + both[1].sqlState,
        () -> gluecatStatement(template) + " through gluecat: " + both[1]);
  }

  /** Both sides give the same rows, in any order. */
  protected void assertSameRowsAnyOrder(String template) {
    Outcome[] both = both(template);
    assertEquals(sorted(both[0]), sorted(both[1]), () -> "through gluecat (" + catalogMode() + " mode), "
        + gluecatStatement(template) + " answers otherwise than on Spark's own catalog");
  }

  private static String sorted(Outcome o) {
    return o.failed() ? o.seen() : "rows " + o.rows.stream().sorted().collect(Collectors.toList());
  }

  private Outcome outcome(Supplier<List<Row>> statement) {
    try {
      List<String> rows = new ArrayList<>();
      for (Row row : statement.get()) {
        rows.add(normalized(row.toString()));
      }
      return new Outcome(rows, null, null, null, null);
    } catch (Exception e) { // AnalysisException is a checked exception to Java, undeclared by Scala
      String condition = e instanceof SparkThrowable ? ((SparkThrowable) e).getErrorClass() : e.getClass().getName();
      String state = e instanceof SparkThrowable ? ((SparkThrowable) e).getSqlState() : null;
      return new Outcome(null, e, condition, state, normalized(firstLine(e.getMessage())));
    }
  }

  /** The text with both sides' catalog, database and locations replaced by placeholders. */
  protected String normalized(String text) {
    if (text == null) {
      return null;
    }
    String s = text.replace("`", "");
    s = LOCATION.matcher(s).replaceAll("<location>");
    for (String database : List.of(catalog + "." + db, "spark_catalog." + controlDb, "spark_catalog." + db)) {
      s = s.replace(database, "<db>");
    }
    s = s.replace(controlDb, "<db>").replace(db, "<db>");
    return s;
  }

  private static String firstLine(String message) {
    if (message == null) {
      return null;
    }
    int end = message.indexOf('\n');
    return end < 0 ? message : message.substring(0, end);
  }

  private static String stackTop(Throwable e) {
    StackTraceElement[] trace = e.getStackTrace();
    return e + (trace.length > 0 ? " at " + trace[0] : "");
  }

  /** Runs {@code work} with the shared session active, as a user of Spark's own catalog would. */
  protected <T> T onSpark(Supplier<T> work) {
    SparkSession before = SparkSession.getActiveSession().isDefined() ? SparkSession.getActiveSession().get() : null;
    SparkSession.setActiveSession(spark());
    try {
      return work.get();
    } finally {
      if (before != null && !Objects.equals(before, spark())) {
        SparkSession.setActiveSession(before);
      }
    }
  }
}
