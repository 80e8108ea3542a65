package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.GlueConcurrentModificationException;
import io.gluecat.it.spark.MiniStackSparkTest;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * 8 threads over two SparkSessions (each with its own instance of the same catalog, as two Spark
 * applications would have) alter the same Delta table and the same parquet table at once, each with names
 * of its own. Every ALTER lands or fails with a retryable conflict (gluecat's GlueConcurrentModificationException,
 * or Delta's own when two commits to its log collide), and is then run again until it lands; the final Glue
 * entries hold every change: no update is lost.
 */
class ConcurrentWritersIT extends MiniStackSparkTest {
  static final int THREADS = 8;
  static final int ROUNDS = 2;
  static final int MAX_TRIES = 20;

  @Test
  void concurrentAltersNeverLoseAnUpdateInGlue() throws Exception {
    String catalog = newCatalog();
    SparkSession second = spark().newSession();
    second.conf().set("spark.sql.catalog." + catalog, "io.gluecat.GlueCatalog");
    ministackOptions().forEach((k, v) -> second.conf().set("spark.sql.catalog." + catalog + "." + k, v));
    String db = newDatabase(newDirectory("db"));
    String delta = catalog + "." + db + ".shared_delta";
    String parquet = catalog + "." + db + ".shared_parquet";
    sql("CREATE TABLE " + delta + " USING delta AS SELECT id FROM range(2)");
    sql("CREATE TABLE " + parquet + " USING parquet AS SELECT id FROM range(2)");

    List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
    Set<String> landed = Collections.synchronizedSet(new TreeSet<>());
    AtomicInteger conflicts = new AtomicInteger();
    AtomicInteger glueConflicts = new AtomicInteger();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    List<Future<?>> writers = new ArrayList<>();
    for (int w = 0; w < THREADS; w++) {
      SparkSession session = w % 2 == 0 ? spark() : second;
      int writer = w;
      writers.add(pool.submit(() -> {
        SparkSession.setActiveSession(session);
        start.await();
        for (int round = 0; round < ROUNDS; round++) {
          String suffix = writer + "_" + round;
          alter(session, "ALTER TABLE " + delta + " ADD COLUMNS (d_" + suffix + " INT)", "d_" + suffix, landed,
              conflicts, glueConflicts, unexpected);
          alter(session, "ALTER TABLE " + parquet + " SET TBLPROPERTIES ('k_" + suffix + "' = 'v" + suffix + "')",
              "k_" + suffix, landed, conflicts, glueConflicts, unexpected);
          alter(session, "ALTER TABLE " + parquet + " ADD COLUMNS (p_" + suffix + " INT)", "p_" + suffix, landed,
              conflicts, glueConflicts, unexpected);
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : writers) {
      f.get(10, TimeUnit.MINUTES);
    }
    pool.shutdown();
    assertEquals(List.of(), unexpected);
    assertEquals(THREADS * ROUNDS * 3, landed.size(), "every ALTER landed in the end: " + landed);

    Table parquetEntry = glueTable(db, "shared_parquet");
    Set<String> parquetColumns = parquetEntry.storageDescriptor().columns().stream().map(c -> c.name())
        .collect(Collectors.toSet());
    Table deltaEntry = glueTable(db, "shared_delta");
    List<String> deltaGlueColumns = deltaEntry.storageDescriptor().columns().stream().map(c -> c.name())
        .collect(Collectors.toList());
    String deltaLocation = deltaEntry.storageDescriptor().serdeInfo().parameters().get("path");
    List<String> deltaLogColumns = List.of(spark().read().format("delta").load(deltaLocation).schema().fieldNames());
    for (String change : landed) {
      if (change.startsWith("k_")) {
        assertEquals("v" + change.substring(2), parquetEntry.parameters().get(change), change);
      } else if (change.startsWith("p_")) {
        assertTrue(parquetColumns.contains(change), change + " in " + parquetColumns);
      } else {
        assertTrue(deltaLogColumns.contains(change), change + " in the log: " + deltaLogColumns);
      }
    }
    assertEquals(deltaLogColumns, deltaGlueColumns, "Glue's Delta columns follow the log");
    assertEquals(2L, spark().table(parquet).count());
    assertEquals(2L, spark().table(delta).count());
    System.out.printf("concurrent writers: %d threads, %d changes landed, %d conflicts retried (%d of them gluecat's)%n",
        THREADS, landed.size(), conflicts.get(), glueConflicts.get());
  }

  /** Runs one ALTER until it lands; only retryable conflicts may stop it on the way. */
  private static void alter(SparkSession session, String statement, String change, Set<String> landed,
      AtomicInteger conflicts, AtomicInteger glueConflicts, List<String> unexpected) {
    for (int attempt = 1; attempt <= MAX_TRIES; attempt++) {
      try {
        session.sql(statement).collectAsList();
        landed.add(change);
        return;
      } catch (Throwable e) {
        String kind = retryable(e);
        if (kind == null) {
          unexpected.add(statement + ": " + TableLoadIT.messages(e));
          return;
        }
        conflicts.incrementAndGet();
        if (kind.equals("gluecat")) {
          glueConflicts.incrementAndGet();
        }
      }
    }
    unexpected.add(statement + ": still conflicting after " + MAX_TRIES + " tries");
  }

  /** "gluecat" or "delta" for a retryable conflict, null for anything else. */
  static String retryable(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof GlueConcurrentModificationException) {
        return "gluecat";
      }
      // Delta's optimistic concurrency: io.delta.exceptions.*ConcurrentModification*, MetadataChangedException...
      for (Class<?> c = t.getClass(); c != null; c = c.getSuperclass()) {
        if (c.getName().equals("org.apache.spark.sql.delta.DeltaConcurrentModificationException")
            || c.getName().equals("io.delta.exceptions.DeltaConcurrentModificationException")) {
          return "delta";
        }
      }
    }
    return null;
  }
}
