package io.gluecat.entry;

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
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * An entry read whole ({@link StoredTable}) and the entry that replaces it, built here from the entry format's
 * own edits ({@link EntryEdits}, {@link EntryWriter}) for code outside {@code glue} and {@code entry} (the
 * {@code repair} tool, issue #42): what changes, field by field ({@link #changes}), and for {@code glue} the
 * TableInput to send at the VersionId read ({@link #sdkInput}).
 */
public final class EntryUpdate {
  private final StoredTable before;
  private final TableInput after;

  private EntryUpdate(StoredTable before, TableInput after) {
    this.before = before;
    this.after = after;
  }

  /** {@link EntryEdits#classified}: the classification a file table's entry lacks, every other field as it was. */
  public static EntryUpdate classified(StoredTable existing) {
    return new EntryUpdate(existing, EntryEdits.classified(existing.sdkTable()));
  }

  /**
   * {@link EntryWriter#updatedEntry(Table, TableDefinition, Set, Optional)}: {@code existing} rewritten to
   * {@code definition}, every parameter and SerDe parameter the format does not own kept.
   */
  public static EntryUpdate rewritten(EntryWriter writer, StoredTable existing, TableDefinition definition,
      Set<String> removedProperties, Optional<String> databaseLocation) {
    return rewritten(writer, existing, definition, removedProperties, () -> databaseLocation);
  }

  /** As {@link #rewritten}, asking for the database's location only when the entry's form needs it. */
  public static EntryUpdate rewritten(EntryWriter writer, StoredTable existing, TableDefinition definition,
      Set<String> removedProperties, java.util.function.Supplier<Optional<String>> databaseLocation) {
    return new EntryUpdate(existing, writer.updatedEntry(existing.sdkTable(), definition, removedProperties,
        databaseLocation));
  }

  /**
   * Whether the update leaves what a definition writes as it was: the columns, the location, the description
   * (absent and empty alike: some Glue implementations read an absent one back as "") and the parameters.
   */
  public boolean keepsDefinition() {
    Table entry = before.sdkTable();
    return entry.storageDescriptor() != null
        && Objects.equals(entry.storageDescriptor().columns(), after.storageDescriptor().columns())
        && Objects.equals(entry.storageDescriptor().location(), after.storageDescriptor().location())
        && EntryFormat.sameDescription(entry.description(), after.description())
        && Objects.equals(entry.parameters(), after.parameters());
  }

  /** The entry as read, which the update replaces. */
  public StoredTable before() { return before; }

  /** The entry's name. */
  public String name() { return after.name(); }

  /** The entry to send, for {@code glue} only. */
  public TableInput sdkInput() { return after; }

  /** The entry as Glue holds it after the update ({@link StoredTable#written}), for what reads it next. */
  public StoredTable written() { return StoredTable.written(after); }

  /**
   * The fields the update changes, one line each, {@code field: old -> new} (Glue's field names, values quoted
   * and cut at 120 characters, a comment with its UTF-8 size); empty when it changes nothing.
   */
  public List<String> changes() {
    Table b0 = before.sdkTable();
    List<String> lines = new ArrayList<>();
    field(lines, "TableType", b0.tableType(), after.tableType());
    text(lines, "Description", b0.description(), after.description());
    StorageDescriptor b = b0.storageDescriptor() == null ? StorageDescriptor.builder().build()
        : b0.storageDescriptor();
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
    field(lines, "PartitionKeys", columns(b0.partitionKeys()), columns(after.partitionKeys()));
    map(lines, "Parameters", b0.parameters(), after.parameters());
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
