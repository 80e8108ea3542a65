package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * Fault injection at every step. Each statement (create, CTAS, RTAS, CREATE OR REPLACE, ALTER, SET LOCATION,
 * REFRESH, RENAME, DROP) is first run without faults to list the Glue and STS calls it makes; then each of
 * those calls is made to fail in turn, in a new catalog (so that its role is assumed again), with:
 *
 * <ul>
 *   <li>a fault that surfaces: AccessDenied, or throttling, a 5xx or a connection reset that outlasts the
 *   retries (glue.max-attempts=1 makes the first one final; the kinds take turns over the calls);
 *   <li>a throttling, 5xx or reset that happens once, which the SDK's retries absorb (glue.max-attempts=3);
 *   <li>on the calls that write, a reset after Glue applied the request (the answer is lost, the SDK
 *   retries), and Glue's ConcurrentModificationException.
 * </ul>
 *
 * Every outcome must be one of: success (the same result as without the fault); nothing changed anywhere
 * (Glue entries, VersionIds and files as before); or the documented recoverable state, with its exception,
 * whose recovery statement (taken from the message) then gives the fault-free result. Whatever the outcome,
 * no file is lost and no Glue entry points at nothing. The outcomes are the fault table of
 * docs/reliability.md, which the test checks.
 */
class FaultInjectionIT extends MiniStackSparkTest {
  private static final String ROLE = "arn:aws:iam::000000000000:role/gluecat-faults";
  private static final List<String> SURFACING = List.of("AccessDenied", "Throttling", "5xx", "reset");
  private static final List<String> TRANSIENT = List.of("Throttling", "5xx", "reset");
  private static final Set<String> WRITES = Set.of("CreateTable", "UpdateTable", "DeleteTable");

  /** The names one run of a statement uses; {@code c} is the catalog the statement runs in. */
  static final class Names {
    final String root;
    final String db;
    final String table;
    String c;
    final String spare;

    Names(String root, String db, String table, String spare) {
      this.root = root;
      this.db = db;
      this.table = table;
      this.spare = spare;
    }

    String t() { return c + "." + db + "." + table; }
    String t2() { return c + "." + db + "." + table + "_renamed"; }
  }

  interface Step {
    void run(Names n) throws Exception;
  }

  /** One statement under test: how to prepare its table, the statement, and what its success looks like. */
  static final class Case {
    final String id;
    final String statement;
    final Step setup;
    final java.util.function.Function<Names, String> sql;
    final Step verify;
    final String columns;

    Case(String id, String statement, Step setup, java.util.function.Function<Names, String> sql, Step verify,
        String columns) {
      this.id = id;
      this.statement = statement;
      this.setup = setup;
      this.sql = sql;
      this.verify = verify;
      this.columns = columns;
    }
  }

  private String setupCatalog;

  private static long count(String table) {
    return spark().table(table).count();
  }

  private static List<String> glueColumns(Names n, String table) {
    return glueTable(n.db, table).storageDescriptor().columns().stream().map(c -> c.name())
        .collect(Collectors.toList());
  }

  private void deltaTable(Names n, int rows) {
    sql("CREATE TABLE " + setupCatalog + "." + n.db + "." + n.table + " USING delta AS SELECT id FROM range(" + rows + ")");
  }

  private void parquetTable(Names n, int rows) {
    sql("CREATE TABLE " + setupCatalog + "." + n.db + "." + n.table + " USING parquet AS SELECT id FROM range(" + rows + ")");
  }

  private List<Case> cases() {
    List<Case> cases = new ArrayList<>();
    cases.add(new Case("create-delta", "CREATE TABLE t (id BIGINT) USING delta", n -> { },
        n -> "CREATE TABLE " + n.t() + " (id BIGINT) USING delta",
        n -> assertEquals(0L, count(n.t())), "id BIGINT"));
    cases.add(new Case("create-parquet", "CREATE TABLE t (id BIGINT) USING parquet", n -> { },
        n -> "CREATE TABLE " + n.t() + " (id BIGINT) USING parquet",
        n -> assertEquals(0L, count(n.t())), "id BIGINT"));
    cases.add(new Case("ctas-delta", "CREATE TABLE t USING delta AS SELECT ...", n -> { },
        n -> "CREATE TABLE " + n.t() + " USING delta AS SELECT id FROM range(3)",
        n -> assertEquals(3L, count(n.t())), "id BIGINT"));
    cases.add(new Case("ctas-parquet", "CREATE TABLE t USING parquet AS SELECT ...", n -> { },
        n -> "CREATE TABLE " + n.t() + " USING parquet AS SELECT id FROM range(3)",
        n -> assertEquals(3L, count(n.t())), "id BIGINT"));
    cases.add(new Case("rtas-delta", "REPLACE TABLE t USING delta AS SELECT ...", n -> deltaTable(n, 2),
        n -> "REPLACE TABLE " + n.t() + " USING delta AS SELECT id, id AS x FROM range(5)",
        n -> {
          assertEquals(5L, count(n.t()));
          assertEquals(List.of("id", "x"), glueColumns(n, n.table));
        }, "id BIGINT, x BIGINT"));
    cases.add(new Case("create-or-replace-delta", "CREATE OR REPLACE TABLE t USING delta AS SELECT ...",
        n -> deltaTable(n, 2),
        n -> "CREATE OR REPLACE TABLE " + n.t() + " USING delta AS SELECT id, id AS x FROM range(5)",
        n -> {
          assertEquals(5L, count(n.t()));
          assertEquals(List.of("id", "x"), glueColumns(n, n.table));
        }, "id BIGINT, x BIGINT"));
    cases.add(new Case("create-or-replace-parquet", "CREATE OR REPLACE TABLE t USING parquet AS SELECT ...",
        n -> parquetTable(n, 2),
        n -> "CREATE OR REPLACE TABLE " + n.t() + " USING parquet AS SELECT id, id AS x FROM range(5)",
        n -> {
          assertEquals(5L, count(n.t()));
          assertEquals(List.of("id", "x"), glueColumns(n, n.table));
        }, "id BIGINT, x BIGINT"));
    cases.add(new Case("alter-delta", "ALTER TABLE t ADD COLUMNS (y INT) (Delta)", n -> deltaTable(n, 2),
        n -> "ALTER TABLE " + n.t() + " ADD COLUMNS (y INT)",
        n -> assertEquals(List.of("id", "y"), glueColumns(n, n.table)), null));
    cases.add(new Case("alter-parquet", "ALTER TABLE t SET TBLPROPERTIES (..) (parquet)", n -> parquetTable(n, 2),
        n -> "ALTER TABLE " + n.t() + " SET TBLPROPERTIES ('stage' = 'prod')",
        n -> assertEquals("prod", glueTable(n.db, n.table).parameters().get("stage")), null));
    cases.add(new Case("set-location-delta", "ALTER TABLE t SET LOCATION '...' (Delta)", n -> {
          deltaTable(n, 2);
          spark().range(7).write().format("delta").save(n.spare);
        },
        n -> "ALTER TABLE " + n.t() + " SET LOCATION '" + n.spare + "'",
        n -> assertEquals(7L, count(n.t())), null));
    cases.add(new Case("refresh-delta", "REFRESH TABLE t (Delta, after a schema change)", n -> {
          deltaTable(n, 2);
          String location = glueTable(n.db, n.table).storageDescriptor().serdeInfo().parameters().get("path");
          spark().range(1).selectExpr("id", "'e' AS extra").write().format("delta").mode("append")
              .option("mergeSchema", "true").save(location);
        },
        n -> "REFRESH TABLE " + n.t(),
        n -> assertEquals(List.of("id", "extra"), glueColumns(n, n.table)), null));
    cases.add(new Case("rename", "ALTER TABLE t RENAME TO t2", n -> deltaTable(n, 2),
        n -> "ALTER TABLE " + n.t() + " RENAME TO " + n.t2(),
        n -> {
          assertEquals(2L, count(n.t2()));
          assertFalse(spark().catalog().tableExists(n.t()));
        }, null));
    cases.add(new Case("drop", "DROP TABLE t", n -> deltaTable(n, 2),
        n -> "DROP TABLE " + n.t(),
        n -> assertFalse(spark().catalog().tableExists(n.t())), null));
    return cases;
  }

  /** One way to fail a call. */
  static final class Variant {
    final String column;
    final String kind;
    final int attempts;
    final boolean afterResponse;

    Variant(String column, String kind, int attempts, boolean afterResponse) {
      this.column = column;
      this.kind = kind;
      this.attempts = attempts;
      this.afterResponse = afterResponse;
    }

    Fault fault(String service, String operation, int occurrence) {
      Fault.Builder b = ("Sts".equals(service) ? Fault.sts(operation) : Fault.glue(operation)).onCall(occurrence);
      switch (kind) {
        case "AccessDenied": b.accessDenied(); break;
        case "Throttling": b.throttling(); break;
        case "5xx": b.internalError(); break;
        case "reset": b.connectionReset(); break;
        case "ConcurrentModification": b.concurrentModification(); break;
        default: throw new IllegalArgumentException(kind);
      }
      if (afterResponse) {
        b.afterResponse();
      }
      // STS's client keeps the SDK's default attempts: a surfacing STS fault fires on every one of them
      if ("Sts".equals(service) && column.equals(SURFACES)) {
        b.always();
      }
      return b.build();
    }
  }

  /**
   * Whether this line tries every kind of fault, or only the one that surfaces. The three others (absorbed by
   * the SDK's retries, a reset after Glue applied the call, Glue's ConcurrentModification) depend on the SDK and
   * on gluecat's handling of the write, not on the Spark line: their columns came out the same on every line, so
   * they run on the newest row only (docs/reliability.md), while the Spark line's own calls and the outcome of
   * each failing are tried on every line.
   */
  private static final boolean EVERY_KIND = io.gluecat.testkit.Repository.isNewestRowOrNone();

  static final String SURFACES = "fault that surfaces";
  static final String ONCE = "transient fault, once";
  static final String APPLIED = "reset after Glue applied it";
  static final String CONFLICT = "ConcurrentModification";

  @Test
  void everyFaultPointEndsInSuccessNothingChangedOrTheDocumentedRecoverableState() throws Exception {
    setupCatalog = newCatalog();
    // Glue faults run in one catalog per attempts setting, its role already assumed; an STS fault needs a
    // catalog that has not assumed its role yet, so it gets a new one.
    Map<Integer, String> catalogs = new TreeMap<>();
    for (int attempts : new int[] {1, 2, 3}) {
      String name = faultCatalog(attempts);
      sql("SHOW NAMESPACES IN " + name);
      catalogs.put(attempts, name);
    }
    String root = newDirectory("faults");
    String db = newDatabase(root + "/db");
    Map<String, Map<String, Set<String>>> table = new TreeMap<>(); // case no.|statement|call -> column -> outcomes
    List<String> failures = new ArrayList<>();
    int runs = 0;
    int points = 0;
    int counter = 0;
    int caseNumber = 0;
    for (Case c : cases()) {
      caseNumber++;
      long started = System.nanoTime();
      int runsBefore = runs;
      Names n = new Names(root, db, "t" + counter++, newDirectory("spare"));
      c.setup.run(n);
      n.c = faultCatalog(3); // new, so that the probe sees its AssumeRole too
      GlueCallRecorder.clear();
      sql(c.sql.apply(n));
      List<GlueCall> probe = GlueCallRecorder.calls();
      c.verify.run(n);
      boolean dirty = true;
      Map<String, Integer> seen = new TreeMap<>();
      int turn = 0;
      for (GlueCall call : probe) {
        if (call.attempt() > 1) {
          continue;
        }
        String op = call.operation();
        int occurrence = seen.merge(call.service() + "." + op, 1, Integer::sum);
        points++;
        List<Variant> variants = new ArrayList<>();
        variants.add(new Variant(SURFACES, SURFACING.get(turn % SURFACING.size()), 1, false));
        boolean sts = "Sts".equals(call.service());
        if (EVERY_KIND && (WRITES.contains(op) || sts)) {
          // elsewhere a transient fault is absorbed the same way (GlueRetriesTest); here it matters most
          variants.add(new Variant(ONCE, TRANSIENT.get(turn % TRANSIENT.size()), 3, false));
        }
        if (EVERY_KIND && WRITES.contains(op)) {
          variants.add(new Variant(APPLIED, "reset", 2, true));
          variants.add(new Variant(CONFLICT, "ConcurrentModification", 1, false));
        }
        turn++;
        for (Variant v : variants) {
          if (dirty) {
            n = new Names(root, db, "t" + counter++, newDirectory("spare"));
            c.setup.run(n);
          }
          n.c = "Sts".equals(call.service()) ? faultCatalog(v.attempts) : catalogs.get(v.attempts);
          String outcome;
          World before = World.of(db, root);
          long runStarted = System.nanoTime();
          Throwable error = null;
          try (Fault.Handle h = GlueFaults.inject(v.fault(call.service(), op, occurrence))) {
            try {
              sql(c.sql.apply(n));
            } catch (Throwable t) {
              error = t;
            }
            if (h.fired() == 0) {
              failures.add(c.id + " " + op + " #" + occurrence + " " + v.kind + ": the fault never fired");
            }
          }
          runs++;
          World after = World.of(db, root);
          String where = c.id + " / " + call.service() + "." + op + " #" + occurrence + " / " + v.column + " ("
              + v.kind + ")";
          long statementMillis = (System.nanoTime() - runStarted) / 1_000_000;
          outcome = classify(c, n, error, before, after, where, failures);
          System.out.printf("  %s: %s (%d ms, then %d ms)%n", where, outcome, statementMillis,
              (System.nanoTime() - runStarted) / 1_000_000 - statementMillis);
          dirty = !outcome.equals("nothing changed");
          List<String> broken = after.problems(before);
          if (!broken.isEmpty()) {
            failures.add(where + ": " + broken);
          }
          table.computeIfAbsent(String.format("%02d|%s|%s", caseNumber, c.statement, call.service() + "." + op),
              k -> new LinkedHashMap<>())
              .computeIfAbsent(v.column, k -> new TreeSet<>()).add(outcome);
        }
      }
      System.out.printf("fault injection: %s, %d runs, %d ms%n", c.id, runs - runsBefore,
          (System.nanoTime() - started) / 1_000_000);
    }
    System.out.printf("fault injection: %d statements, %d fault points, %d runs%n", cases().size(), points, runs);
    assertEquals(List.of(), failures, String.join("\n", failures));
    // one table per Spark line: the lines make different calls (Spark 4.1 reads the database more often)
    ReliabilityDoc.check("fault-table-" + System.getProperty("gluecat.matrix.row", "unknown-line"), render(table));
    ReliabilityDoc.check("fault-figures-" + System.getProperty("gluecat.matrix.row", "unknown-line"),
        String.format("%d statements, %d fault points, %d runs", cases().size(), points, runs));
  }

  /** A new catalog on MiniStack, with a role (so STS is called) and the given Glue attempts. */
  private static String faultCatalog(int attempts) {
    Map<String, String> options = ministackOptions();
    options.put("role.arn", ROLE);
    options.put("glue.max-attempts", Integer.toString(attempts));
    return newCatalog(options);
  }

  private static final Pattern REGISTER = Pattern.compile("Register it with: (CREATE TABLE \\S+ USING delta LOCATION '[^']*')");
  private static final Pattern RESYNC = Pattern.compile("re-sync them with: (REFRESH TABLE \\S+)");
  private static final Pattern FILES = Pattern.compile("Register them with (CREATE TABLE (\\S+) \\(<columns>\\) USING (\\w+) "
      + "LOCATION '[^']*')");
  private static final Pattern RENAMED = Pattern.compile("run (DROP TABLE \\S+) \\(which never deletes");

  /** The outcome of one run, checked; problems go to {@code failures}. */
  private static String classify(Case c, Names n, Throwable error, World before, World after, String where,
      List<String> failures) {
    if (error == null) {
      try {
        c.verify.run(n);
        return "success";
      } catch (Throwable t) {
        failures.add(where + ": succeeded but " + t);
        return "WRONG: succeeded with another result";
      }
    }
    String messages = TableLoadIT.messages(error);
    if (after.sameAs(before)) {
      return "nothing changed";
    }
    String top = error.getClass().getSimpleName();
    List<String> recovery = new ArrayList<>();
    String label;
    Matcher m;
    if ((m = REGISTER.matcher(messages)).find() && messages.contains("DeltaCommittedButGlueFailedException")) {
      recovery.add(m.group(1));
      label = "recoverable: DeltaCommittedButGlueFailedException, then CREATE TABLE t USING delta LOCATION '...'";
    } else if ((m = RESYNC.matcher(messages)).find() && messages.contains("DeltaCommittedButGlueFailedException")) {
      recovery.add(m.group(1));
      label = "recoverable: DeltaCommittedButGlueFailedException, then REFRESH TABLE t";
    } else if ((m = FILES.matcher(messages)).find() && messages.contains("GlueCatalogException")) {
      recovery.add("DROP TABLE IF EXISTS " + m.group(2));
      recovery.add(m.group(1).replace("<columns>", c.columns));
      label = "recoverable: GlueCatalogException (files written), then CREATE TABLE t (..) USING " + m.group(3)
          + " LOCATION '...'";
    } else if ((m = RENAMED.matcher(messages)).find() && messages.contains("GlueCatalogException")) {
      recovery.add(m.group(1));
      label = "recoverable: GlueCatalogException (both entries), then DROP TABLE t";
    } else {
      failures.add(where + ": failed and changed something, without a documented recovery (" + top + "): "
          + after.diff(before) + "\n" + messages);
      return "WRONG: changed without recovery";
    }
    GlueFaults.clear();
    try {
      for (String statement : recovery) {
        sql(statement);
      }
      c.verify.run(n);
    } catch (Throwable t) {
      failures.add(where + ": the recovery " + recovery + " did not give the fault-free result: " + t);
    }
    return label;
  }

  private static String render(Map<String, Map<String, Set<String>>> table) {
    StringBuilder b = new StringBuilder();
    b.append("| statement | call | ").append(SURFACES).append(" | ").append(ONCE).append(" | ").append(APPLIED)
        .append(" | ").append(CONFLICT).append(" |\n");
    b.append("|---|---|---|---|---|---|\n");
    table.forEach((key, cells) -> {
      String[] parts = key.split("\\|");
      b.append("| ").append(parts[1]).append(" | ").append(parts[2]).append(" |");
      for (String column : List.of(SURFACES, ONCE, APPLIED, CONFLICT)) {
        Set<String> outcomes = cells.get(column);
        b.append(' ').append(outcomes == null ? "" : String.join("; ", outcomes)).append(" |");
      }
      b.append('\n');
    });
    return b.toString();
  }

  /** What a run could have changed: the database's Glue entries and every file under the test's root. */
  static final class World {
    final Map<String, String> entries;
    final Map<String, Table> tables;
    final Set<String> files;

    private World(Map<String, String> entries, Map<String, Table> tables, Set<String> files) {
      this.entries = entries;
      this.tables = tables;
      this.files = files;
    }

    static World of(String db, String root) {
      Map<String, String> entries = new TreeMap<>();
      Map<String, Table> tables = new TreeMap<>();
      for (Table t : GLUE.getTables(r -> r.databaseName(db)).tableList()) {
        entries.put(t.name(), t.versionId() + " " + t.storageDescriptor().serdeInfo().parameters().get("path") + " "
            + t.storageDescriptor().columns() + " " + t.parameters());
        tables.put(t.name(), t);
      }
      Set<String> files;
      try (Stream<Path> walk = Files.walk(Paths.get(root.substring("file:".length())))) {
        files = walk.filter(Files::isRegularFile).map(Path::toString).collect(Collectors.toCollection(TreeSet::new));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new World(entries, tables, files);
    }

    boolean sameAs(World other) {
      return entries.equals(other.entries) && files.equals(other.files);
    }

    String diff(World before) {
      Set<String> newFiles = new TreeSet<>(files);
      newFiles.removeAll(before.files);
      Map<String, String> changed = new TreeMap<>(entries);
      changed.entrySet().removeIf(e -> e.getValue().equals(before.entries.get(e.getKey())));
      return "entries changed " + changed.keySet() + ", entries gone "
          + before.entries.keySet().stream().filter(k -> !entries.containsKey(k)).collect(Collectors.toList())
          + ", " + newFiles.size() + " new files";
    }

    /** No file lost, and no entry that points at nothing. */
    List<String> problems(World before) {
      List<String> problems = new ArrayList<>();
      Set<String> lost = new TreeSet<>(before.files);
      lost.removeAll(files);
      if (!lost.isEmpty()) {
        problems.add("files lost: " + lost);
      }
      tables.forEach((name, t) -> {
        String location = t.storageDescriptor().serdeInfo().parameters().get("path");
        Path dir = Paths.get(java.net.URI.create(location));
        boolean delta = "delta".equalsIgnoreCase(t.parameters().get("spark.sql.sources.provider"));
        if (!Files.isDirectory(dir) || (delta && !Files.isDirectory(dir.resolve("_delta_log")))) {
          problems.add("entry " + name + " points at nothing: " + location);
        }
      });
      return problems;
    }
  }
}
