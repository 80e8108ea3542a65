package io.gluecat.it.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gluecat.it.spark.CatalogModeTest;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * REORG TABLE (and TRUNCATE TABLE) of a Delta table by a gluecat name, on the runtime pair's Spark and Delta: REORG
 * works, or, on a pair where Delta fails it with a linkage error (Delta before 4.3.0 on Spark 4.1.2 and later, AWS
 * Glue 6.1; Delta 4.0.0 on Spark 4.0.1 and later, Amazon EMR 8.0), is refused with gluecat's message naming both
 * versions and the fix, never a bare linkage error, and leaves the table's rows as they were. Not a journey step
 * of the report.
 */
class DeltaMaintenanceIT extends CatalogModeTest {
  private static final RuntimePair PAIR = RuntimePair.fromMatrix();

  /** Whether the pair's Delta fails these statements inside Delta (the journey's ALTER step has the same limit). */
  private static boolean ignoreCachedDataBreak() {
    return !PAIR.limitOf("runtime-07-delta-alter-add-columns").isEmpty();
  }

  /**
   * The fix gluecat's refusal of REORG names, on a pair where Delta fails it (DeltaSupport's known breaks); null
   * where it runs. Amazon EMR 8.0 as Maven Central serves it (Delta 4.0.0 on Spark 4.0.2): Delta's purge calls a
   * Spark 4.0.0 constructor, NoSuchMethodError in every task.
   */
  private static String reorgFix() {
    if (ignoreCachedDataBreak()) {
      return "Use Delta 4.4.0";
    }
    boolean purgeBreak = PAIR.delta().equals("4.0.0") && PAIR.spark().startsWith("4.0.") && !PAIR.spark().equals("4.0.0");
    return purgeBreak ? "Use Delta 4.0.1" : null;
  }

  @Test
  void reorgOfADeltaTable() {
    run("CREATE TABLE " + t("maint") + " (id INT, name STRING) USING delta");
    run("INSERT INTO " + t("maint") + " VALUES (1, 'a'), (2, 'b')");
    String reorg = "REORG TABLE " + t("maint") + " APPLY (PURGE)";
    if (!sessionMode() && (PAIR.delta().startsWith("3.") || PAIR.delta().startsWith("4.0."))) {
      // A known limit (docs/how-it-works.md): Delta 3.3 and 4.0 look REORG's table up in the session catalog only
      Throwable e = assertThrows(Throwable.class, () -> run(reorg));
      assertTrue(e.getMessage().contains("TABLE_OR_VIEW_NOT_FOUND"), e::toString);
    } else if (reorgFix() != null) {
      Throwable e = assertThrows(Throwable.class, () -> run(reorg));
      String messages = RuntimeJourney.messages(e);
      assertFalse(e instanceof LinkageError, () -> "not a bare linkage error: " + messages
          + java.util.Arrays.stream(e.getStackTrace()).limit(25).map(String::valueOf)
              .collect(java.util.stream.Collectors.joining("\n  at ", "  at ", "")));
      assertTrue(messages.contains("Delta Lake " + PAIR.delta() + " on Spark " + PAIR.spark() + " cannot run")
          && messages.contains(reorgFix()), messages);
    } else {
      run(reorg);
    }
    assertEquals(List.of("[1,a]", "[2,b]"), rows("SELECT * FROM " + t("maint") + " ORDER BY id"));
    Throwable truncate = null;
    try {
      run("TRUNCATE TABLE " + t("maint"));
    } catch (Throwable e) { // AnalysisException is checked to Java, undeclared by Scala
      truncate = e;
    }
    // Delta's tables take no TRUNCATE on any pair (Spark: "Table does not support truncates"), as with Delta's own
    // catalog; what matters here is that it is Spark's refusal, not a linkage error, and nothing was removed
    if (truncate != null) {
      assertFalse(truncate instanceof LinkageError, truncate::toString);
      assertEquals(List.of("[1,a]", "[2,b]"), rows("SELECT * FROM " + t("maint") + " ORDER BY id"));
    }
  }
}
