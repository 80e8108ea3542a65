package io.gluecat.partitions;

import io.gluecat.GlueCatalogException;
import io.gluecat.compat.SparkCompat;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.NewPartition;
import io.gluecat.entry.StoredColumn;
import io.gluecat.entry.StoredPartition;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueGateway;
import io.gluecat.glue.PartitionExpressions;
import io.gluecat.storage.CatalogHadoopConf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;

/**
 * Keeps the Glue partition objects of a partitioned table in step with its partition directories.
 *
 * <p>Spark reads gluecat's non-Delta tables' partitions from the file system
 * ({@code spark.sql.partitionProvider=filesystem}), but Trino's Hive connector and Athena read a Hive
 * table's partitions from Glue only, and return no rows without them. So for every partitioned table in the
 * Hive-compatible form (parquet, orc, avro whose columns Hive can hold: the entry has the provider's real
 * SerDe and location), this class lists the partition directories under the table's location with the
 * catalog's Hadoop settings, reads the table's partition objects from Glue, and creates the missing ones and
 * deletes those whose directory is gone ({@code BatchCreatePartition} 100 and {@code BatchDeletePartition}
 * 25 per call, the catalog's glue.id on every call). A partition object is the table's StorageDescriptor
 * with the partition directory as its location. Tables in the Spark-specific form (csv, json, text, types
 * Hive cannot hold) and Delta tables get none: Hive readers cannot read them anyway.
 *
 * <p>Entry points: {@link #sync(String, String)} for users and tools (Scala, PySpark through py4j, the
 * doctor tool's {@code repair --partitions}); the catalog itself calls {@link #syncTable} after the writes
 * it performs when {@code partitions.sync=after-write}.
 */
public final class PartitionSync {

  /** What one sync did. */
  public static final class Result {
    private final boolean applicable;
    private final String reason;
    private final int directories;
    private final int created;
    private final int deleted;

    private Result(boolean applicable, String reason, int directories, int created, int deleted) {
      this.applicable = applicable;
      this.reason = reason;
      this.directories = directories;
      this.created = created;
      this.deleted = deleted;
    }

    /** False when the table gets no partition objects (unpartitioned, Delta, Spark-specific form). */
    public boolean applicable() { return applicable; }
    /** Why the table gets no partition objects, or "" when it does. */
    public String reason() { return reason; }
    /** Partition directories found under the table's location. */
    public int directories() { return directories; }
    /** Partition objects created (new, or re-created because their location or storage changed). */
    public int created() { return created; }
    /** Partition objects deleted (their directory is gone, or they were re-created). */
    public int deleted() { return deleted; }

    @Override
    public String toString() {
      return applicable ? String.format("%d partition directories; %d partition objects created, %d deleted",
          directories, created, deleted) : "no partition objects: " + reason;
    }
  }

  private final String catalog;
  private final GlueGateway glue;
  private final CatalogHadoopConf hadoop;

  public PartitionSync(String catalog, GlueGateway glue, CatalogHadoopConf hadoop) {
    this.catalog = catalog;
    this.glue = glue;
    this.hadoop = hadoop;
  }

  /**
   * Syncs the partition objects of {@code table} ({@code db.table}) of the gluecat catalog named
   * {@code catalogName} in the active Spark session; the on-demand sync for writes gluecat did not see
   * (other engines' and jobs' files, a SQL INSERT reading its own table). From PySpark:
   * {@code spark._jvm.io.gluecat.partitions.PartitionSync.sync("glue", "sales.orders")}.
   */
  public static Result sync(String catalogName, String table) throws NoSuchTableException {
    CatalogPlugin plugin = SparkCompat.catalog(catalogName);
    if (!(plugin instanceof PartitionSyncOwner)) {
      throw new IllegalArgumentException(String.format("Catalog '%s' is not a gluecat catalog (it is %s)",
          catalogName, plugin.getClass().getName()));
    }
    String[] parts = table.split("\\.");
    if (parts.length != 2) {
      throw new IllegalArgumentException(String.format("Partition sync names a table as <database>.<table>, "
          + "got '%s' (catalog '%s')", table, catalogName));
    }
    return ((PartitionSyncOwner) plugin).partitionSync().syncTable(new TableName(parts[0], parts[1]));
  }

  /** Reads the table's entry and syncs its partition objects with its directories. */
  public Result syncTable(TableName name) throws NoSuchTableException {
    return sync(name, glue.getStoredTable(name), false);
  }

  /**
   * Syncs the partition objects of {@code entry}. With {@code newEntry}, Glue is known to hold none (the
   * entry was just created), so Glue's partitions are not read.
   */
  public Result sync(TableName name, StoredTable entry, boolean newEntry) throws NoSuchTableException {
    return sync(name, entry, newEntry, false);
  }

  /**
   * As {@link #sync(TableName, StoredTable, boolean)}; with {@code dryRun}, Glue's partitions are read and the
   * counts say what would change, but nothing is written (the doctor tool's {@code repair --partitions --dry-run}).
   */
  public Result sync(TableName name, StoredTable entry, boolean newEntry, boolean dryRun) throws NoSuchTableException {
    String reason = notApplicable(entry);
    if (reason != null) {
      return new Result(false, reason, 0, 0, 0);
    }
    Map<List<String>, NewPartition> wanted = new LinkedHashMap<>();
    for (NewPartition p : directories(name, entry)) {
      wanted.put(p.values(), p);
    }
    List<List<String>> delete = new ArrayList<>();
    List<NewPartition> create = new ArrayList<>();
    Map<List<String>, StoredPartition> existing = new LinkedHashMap<>();
    if (!newEntry) {
      for (StoredPartition p : glue.partitions().list(name)) {
        existing.put(p.values(), p);
      }
    }
    // A Hive-format entry's partitions are its writers' (a crawler's may lie anywhere): only missing ones are added
    boolean addOnly = entry.isHiveFormat();
    for (StoredPartition p : existing.values()) {
      NewPartition want = wanted.get(p.values());
      if (!addOnly && (want == null || !p.sameStorage(want))) {
        delete.add(p.values());
      }
    }
    for (NewPartition p : wanted.values()) {
      StoredPartition have = existing.get(p.values());
      if (have == null || (!addOnly && !have.sameStorage(p))) {
        create.add(p);
      }
    }
    if (!dryRun) {
      glue.partitions().delete(name, delete);
      glue.partitions().create(name, create);
    }
    return new Result(true, "", wanted.size(), create.size(), delete.size());
  }

  /**
   * RECOVER PARTITIONS / MSCK REPAIR TABLE, as Spark's catalog repairs a table: with {@code add}, a partition
   * object for each {@code key=value} directory that has none; with {@code drop}, the objects whose location no
   * longer exists are deleted. Objects that exist are left as they are (their location may lie elsewhere).
   */
  public Result repair(TableName name, StoredTable entry, boolean add, boolean drop) throws NoSuchTableException {
    Map<List<String>, StoredPartition> existing = new LinkedHashMap<>();
    for (StoredPartition p : glue.partitions().list(name)) {
      existing.put(p.values(), p);
    }
    List<NewPartition> found = add ? directories(name, entry) : List.of();
    List<NewPartition> create = found.stream().filter(p -> !existing.containsKey(p.values())).toList();
    List<List<String>> delete = new ArrayList<>();
    if (drop) {
      try {
        for (StoredPartition p : existing.values()) {
          String location = p.location();
          if (!hadoop.open(catalog + "." + name, location).exists(new Path(location))) {
            delete.add(p.values());
          }
        }
      } catch (IOException e) {
        throw new GlueCatalogException(String.format("Could not check the partition directories of table %s.%s: %s",
            catalog, name, e.getMessage()), e);
      }
    }
    glue.partitions().delete(name, delete);
    glue.partitions().create(name, create);
    return new Result(true, "", found.size(), create.size(), delete.size());
  }

  /**
   * The RENAME half Glue lacks: the partition objects of {@code from} created under {@code to} (whose entry
   * already exists), each as it was. The old ones go with the old entry.
   */
  public int copy(TableName from, StoredTable entry, TableName to) throws NoSuchTableException {
    if (notApplicable(entry) != null) {
      return 0;
    }
    List<NewPartition> copies = new ArrayList<>();
    for (StoredPartition p : glue.partitions().list(from)) {
      copies.add(p.copy());
    }
    glue.partitions().create(to, copies);
    return copies.size();
  }

  /**
   * The sync that follows a write gluecat performed (the files and the entry are committed by then). Does
   * nothing for tables that get no partition objects, so those statements make no partition calls. A
   * failure loses nothing: the statement fails with a message that says the data and entry are in place
   * and how to sync the partitions later.
   */
  public void afterWrite(TableName name, StoredTable entry, boolean newEntry) {
    if (notApplicable(entry) != null) {
      return;
    }
    afterWrite(name, () -> sync(name, entry, newEntry));
  }

  /**
   * The sync that follows a SQL INSERT gluecat wrote, which knows the partition directories it wrote and the
   * ones it removed ({@code k1=v1/k2=v2}, escaped as Spark names them): Glue is asked only for the written
   * partitions ({@link PartitionExpressions}: one {@code GetPartitions} per 2 KB expression naming them, when their
   * keys' types and values can be written in Glue's grammar; else every partition is read and the rest ignored),
   * then the missing ones are created, those whose storage changed re-created, and the removed ones deleted.
   */
  public void afterInsert(TableName name, StoredTable entry, java.util.Collection<String> written,
      java.util.Collection<String> removed) {
    if (notApplicable(entry) != null) {
      return;
    }
    afterWrite(name, () -> syncWritten(name, entry, written, removed));
  }

  private Result syncWritten(TableName name, StoredTable entry, java.util.Collection<String> written,
      java.util.Collection<String> removed) throws NoSuchTableException {
    String location = EntryFormat.withoutTrailingSlash(entry.storageLocation().orElse(null));
    Map<List<String>, NewPartition> wanted = new LinkedHashMap<>();
    for (String fragment : written) {
      List<String> values = values(fragment);
      if (values.size() == entry.partitionKeys().size()) {
        wanted.put(values, NewPartition.of(entry, values, location + "/" + fragment));
      }
    }
    List<List<String>> delete = new ArrayList<>();
    for (String fragment : removed) {
      delete.add(values(fragment));
    }
    List<NewPartition> create = new ArrayList<>();
    Map<List<String>, StoredPartition> existing = new LinkedHashMap<>();
    if (!wanted.isEmpty()) {
      List<PartitionExpressions.Key> keys = PartitionExpressions.keys(entry);
      List<Map<String, String>> specs = wanted.keySet().stream().map(v -> PartitionExpressions.spec(keys, v)).toList();
      java.util.Optional<List<String>> expressions = PartitionExpressions.selecting(keys, specs);
      List<StoredPartition> answer = expressions.isPresent() ? glue.partitions().list(name, expressions.get())
          : glue.partitions().list(name);
      for (StoredPartition p : answer) {
        if (wanted.containsKey(p.values())) {
          existing.put(p.values(), p);
        }
      }
    }
    for (NewPartition p : wanted.values()) {
      StoredPartition have = existing.get(p.values());
      if (have == null || !have.sameStorage(p)) {
        create.add(p);
        if (have != null) {
          delete.add(p.values());
        }
      }
    }
    glue.partitions().delete(name, delete);
    glue.partitions().create(name, create);
    return new Result(true, "", wanted.size(), create.size(), delete.size());
  }

  /** A partition directory fragment {@code k1=v1/k2=v2} (as Spark's writer names it) to Glue's values. */
  public static List<String> values(String fragment) {
    List<String> values = new ArrayList<>();
    for (String part : fragment.split("/")) {
      values.add(ExternalCatalogUtils.unescapePathName(part.substring(part.indexOf('=') + 1)));
    }
    return values;
  }

  private interface SyncCall {
    Result run() throws NoSuchTableException;
  }

  private void afterWrite(TableName name, SyncCall sync) {
    try {
      sync.run();
    } catch (NoSuchTableException | RuntimeException e) {
      throw new GlueCatalogException(String.format("The files of table %s.%s were written and its Glue entry is "
          + "in place, but syncing its Glue partition objects failed: %s. Spark reads the table as it is; "
          + "readers that take partitions from Glue (Trino's Hive connector, Athena) miss the new partitions "
          + "until they are synced: run io.gluecat.partitions.PartitionSync.sync(\"%s\", \"%s\") (or the doctor "
          + "tool's repair --partitions) once Glue answers again.", catalog, name, e.getMessage(), catalog, name), e);
    }
  }

  /** Why an entry gets no partition objects, or null when it does. */
  public static String notApplicable(StoredTable entry) {
    if (entry.isView()) {
      return "a view";
    }
    if (entry.isDelta()) {
      return "a Delta table (Delta keeps its partitions in its log)";
    }
    if (!entry.isPartitioned()) {
      return "not partitioned";
    }
    String location = entry.storageLocation().orElse(null);
    String inputFormat = entry.inputFormat().orElse(null);
    if (location == null || location.endsWith(EntryFormat.PLACEHOLDER_SUFFIX)
        || inputFormat == null || EntryFormat.SEQUENCE_FILE_INPUT.equals(inputFormat)) {
      return "stored in Spark's own form (csv, json, text, or columns Hive cannot hold), which Hive readers "
          + "cannot read";
    }
    return null;
  }

  /** A partition object for every directory {@code key1=v1/key2=v2/...} under the table's location. */
  private List<NewPartition> directories(TableName name, StoredTable entry) {
    List<String> keys = new ArrayList<>();
    for (StoredColumn c : entry.partitionKeys()) {
      keys.add(c.name().toLowerCase(Locale.ROOT));
    }
    String location = EntryFormat.withoutTrailingSlash(entry.storageLocation().orElse(null));
    List<NewPartition> found = new ArrayList<>();
    try {
      FileSystem fs = hadoop.open(catalog + "." + name, location);
      walk(fs, new Path(location), location, keys, 0, new ArrayList<>(), entry, found);
    } catch (IOException e) {
      throw new GlueCatalogException(String.format("Could not list the partition directories of table %s.%s at "
          + "%s: %s", catalog, name, location, e.getMessage()), e);
    }
    return found;
  }

  private void walk(FileSystem fs, Path dir, String dirLocation, List<String> keys, int depth, List<String> values,
      StoredTable table, List<NewPartition> found) throws IOException {
    if (depth == keys.size()) {
      found.add(NewPartition.of(table, List.copyOf(values), dirLocation));
      return;
    }
    if (!fs.exists(dir)) {
      return;
    }
    for (FileStatus child : fs.listStatus(dir)) {
      String dirName = child.getPath().getName();
      int eq = dirName.indexOf('=');
      if (!child.isDirectory() || dirName.startsWith("_") || dirName.startsWith(".") || eq <= 0
          || !ExternalCatalogUtils.unescapePathName(dirName.substring(0, eq)).equalsIgnoreCase(keys.get(depth))) {
        continue; // not a partition directory of this level (hidden, a file, another column)
      }
      values.add(ExternalCatalogUtils.unescapePathName(dirName.substring(eq + 1)));
      walk(fs, child.getPath(), dirLocation + "/" + dirName, keys, depth + 1, values, table, found);
      values.remove(values.size() - 1);
    }
  }
}
