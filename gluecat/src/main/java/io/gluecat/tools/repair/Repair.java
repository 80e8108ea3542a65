package io.gluecat.tools.repair;

import io.gluecat.GlueConcurrentModificationException;
import io.gluecat.entry.EntryUpdate;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.StoredDatabase;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueEntries;
import io.gluecat.tools.cli.CatalogSession;
import io.gluecat.tools.cli.UsageException;
import io.gluecat.tools.doctor.Doctor;
import io.gluecat.tools.doctor.Finding;
import io.gluecat.tools.doctor.Inspector;
import io.gluecat.tools.doctor.Kind;
import io.gluecat.tools.doctor.Problem;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;

/**
 * {@code repair <database> [<table>...] [--dry-run]}: rewrites each Delta entry doctor finds a fixable
 * problem in into gluecat's format, through the catalog's own EntryWriter (an update of the entry as
 * read: every parameter and SerDe parameter the format does not own is kept), with the columns, partition
 * columns and description Delta's log gives and the location where the log is; to a file table's entry
 * without its classification, it adds that parameter and changes nothing else. The update carries the
 * VersionId the listing returned, so an entry changed since then is not overwritten: that table fails
 * with CONCURRENT_CHANGE and repair goes on with the others. Data files are never touched: only the Delta
 * log is read.
 */
public final class Repair {
  private final CatalogSession session;
  private final PrintStream out;
  private final PrintStream err;

  public Repair(CatalogSession session, PrintStream out, PrintStream err) {
    this.session = session;
    this.out = out;
    this.err = err;
  }

  /** Outcome of one table. */
  public enum Outcome { REPAIRED, WOULD_REPAIR, UNCHANGED, NOT_FIXABLE, CONCURRENT_CHANGE, FAILED }

  public int run(String database, List<String> tables, boolean dryRun, boolean partitions) {
    StoredDatabase db = session.database(database);
    Doctor doctor = new Doctor(session, err);
    List<StoredTable> entries = doctor.entries(database, tables);
    List<Finding> findings = doctor.inspect(database, entries);
    Inspector inspector = new Inspector(session.name(), session.parts());
    boolean failed = false;
    int repaired = 0;
    for (int i = 0; i < entries.size(); i++) {
      StoredTable entry = entries.get(i);
      Finding finding = findings.get(i);
      Outcome outcome = repair(database, db, entry, finding, inspector, dryRun);
      failed |= outcome == Outcome.NOT_FIXABLE || outcome == Outcome.CONCURRENT_CHANGE || outcome == Outcome.FAILED;
      repaired += outcome == Outcome.REPAIRED || outcome == Outcome.WOULD_REPAIR ? 1 : 0;
      if (partitions && !finding.kind().isDelta() && entry.isPartitioned()) {
        try {
          out.printf("%s: partitions: %s%n", entry.name(), partitionLine(
              session.parts().partitionSync().sync(new TableName(database, entry.name()), entry, false, dryRun), dryRun));
        } catch (NoSuchTableException | RuntimeException e) {
          out.printf("%s: partitions: FAILED: %s%n", entry.name(), e.getMessage());
          failed = true;
        }
      }
    }
    out.printf("%s %d of %d tables in %s%n", dryRun ? "would repair" : "repaired", repaired, entries.size(), database);
    return failed ? 1 : 0;
  }

  private static String partitionLine(io.gluecat.partitions.PartitionSync.Result result, boolean dryRun) {
    if (!result.applicable()) {
      return "none kept in Glue (" + result.reason() + ")";
    }
    return String.format("%d directories, %s %d and %s %d", result.directories(),
        dryRun ? "would create" : "created", result.created(), dryRun ? "would delete" : "deleted", result.deleted());
  }

  private Outcome repair(String database, StoredDatabase db, StoredTable entry, Finding finding, Inspector inspector,
      boolean dryRun) {
    String name = entry.name();
    List<Problem> unfixable = new ArrayList<>();
    for (Problem p : finding.problems()) {
      if (!p.code().fixableOn(finding.kind())) {
        unfixable.add(p);
      }
    }
    if (!finding.repairable()) {
      if (!finding.problems().isEmpty()) {
        Set<String> codes = new TreeSet<>();
        unfixable.forEach(p -> codes.add(p.code().name()));
        out.printf("%s: not repaired: %s%s%n", name, String.join(",", codes),
            finding.kind().isDelta() ? "" : " (" + finding.kind().label() + ": " + (finding.kind() == Kind.FILE_SOURCE
                ? "repair only adds a file table's classification" : "repair rewrites Delta entries only") + ")");
        return Outcome.NOT_FIXABLE;
      }
      return Outcome.UNCHANGED;
    }
    TableName table = new TableName(database, name);
    try {
      Function<StoredTable, EntryUpdate> update = finding.kind().isDelta() ? deltaUpdate(table, db, entry, inspector)
          : EntryUpdate::classified;
      EntryUpdate updated = update.apply(entry);
      List<String> diff = updated.changes();
      if (diff.isEmpty()) {
        out.printf("%s: nothing to change%n", name);
        return Outcome.UNCHANGED;
      }
      if (dryRun) {
        out.printf("%s: would change (%s):%n", name, codes(finding));
        diff.forEach(line -> out.println("  " + line));
        return Outcome.WOULD_REPAIR;
      }
      String versionId = entry.versionId();
      if (versionId == null) { // a listing without VersionIds: the entry as read now is the base
        StoredTable current = new GlueEntries(session.glue()).get(table);
        updated = update.apply(current);
        versionId = current.versionId();
      }
      new GlueEntries(session.glue()).update(database, updated, versionId);
      out.printf("%s: repaired (%s)%n", name, codes(finding));
      diff.forEach(line -> out.println("  " + line));
      if (!unfixable.isEmpty()) {
        Set<String> codes = new TreeSet<>();
        unfixable.forEach(p -> codes.add(p.code().name()));
        out.printf("%s: still has %s%n", name, String.join(",", codes));
      }
      return Outcome.REPAIRED;
    } catch (GlueConcurrentModificationException e) {
      out.printf("%s: CONCURRENT_CHANGE: the entry changed in Glue since repair read it; nothing was written. "
          + "Run repair again for this table.%n", name);
      return Outcome.CONCURRENT_CHANGE;
    } catch (Exception e) {
      out.printf("%s: FAILED: %s%n", name, e.getMessage());
      return Outcome.FAILED;
    }
  }

  /** A Delta entry's update: the definition Delta's log gives, at the location that holds the log. */
  private Function<StoredTable, EntryUpdate> deltaUpdate(TableName table, StoredDatabase db, StoredTable entry,
      Inspector inspector) throws Exception {
    String location = inspector.deltaLocation(entry).orElseThrow();
    TableDefinition definition = session.parts().deltaDefinition(table, location, Map.of());
    return t -> EntryUpdate.rewritten(EntryWriter.forRunningSpark(), t, definition, Set.of(), db.location());
  }

  private static String codes(Finding f) {
    Set<String> codes = new TreeSet<>();
    f.problems().stream().filter(p -> p.code().fixableOn(f.kind())).forEach(p -> codes.add(p.code().name()));
    return String.join(",", codes);
  }
}
