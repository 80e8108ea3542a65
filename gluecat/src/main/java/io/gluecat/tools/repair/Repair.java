package io.gluecat.tools.repair;

import io.gluecat.entry.EntryEdits;
import io.gluecat.entry.EntryWriter;
import io.gluecat.GlueConcurrentModificationException;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.tools.cli.CatalogSession;
import io.gluecat.tools.cli.UsageException;
import io.gluecat.tools.doctor.Doctor;
import io.gluecat.tools.doctor.Finding;
import io.gluecat.tools.doctor.Inspector;
import io.gluecat.tools.doctor.Kind;
import io.gluecat.tools.doctor.Problem;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import software.amazon.awssdk.services.glue.model.Column;
import io.gluecat.entry.StoredDatabase;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

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
    List<Table> entries = doctor.entries(database, tables);
    List<Finding> findings = doctor.inspect(database, entries);
    Inspector inspector = new Inspector(session.name(), session.parts());
    boolean failed = false;
    int repaired = 0;
    for (int i = 0; i < entries.size(); i++) {
      Table entry = entries.get(i);
      Finding finding = findings.get(i);
      Outcome outcome = repair(database, db, entry, finding, inspector, dryRun);
      failed |= outcome == Outcome.NOT_FIXABLE || outcome == Outcome.CONCURRENT_CHANGE || outcome == Outcome.FAILED;
      repaired += outcome == Outcome.REPAIRED || outcome == Outcome.WOULD_REPAIR ? 1 : 0;
      if (partitions && !finding.kind().isDelta() && !entry.partitionKeys().isEmpty()) {
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

  private Outcome repair(String database, StoredDatabase db, Table entry, Finding finding, Inspector inspector,
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
      Function<Table, TableInput> update = finding.kind().isDelta() ? deltaUpdate(table, db, entry, inspector)
          : EntryEdits::classified;
      TableInput updated = update.apply(entry);
      List<String> diff = diff(entry, updated);
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
        Table current = session.glue().getTable(table);
        updated = update.apply(current);
        versionId = current.versionId();
      }
      session.glue().updateTable(database, updated, versionId);
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
  private Function<Table, TableInput> deltaUpdate(TableName table, StoredDatabase db, Table entry, Inspector inspector)
      throws Exception {
    String location = inspector.deltaLocation(entry).orElseThrow();
    TableDefinition definition = session.parts().deltaDefinition(table, location, Map.of());
    return t -> EntryWriter.forRunningSpark().updatedEntry(t, definition, Set.of(),
        db.location());
  }

  private static String codes(Finding f) {
    Set<String> codes = new TreeSet<>();
    f.problems().stream().filter(p -> p.code().fixableOn(f.kind())).forEach(p -> codes.add(p.code().name()));
    return String.join(",", codes);
  }

  /** The fields {@code updated} changes, one line each: {@code field: old -> new}. */
  public static List<String> diff(Table before, TableInput after) {
    List<String> lines = new ArrayList<>();
    field(lines, "TableType", before.tableType(), after.tableType());
    text(lines, "Description", before.description(), after.description());
    StorageDescriptor b = before.storageDescriptor() == null ? StorageDescriptor.builder().build()
        : before.storageDescriptor();
    StorageDescriptor a = after.storageDescriptor();
    field(lines, "StorageDescriptor.Location", b.location(), a.location());
    field(lines, "StorageDescriptor.Columns", columns(b.columns()), columns(a.columns()));
    columnComments(lines, "StorageDescriptor.Columns", b.columns(), a.columns());
    field(lines, "StorageDescriptor.InputFormat", b.inputFormat(), a.inputFormat());
    field(lines, "StorageDescriptor.OutputFormat", b.outputFormat(), a.outputFormat());
    field(lines, "StorageDescriptor.SerdeInfo.SerializationLibrary",
        b.serdeInfo() == null ? null : b.serdeInfo().serializationLibrary(), a.serdeInfo().serializationLibrary());
    map(lines, "StorageDescriptor.SerdeInfo.Parameters",
        b.serdeInfo() == null ? Map.of() : b.serdeInfo().parameters(), a.serdeInfo().parameters());
    field(lines, "PartitionKeys", columns(before.partitionKeys()), columns(after.partitionKeys()));
    map(lines, "Parameters", before.parameters(), after.parameters());
    return lines;
  }

  private static void field(List<String> lines, String name, Object before, Object after) {
    String b = before == null || "".equals(before) ? null : before.toString();
    String a = after == null || "".equals(after) ? null : after.toString();
    if (!Objects.equals(b, a)) {
      lines.add(name + ": " + show(b) + " -> " + show(a));
    }
  }

  /** A comment (Description, a column's): its UTF-8 size shown beside it, as Glue's limits are in bytes. */
  private static void text(List<String> lines, String name, String before, String after) {
    String b = before == null || before.isEmpty() ? null : before;
    String a = after == null || after.isEmpty() ? null : after;
    if (!Objects.equals(b, a)) {
      lines.add(name + ": " + showText(b) + " -> " + showText(a));
    }
  }

  private static String showText(String value) {
    return value == null ? show(null)
        : show(value) + " (" + value.getBytes(StandardCharsets.UTF_8).length + " bytes)";
  }

  /**
   * The comment of each column both lists have, where it changes (the Columns line shows names and types
   * only): a comment cut to Glue's limit, or one the Delta log does not have.
   */
  private static void columnComments(List<String> lines, String name, List<Column> before, List<Column> after) {
    Map<String, Column> old = new HashMap<>();
    if (before != null) {
      before.stream().filter(c -> c.name() != null).forEach(c -> old.putIfAbsent(c.name().toLowerCase(Locale.ROOT), c));
    }
    for (Column c : after) {
      Column was = c.name() == null ? null : old.get(c.name().toLowerCase(Locale.ROOT));
      if (was != null) {
        text(lines, name + "." + c.name() + ".Comment", was.comment(), c.comment());
      }
    }
  }

  private static void map(List<String> lines, String name, Map<String, String> before, Map<String, String> after) {
    Set<String> keys = new TreeSet<>(before.keySet());
    keys.addAll(after.keySet());
    for (String key : keys) {
      field(lines, name + "." + key, before.get(key), after.get(key));
    }
  }

  private static String columns(List<Column> columns) {
    if (columns == null || columns.isEmpty()) {
      return null;
    }
    List<String> s = new ArrayList<>();
    columns.forEach(c -> s.add(c.name() + " " + c.type()));
    return "(" + String.join(", ", s) + ")";
  }

  private static String show(String value) {
    if (value == null) {
      return "(none)";
    }
    String v = value.length() > 120 ? value.substring(0, 117) + "..." : value;
    return "'" + v + "'";
  }
}
