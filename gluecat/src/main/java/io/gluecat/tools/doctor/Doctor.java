package io.gluecat.tools.doctor;

import io.gluecat.entry.StoredTable;
import io.gluecat.glue.GlueEntries;
import io.gluecat.logstore.DeltaLogStores;
import io.gluecat.tools.cli.CatalogSession;
import io.gluecat.tools.cli.Json;
import io.gluecat.tools.cli.UsageException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@code doctor <database> [<table>...]}: one paged GetTables listing of the database, then each entry
 * judged by the {@link Inspector}; no Glue call per table. Prints an aligned table (or JSON) and returns
 * 0 when no entry has a problem, 1 otherwise.
 */
public final class Doctor {
  /** From this many entries on, progress goes to stderr. */
  static final int PROGRESS_FROM = 100;
  static final int PROGRESS_EVERY = 50;

  private final CatalogSession session;
  private final PrintStream err;

  public Doctor(CatalogSession session, PrintStream err) {
    this.session = session;
    this.err = err;
  }

  /** The entries of {@code database} (all, or the ones named), in name order. */
  public List<StoredTable> entries(String database, List<String> tables) {
    session.database(database);
    List<StoredTable> all;
    try {
      all = new GlueEntries(session.glue()).list(database);
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException e) {
      throw new UsageException("database '" + database + "' does not exist in Glue", e);
    } catch (RuntimeException e) {
      throw new UsageException(String.format("cannot list the tables of database '%s': %s", database,
          e.getMessage()), e);
    }
    Map<String, StoredTable> byName = new TreeMap<>();
    all.forEach(t -> byName.put(t.name(), t));
    if (tables.isEmpty()) {
      return new ArrayList<>(byName.values());
    }
    List<StoredTable> chosen = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (String name : tables) {
      StoredTable t = byName.get(name);
      if (t == null) {
        t = byName.get(name.toLowerCase(Locale.ROOT));
      }
      if (t == null) {
        missing.add(name);
      } else {
        chosen.add(t);
      }
    }
    if (!missing.isEmpty()) {
      throw new UsageException("no table " + String.join(", ", missing) + " in database '" + database + "'");
    }
    return chosen;
  }

  /** Inspects the entries, with a progress line on stderr for large databases. */
  public List<Finding> inspect(String database, List<StoredTable> entries) {
    Inspector inspector = new Inspector(session.name(), session.parts());
    List<Finding> findings = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      findings.add(inspector.inspect(database, entries.get(i)));
      if (entries.size() >= PROGRESS_FROM && ((i + 1) % PROGRESS_EVERY == 0 || i + 1 == entries.size())) {
        err.printf("doctor: %s: %d of %d tables checked%n", database, i + 1, entries.size());
      }
    }
    caseOnlyTableNames(entries, findings);
    return findings;
  }

  /** Glue lower-cases names, but entries written around it may not be: two names that differ only in case. */
  private static void caseOnlyTableNames(List<StoredTable> entries, List<Finding> findings) {
    Map<String, Set<String>> byLower = new TreeMap<>();
    entries.forEach(t -> byLower.computeIfAbsent(t.name().toLowerCase(Locale.ROOT), k -> new TreeSet<>()).add(t.name()));
    for (Finding f : findings) {
      Set<String> same = byLower.get(f.table().toLowerCase(Locale.ROOT));
      if (same.size() > 1) {
        f.problem(Code.CASE_ONLY_NAMES, "tables whose names differ only in case: " + String.join(", ", same));
      }
    }
  }

  public int run(String database, List<String> tables, boolean json, PrintStream out) {
    List<Finding> findings = inspect(database, entries(database, tables));
    if (json) {
      out.println(Json.write(toJson(session.name(), database, findings)));
    } else {
      print(database, findings, out);
      // the application's log store for S3 Delta tables (a warning when commits of other writers can be lost)
      DeltaLogStores.describe(session.name()).forEach(out::println);
    }
    return findings.stream().anyMatch(f -> !f.problems().isEmpty()) ? 1 : 0;
  }

  public static Map<String, Object> toJson(String catalog, String database, List<Finding> findings) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("catalog", catalog);
    root.put("database", database);
    List<Object> tables = new ArrayList<>();
    int withProblems = 0;
    for (Finding f : findings) {
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("table", f.table());
      t.put("kind", f.kind().name());
      Map<String, Object> readers = new LinkedHashMap<>();
      for (Reader r : Reader.values()) {
        readers.put(r.label(), f.verdict(r));
      }
      t.put("readers", readers);
      List<Object> problems = new ArrayList<>();
      for (Problem p : f.problems()) {
        Map<String, Object> pm = new LinkedHashMap<>();
        pm.put("code", p.code().name());
        pm.put("fixable", p.code().fixableOn(f.kind()));
        pm.put("detail", p.detail());
        problems.add(pm);
      }
      t.put("problems", problems);
      t.put("repairable", f.repairable());
      tables.add(t);
      withProblems += f.problems().isEmpty() ? 0 : 1;
    }
    root.put("tables", tables);
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("tables", findings.size());
    summary.put("withProblems", withProblems);
    summary.put("repairable", findings.stream().filter(Finding::repairable).count());
    root.put("summary", summary);
    return root;
  }

  static void print(String database, List<Finding> findings, PrintStream out) {
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"TABLE", "KIND", "GLUECAT", "TRINO", "ATHENA", "HIVE-PATH", "PROBLEMS"});
    for (Finding f : findings) {
      Set<String> codes = new java.util.LinkedHashSet<>();
      f.problems().forEach(p -> codes.add(p.code().name()));
      rows.add(new String[] {f.table(), f.kind().label(), f.verdict(Reader.GLUECAT), f.verdict(Reader.TRINO),
          f.verdict(Reader.ATHENA), f.verdict(Reader.HIVE_PATH), codes.isEmpty() ? "-" : String.join(",", codes)});
    }
    int[] widths = new int[rows.get(0).length];
    for (String[] row : rows) {
      for (int i = 0; i < row.length; i++) {
        widths[i] = Math.max(widths[i], row[i].length());
      }
    }
    for (String[] row : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < row.length; i++) {
        line.append(i + 1 < row.length ? String.format("%-" + widths[i] + "s  ", row[i]) : row[i]);
      }
      out.println(line.toString().stripTrailing());
    }
    long withProblems = findings.stream().filter(f -> !f.problems().isEmpty()).count();
    long repairable = findings.stream().filter(Finding::repairable).count();
    out.println();
    for (Finding f : findings) {
      for (Problem p : f.problems()) {
        out.printf("%s: %s%s: %s%n", f.table(), p.code().name(),
            p.code().fixableOn(f.kind()) ? " (repair fixes)" : "", p.detail());
      }
    }
    if (withProblems > 0) {
      out.println();
    }
    out.printf("%d tables in %s, %d with problems, %d repairable (gluecat repair %s)%n", findings.size(), database,
        withProblems, repairable, database);
  }
}
