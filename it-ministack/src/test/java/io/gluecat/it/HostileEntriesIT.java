package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.entries.HostileEntries;
import io.gluecat.testkit.entries.HostileEntries.Entry;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The expensive layer of the hostile-entry suite (HostileEntryReaderTest is the cheap one): a deterministic
 * sample of the generated entries, every kind and shape represented, is created in Glue beside three good
 * tables, and each is loaded by name through Spark. Each load gives a table or an error naming the table;
 * never a raw NullPointerException, ClassCastException, NumberFormatException, IndexOutOfBoundsException,
 * StackOverflowError, URISyntaxException or ExecutionException, never Spark's INTERNAL_ERROR, never a hang
 * (each load is bounded). Listing the database still lists the good tables.
 */
class HostileEntriesIT extends MiniStackSparkTest {
  static final int PER_KIND_AND_SHAPE = 3;
  /**
   * Spark's own refusals of a schema it would never have stored for the provider (the same error as with
   * Spark's own catalog): they name the column and the format, not the table. Counted apart.
   */
  static final Set<String> SPARKS_OWN_REFUSALS = Set.of("UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE");
  static final long LOAD_TIMEOUT_SECONDS = 60;
  /** Exception types a user must never see before an error that names the table. */
  static final Set<String> RAW = Set.of("java.lang.NullPointerException", "java.lang.ClassCastException",
      "java.lang.NumberFormatException", "java.lang.IndexOutOfBoundsException",
      "java.lang.ArrayIndexOutOfBoundsException", "java.lang.StringIndexOutOfBoundsException",
      "java.lang.StackOverflowError", "java.net.URISyntaxException", "java.util.concurrent.ExecutionException",
      "com.google.common.util.concurrent.UncheckedExecutionException", "scala.MatchError");

  @Test
  void everySampledEntryLoadsOrFailsNamingTheTableAndListingStillWorks() throws Exception {
    String catalog = newCatalog();
    String dbLocation = newDirectory("db");
    String db = newDatabase(dbLocation);
    String delta = newDirectory("delta");
    spark().range(0, 4).selectExpr("id", "CAST(id % 2 AS STRING) AS day").write().format("delta")
        .partitionBy("day").save(delta);
    String parquet = newDirectory("parquet");
    spark().range(0, 4).selectExpr("id", "concat('n', id) AS name", "CAST(id % 2 AS STRING) AS day").write()
        .mode("overwrite").partitionBy("day").parquet(parquet);
    String csv = newDirectory("csv");
    Files.writeString(Paths.get(java.net.URI.create(csv)).resolve("part-0.csv"), "id;name\n1;ann\n2;bob\n");
    HostileEntries.Locations at = new HostileEntries.Locations(delta, parquet, csv, dbLocation);

    for (HostileEntries.Base base : HostileEntries.Base.values()) {
      GLUE.createTable(r -> r.databaseName(db).tableInput(HostileEntries.base(base, "good_" + base.name().toLowerCase(), at)));
    }
    List<Entry> sample = HostileEntries.sample(HostileEntries.generate("h", at, 1_200), PER_KIND_AND_SHAPE);
    List<Entry> created = new ArrayList<>();
    int refusedByGlue = 0;
    for (Entry e : sample) {
      try {
        GLUE.createTable(r -> r.databaseName(db).tableInput(e.input()));
        created.add(e);
      } catch (RuntimeException refused) { // MiniStack or the SDK refuses what AWS would refuse too
        refusedByGlue++;
      }
    }

    ExecutorService loads = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "hostile-load");
      t.setDaemon(true);
      return t;
    });
    List<String> failures = new ArrayList<>();
    Map<String, Integer> outcomes = new TreeMap<>();
    try {
      for (Entry e : created) {
        String name = catalog + "." + db + "." + e.name();
        Future<?> load = loads.submit(() -> spark().table(name).schema());
        long start = System.nanoTime();
        try {
          load.get(LOAD_TIMEOUT_SECONDS, TimeUnit.SECONDS);
          outcomes.merge("loaded", 1, Integer::sum);
        } catch (TimeoutException hang) {
          load.cancel(true);
          failures.add(e + ": no answer within " + LOAD_TIMEOUT_SECONDS + " s");
        } catch (java.util.concurrent.ExecutionException failed) {
          Throwable error = failed.getCause();
          String problem = problem(db, e.name(), error);
          if (problem != null && SPARKS_OWN_REFUSALS.stream().anyMatch(c -> String.valueOf(error.getMessage()).contains(c))) {
            outcomes.merge("Spark's own refusal", 1, Integer::sum);
          } else if (problem != null) {
            failures.add(e + ": " + problem + "\n    " + TableLoadIT.messages(error).replace("\n", "\n    "));
          } else {
            outcomes.merge(error.getClass().getSimpleName(), 1, Integer::sum);
          }
        } finally {
          long millis = (System.nanoTime() - start) / 1_000_000;
          if (millis > 2_000) {
            System.out.printf("slow load: %s took %d ms%n", e, millis);
          }
        }
      }
      // every good table still loads, and the listing holds them all
      for (HostileEntries.Base base : HostileEntries.Base.values()) {
        assertFalse(spark().table(catalog + "." + db + ".good_" + base.name().toLowerCase()).schema().isEmpty(),
            base.toString());
      }
      assertEquals(4L, spark().table(catalog + "." + db + ".good_gluecat_delta").count());
      assertEquals(4L, spark().table(catalog + "." + db + ".good_hive_parquet").count());
      Set<String> listed = sql("SHOW TABLES IN " + catalog + "." + db).stream().map(r -> r.getString(1))
          .collect(Collectors.toSet());
      for (HostileEntries.Base base : HostileEntries.Base.values()) {
        assertTrue(listed.contains("good_" + base.name().toLowerCase()), listed.toString());
      }
    } finally {
      loads.shutdownNow();
    }
    System.out.printf("hostile entries: %d sampled, %d refused by Glue, %d loaded through Spark: %s%n",
        sample.size(), refusedByGlue, created.size(), outcomes);
    assertEquals(List.of(), failures, failures.size() + " of " + created.size() + " loads");
    assertTrue(created.size() >= 180, "sampled entries created in Glue: " + created.size());
  }

  /** What is wrong with {@code error} as the answer to loading {@code db.table}; null when nothing is. */
  static String problem(String db, String table, Throwable error) {
    List<Throwable> chain = new ArrayList<>();
    for (Throwable t = error; t != null && !chain.contains(t); t = t.getCause()) {
      chain.add(t);
    }
    for (Throwable t : chain) {
      if (String.valueOf(t.getMessage()).contains("INTERNAL_ERROR")) {
        return "Spark's INTERNAL_ERROR";
      }
    }
    int naming = -1;
    for (int i = 0; i < chain.size() && naming < 0; i++) {
      String message = String.valueOf(chain.get(i).getMessage());
      if (message.contains(db + "." + table) || message.contains("`" + db + "`.`" + table + "`")) {
        naming = i;
      }
    }
    if (naming < 0) {
      return "an error that does not name the table";
    }
    for (int i = 0; i <= naming; i++) {
      if (RAW.contains(chain.get(i).getClass().getName())) {
        return "a raw " + chain.get(i).getClass().getName();
      }
    }
    return null;
  }
}
