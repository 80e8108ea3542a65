package io.gluecat.tools.doctor;

import io.gluecat.entry.EntryWriter;
import io.gluecat.InvalidGlueEntryException;
import io.gluecat.catalog.CatalogParts;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.StoredColumn;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.hive.HiveEntry;
import io.gluecat.hive.HiveTable;
import io.gluecat.iceberg.IcebergTables;
import io.gluecat.entry.ViewFormat;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Judges one Glue entry: its kind, which readers load it, and its problems. The reader rules are the
 * entry format's (docs/entry-format.md) and what the compatibility suites found (docs/compat/,
 * docs/trino.md, docs/legacy-hive.md):
 *
 * <ul>
 *   <li>gluecat: EntryReader accepts the entry (a Hive SerDe entry: one HiveFormats maps to a Spark source; a view:
 *       a Spark view, not a Trino one), and a Delta entry's location holds a _delta_log;
 *   <li>Trino: its Delta Lake connector takes a Delta entry's location from the SerDe path, else
 *       StorageDescriptor.Location, and needs a SerdeInfo; other entries go to its Hive connector, which
 *       needs the Hive form (real columns and location);
 *   <li>Athena: a Delta table needs table_type=DELTA and a StorageDescriptor.Location at the table's root;
 *       other entries need the Hive form;
 *   <li>Spark's Hive path: a data source entry with a SerdeInfo, a readable schema and (Delta) a location
 *       with a _delta_log, taken from the SerDe path first; Hive SerDe tables too.
 *   <li>Iceberg entries: every Iceberg reader needs the metadata file the entry names; gluecat also needs Iceberg's
 *       Spark runtime on the classpath.
 * </ul>
 *
 * Locations are opened with the catalog's Hadoop settings. For Delta entries whose log can be read, the
 * log's schema is compared with the Glue columns (read by Delta itself, as the catalog's REFRESH does).
 */
public final class Inspector {
  private static final Pattern COMMIT_OR_CHECKPOINT = Pattern.compile("\\d{20}\\.(json|checkpoint\\..+)");

  private final String catalog;
  private final CatalogParts parts;
  private final Map<String, Optional<String>> deltaLogCache = new HashMap<>();

  public Inspector(String catalog, CatalogParts parts) {
    this.catalog = catalog;
    this.parts = parts;
  }

  /**
   * Where the Delta table of a Delta entry is: the first of the SerDe path and the real
   * StorageDescriptor.Location that holds a _delta_log, or empty.
   */
  public Optional<String> deltaLocation(StoredTable t) {
    for (Optional<String> candidate : List.of(t.serdePath(), t.realStorageLocation())) {
      if (candidate.isPresent() && deltaLogProblem(t.name(), candidate.get()).isEmpty()) {
        return candidate;
      }
    }
    return Optional.empty();
  }

  /** Checks one entry; {@code database} for names. */
  public Finding inspect(String database, StoredTable t) {
    Kind kind = EntryShape.kindOf(t);
    String name = t.name();
    Finding f = new Finding(name, kind);
    switch (kind) {
      case VIEW:
        f.verdict(Reader.GLUECAT, viewProblem(database, t).isEmpty());
        f.verdict(Reader.TRINO, null);
        f.verdict(Reader.ATHENA, null);
        f.verdict(Reader.HIVE_PATH, null);
        return f;
      case ICEBERG:
        inspectIceberg(database, t, f);
        return f;
      case UNREADABLE:
        for (Reader r : Reader.values()) {
          f.verdict(r, false);
        }
        f.problem(Code.INVALID_ENTRY, t.resourceLinkTarget().map(target -> "a Glue resource link to " + target)
            .orElse("no spark.sql.sources.provider and no SerDe: no reader can tell what the table is"));
        return f;
      case HIVE_SERDE:
        inspectHiveSerde(database, t, f);
        return f;
      default:
        break;
    }
    ShapeProblems.checkCommonParts(t, f);
    Optional<String> gluecatProblem = readerProblem(database, t);
    if (kind.isDelta()) {
      inspectDelta(database, t, f, gluecatProblem);
    } else {
      inspectFileSource(t, f, gluecatProblem);
    }
    return f;
  }

  /**
   * An Iceberg entry: its metadata file decides for every Iceberg reader (Trino's Iceberg connector, Athena, Iceberg's
   * own catalogs); gluecat serves it through Iceberg's Spark runtime where that is on the classpath, and Spark's Hive
   * path does not read Iceberg.
   */
  private void inspectIceberg(String database, StoredTable t, Finding f) {
    Optional<String> metadata = Optional.ofNullable(t.parameters().get(EntryFormat.ICEBERG_METADATA_LOCATION))
        .filter(m -> !m.isBlank());
    Optional<String> metadataProblem = metadata.map(m -> icebergMetadataProblem(t.name(), m))
        .orElse(Optional.of("has no metadata_location"));
    boolean readable = metadataProblem.isEmpty();
    f.verdict(Reader.GLUECAT, readable && IcebergTables.AVAILABLE);
    f.verdict(Reader.TRINO, readable);
    f.verdict(Reader.ATHENA, readable);
    f.verdict(Reader.HIVE_PATH, false);
    metadataProblem.ifPresent(problem -> f.problem(Code.NO_ICEBERG_METADATA, "the Iceberg entry " + problem));
    if (!IcebergTables.AVAILABLE) {
      f.problem(Code.ICEBERG_NOT_SERVED,
          IcebergTables.notServed(catalog + "." + database + "." + t.name()).getMessage());
    }
  }

  private Optional<String> icebergMetadataProblem(String table, String metadataLocation) {
    try {
      FileSystem fs = parts.hadoop().open("table " + table, metadataLocation);
      return fs.exists(new Path(metadataLocation)) ? Optional.empty()
          : Optional.of("names the metadata file " + metadataLocation + ", which is not there");
    } catch (Exception e) {
      return Optional.of("names the metadata file " + metadataLocation + ", which cannot be opened: " + firstLine(e));
    }
  }

  private void inspectHiveSerde(String database, StoredTable t, Finding f) {
    boolean located = t.realStorageLocation().isPresent();
    boolean overDelta = located && deltaLogProblem(t.name(), t.realStorageLocation().get()).isEmpty();
    // gluecat refuses a Hive-format entry over a Delta table (its files include removed ones)
    f.verdict(Reader.GLUECAT, !overDelta && hiveProblem(database, t).isEmpty());
    f.verdict(Reader.TRINO, located);
    f.verdict(Reader.ATHENA, located);
    f.verdict(Reader.HIVE_PATH, true);
    ShapeProblems.caseOnlyColumns(t, f);
    if (overDelta) {
      f.problem(Code.NO_PROVIDER_DELTA_LOG, "the location " + t.realStorageLocation().get()
          + " holds a Delta table, but the entry is a Hive SerDe table (a crawler's?): drop the entry and register "
          + "the table with 'register'");
    }
  }

  private void inspectFileSource(StoredTable t, Finding f, Optional<String> gluecatProblem) {
    boolean sparkSpecific = ShapeProblems.placeholderColumns(t);
    boolean hasSerde = t.hasSerdeInfo();
    f.verdict(Reader.GLUECAT, gluecatProblem.isEmpty());
    boolean hiveForm = !sparkSpecific && hasSerde && t.realStorageLocation().isPresent();
    f.verdict(Reader.TRINO, hiveForm);
    f.verdict(Reader.ATHENA, hiveForm);
    f.verdict(Reader.HIVE_PATH, gluecatProblem.isEmpty() && hasSerde);
    if (sparkSpecific) {
      f.problem(Code.SPARK_SPECIFIC_FORM, "provider " + t.parameters().get(EntryFormat.PROVIDER) + ": only Spark "
          + "(gluecat, Spark's Hive path) reads this table");
    }
    Optional<String> path = t.serdePath();
    Optional<String> sd = t.realStorageLocation();
    if (path.isPresent() && sd.isPresent() && !ShapeProblems.sameLocation(path.get(), sd.get())) {
      f.problem(Code.SERDE_PATH_DIFFERS, "SerDe path " + path.get() + ", StorageDescriptor.Location " + sd.get()
          + " (Spark reads the path, Hive readers the Location)");
    }
    if (t.readLocation().isEmpty()) {
      f.problem(Code.NO_LOCATION, "no SerDe path and no StorageDescriptor.Location other than a placeholder");
    }
    String provider = t.parameters().get(EntryFormat.PROVIDER);
    String classification = t.parameters().get(EntryFormat.CLASSIFICATION);
    EntryFormat.classification(provider).filter(c -> !c.equals(classification)).ifPresent(c ->
        f.problem(Code.MISSING_CLASSIFICATION, "classification is " + (classification == null ? "not set"
            : "'" + classification + "'") + "; Glue crawlers write '" + c + "' for provider " + provider));
    gluecatProblem.filter(m -> !f.has(Code.NO_LOCATION) && !f.has(Code.SCHEMA_PARTS_MISSING)
        && !f.has(Code.CASE_ONLY_NAMES)).ifPresent(m -> f.problem(Code.INVALID_ENTRY, m));
  }

  private void inspectDelta(String database, StoredTable t, Finding f, Optional<String> gluecatProblem) {
    Map<String, String> p = t.parameters();
    Optional<String> path = t.serdePath();
    Optional<String> sdLocation = t.realStorageLocation();
    Optional<String> readAt = t.readLocation();
    boolean hasSerde = t.hasSerdeInfo();

    if (readAt.isEmpty()) {
      f.problem(Code.NO_LOCATION, "no SerDe path and StorageDescriptor.Location is "
          + t.storageLocation().map(l -> "the placeholder " + l).orElse("missing"));
    } else if (sdLocation.isEmpty()) {
      f.problem(Code.PLACEHOLDER_LOCATION, "StorageDescriptor.Location is "
          + t.storageLocation().orElse("missing") + "; the table is at " + readAt.get());
    } else if (path.isPresent() && !ShapeProblems.sameLocation(path.get(), sdLocation.get())) {
      f.problem(Code.SERDE_PATH_DIFFERS, "SerDe path " + path.get() + ", StorageDescriptor.Location "
          + sdLocation.get());
    }
    if (!EntryFormat.TABLE_TYPE_DELTA.equals(p.get(EntryFormat.TABLE_TYPE))) {
      f.problem(Code.MISSING_TABLE_TYPE, "table_type is " + (p.containsKey(EntryFormat.TABLE_TYPE)
          ? "'" + p.get(EntryFormat.TABLE_TYPE) + "'" : "not set"));
    }
    if (ShapeProblems.placeholderColumns(t)) {
      f.problem(Code.PLACEHOLDER_SCHEMA, "Glue columns: col array<string>");
    }

    Optional<String> logProblem = readAt.flatMap(l -> deltaLogProblem(t.name(), l));
    boolean logAtReadLocation = readAt.isPresent() && logProblem.isEmpty();
    boolean logAtStorageLocation = sdLocation.isPresent()
        && (sdLocation.equals(readAt) ? logAtReadLocation : deltaLogProblem(t.name(), sdLocation.get()).isEmpty());
    if (readAt.isPresent() && logProblem.isPresent()) {
      boolean unreachable = logProblem.get().startsWith("!");
      if (!unreachable && logAtStorageLocation) {
        // the SerDe path (read first) is wrong, StorageDescriptor.Location has the table: already reported as
        // SERDE_PATH_DIFFERS, which repair fixes towards the location that holds the log
      } else {
        f.problem(unreachable ? Code.LOCATION_UNREACHABLE : Code.NO_DELTA_LOG,
            unreachable ? logProblem.get().substring(1) : readAt.get() + " " + logProblem.get());
      }
    }
    Optional<String> trinoAt = path.or(t::storageLocation);
    boolean trinoLog = trinoAt.isPresent() && (trinoAt.equals(readAt) ? logAtReadLocation
        : trinoAt.equals(sdLocation) && logAtStorageLocation);

    Optional<String> deltaAt = logAtReadLocation ? readAt : logAtStorageLocation ? sdLocation : Optional.empty();
    // Spark's Delta (gluecat's and the Hive path's) reads the log where gluecat reads the table
    boolean sparkDeltaReads = true;
    if (deltaAt.isPresent() && !f.has(Code.PLACEHOLDER_SCHEMA)) {
      sparkDeltaReads = compareColumns(database, t, deltaAt.get(), f) || !deltaAt.equals(readAt);
    }

    f.verdict(Reader.GLUECAT, gluecatProblem.isEmpty() && logAtReadLocation && sparkDeltaReads);
    f.verdict(Reader.TRINO, hasSerde && trinoLog);
    f.verdict(Reader.ATHENA, EntryFormat.TABLE_TYPE_DELTA.equals(p.get(EntryFormat.TABLE_TYPE)) && logAtStorageLocation);
    f.verdict(Reader.HIVE_PATH, hasSerde && !f.has(Code.SCHEMA_PARTS_MISSING) && ShapeProblems.schemaParses(p)
        && logAtReadLocation && sparkDeltaReads);
    gluecatProblem.filter(m -> !f.has(Code.NO_LOCATION) && !f.has(Code.SCHEMA_PARTS_MISSING))
        .ifPresent(m -> f.problem(Code.INVALID_ENTRY, m));
  }

  /**
   * Compares the Glue columns with the ones the catalog writes for the Delta log as it is now; false when
   * Delta could not read the log (reported as LOCATION_UNREACHABLE).
   */
  private boolean compareColumns(String database, StoredTable t, String location, Finding f) {
    TableDefinition definition;
    try {
      definition = parts.deltaDefinition(new TableName(database, t.name()), location, Map.of());
    } catch (Exception e) { // Spark's SparkException is checked, and escapes Scala undeclared
      f.problem(Code.LOCATION_UNREACHABLE, "Delta could not read the log at " + location + ": " + firstLine(e));
      return false;
    }
    List<StoredColumn> expected = EntryWriter.forRunningSpark().newEntryColumns(definition);
    List<StoredColumn> actual = t.columns();
    if (!sameColumns(expected, actual)) {
      f.problem(Code.COLUMNS_OUT_OF_SYNC, "Glue has " + describe(actual) + "; the Delta log has " + describe(expected));
    }
    return true;
  }

  static boolean sameColumns(List<StoredColumn> a, List<StoredColumn> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!a.get(i).name().equalsIgnoreCase(b.get(i).name())
          || !String.valueOf(a.get(i).type()).equalsIgnoreCase(String.valueOf(b.get(i).type()))) {
        return false;
      }
    }
    return true;
  }

  private static String describe(List<StoredColumn> columns) {
    List<String> s = new ArrayList<>();
    columns.forEach(c -> s.add(c.name() + " " + c.type()));
    return s.isEmpty() ? "no columns" : "(" + String.join(", ", s) + ")";
  }

  /** Why gluecat refuses to read a view entry (a Trino or Athena view, a malformed one), or empty. */
  private Optional<String> viewProblem(String database, StoredTable t) {
    if (ViewFormat.isTrinoView(t)) {
      return Optional.of("a Trino/Athena view");
    }
    try {
      ViewFormat.read(catalog, database, t);
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(firstLine(e));
    }
  }

  /** Why gluecat refuses to read a Hive-format entry (a SerDe no Spark source reads as Hive does), or empty. */
  private Optional<String> hiveProblem(String database, StoredTable t) {
    try {
      HiveEntry.read(catalog, database, t, HiveTable.avroAvailable());
      return Optional.empty();
    } catch (RuntimeException e) {
      return Optional.of(firstLine(e));
    }
  }

  /** Why gluecat's EntryReader refuses the entry, or empty when it accepts it. */
  private Optional<String> readerProblem(String database, StoredTable t) {
    try {
      EntryReader.read(catalog, database, t);
      return Optional.empty();
    } catch (InvalidGlueEntryException e) {
      return Optional.of(e.getMessage());
    }
  }

  /**
   * Empty when {@code location} holds a _delta_log with a commit or checkpoint in it; else why not: text
   * that follows the location ("has no _delta_log"), or a message starting with '!' when the location could
   * not be opened at all. Opened with the catalog's Hadoop settings.
   */
  private Optional<String> deltaLogProblem(String table, String location) {
    return deltaLogCache.computeIfAbsent(location, l -> {
      try {
        FileSystem fs = parts.hadoop().open("table " + table, l);
        Path log = new Path(l, "_delta_log");
        if (!fs.exists(log)) {
          return Optional.of("has no _delta_log");
        }
        return hasCommit(fs, log) ? Optional.empty()
            : Optional.of("has a _delta_log, but Delta finds no table in it (no commit)");
      } catch (Exception e) {
        return Optional.of("!cannot open " + l + ": " + firstLine(e));
      }
    });
  }

  /** A Delta table's log starts at a commit (NNN.json) or a checkpoint (NNN.checkpoint...); listed up to the first. */
  private static boolean hasCommit(FileSystem fs, Path log) throws java.io.IOException {
    RemoteIterator<FileStatus> files = fs.listStatusIterator(log);
    while (files.hasNext()) {
      if (COMMIT_OR_CHECKPOINT.matcher(files.next().getPath().getName()).matches()) {
        return true;
      }
    }
    return false;
  }

  static String firstLine(Throwable e) {
    String m = String.valueOf(e.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
