package io.gluecat.partitions;

import io.gluecat.GlueCatalogException;
import io.gluecat.compat.SparkCompat;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.NewPartition;
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
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.CatalystTypeConverters;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.analysis.NoSuchPartitionException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.PartitionsAlreadyExistException;
import org.apache.spark.sql.catalyst.catalog.CatalogStorageFormat;
import org.apache.spark.sql.catalyst.catalog.CatalogTablePartition;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Partition DDL and TRUNCATE of one file source table, as Spark's own catalog runs them for a table it manages:
 * {@code ADD PARTITION} creates the directory (the table's {@code key=value} one, or the given location) and the
 * Glue partition object; {@code DROP PARTITION} deletes the object, then the directory when it lies under the
 * table's location (gluecat's tables are read from their directories, so a kept one would still be read);
 * {@code RENAME} moves such a directory to the new values' one; {@code TRUNCATE} empties the partitions' (or the
 * table's) directories and keeps the partitions. Glue is changed in the same statement, so Trino and Athena see
 * it; {@code SET LOCATION} of a partition changes its Glue object's location. Tables whose partitions Glue keeps no
 * objects for ({@link PartitionSync#notApplicable}) get TRUNCATE only.
 */
public final class PartitionCommands {
  private final String qualified;
  private final TableName name;
  private final StoredTable entry;
  private final StructType partitionSchema;
  private final GlueGateway glue;
  private final CatalogHadoopConf hadoop;
  private final Runnable changed;

  /**
   * @param changed what follows a change of the table's partitions or files (the cached relation dropped)
   */
  public PartitionCommands(String catalog, TableName name, StoredTable entry, StructType partitionSchema,
      GlueGateway glue, CatalogHadoopConf hadoop, Runnable changed) {
    this.qualified = catalog + "." + name;
    this.name = name;
    this.entry = entry;
    this.partitionSchema = partitionSchema;
    this.glue = glue;
    this.hadoop = hadoop;
    this.changed = changed;
  }

  public StructType partitionSchema() {
    return partitionSchema;
  }

  /** Whether Glue keeps the table's partitions as partition objects ({@link PartitionSync#notApplicable}). */
  public boolean inGlue() {
    return PartitionSync.notApplicable(entry) == null;
  }

  /** ADD PARTITION: the directories first (Spark's catalog creates them too), then the Glue objects. */
  public void create(InternalRow[] idents, Map<String, String>[] properties) throws PartitionsAlreadyExistException {
    requireObjects("ALTER TABLE ADD PARTITION");
    List<NewPartition> inputs = new ArrayList<>();
    for (int i = 0; i < idents.length; i++) {
      if (find(idents[i]).isPresent()) {
        throw new PartitionsAlreadyExistException(qualified, idents[i], partitionSchema);
      }
      String given = properties[i] == null ? null : properties[i].get("location");
      Path dir = given == null ? defaultPath(idents[i]) : new Path(given);
      FileSystem fs = fs(dir.toString());
      dir = fs.makeQualified(dir);
      try {
        fs.mkdirs(dir);
      } catch (IOException e) {
        throw failed("create the partition directory " + dir, e);
      }
      inputs.add(NewPartition.of(entry, values(idents[i]), dir.toString()));
    }
    glue.partitions().create(name, inputs);
    changed.run();
  }

  /** DROP PARTITION (with or without PURGE): the Glue objects, then the directories under the table's location. */
  public boolean drop(InternalRow[] idents) {
    requireObjects("ALTER TABLE DROP PARTITION");
    List<StoredPartition> found = new ArrayList<>();
    for (InternalRow ident : idents) {
      find(ident).ifPresent(found::add);
    }
    if (found.isEmpty()) {
      return false;
    }
    glue.partitions().delete(name, found.stream().map(StoredPartition::values).toList());
    for (StoredPartition p : found) {
      String location = p.location();
      if (underTable(location)) {
        delete(new Path(location), false);
      }
    }
    changed.run();
    return true;
  }

  /** RENAME PARTITION: a directory at the old values' place moves to the new values' one, then Glue follows. */
  public boolean rename(InternalRow from, InternalRow to) throws NoSuchPartitionException,
      PartitionsAlreadyExistException {
    requireObjects("ALTER TABLE RENAME PARTITION");
    StoredPartition old = find(from).orElseThrow(() -> new NoSuchPartitionException(qualified, from, partitionSchema));
    if (find(to).isPresent()) {
      throw new PartitionsAlreadyExistException(qualified, to, partitionSchema);
    }
    String location = old.location();
    Path oldDir = new Path(location);
    boolean move = EntryFormat.withoutTrailingSlash(location)
        .equals(EntryFormat.withoutTrailingSlash(defaultPath(from).toString()));
    Path newDir = move ? defaultPath(to) : oldDir;
    FileSystem fs = fs(location);
    try {
      if (move && fs.exists(oldDir)) {
        fs.mkdirs(newDir.getParent());
        if (!fs.rename(oldDir, newDir)) {
          throw new IOException("the file system refused the rename to " + newDir);
        }
      }
    } catch (IOException e) {
      throw failed("move the partition directory " + oldDir, e);
    }
    try {
      glue.partitions().create(name, List.of(old.renamed(values(to), fs.makeQualified(newDir).toString())));
    } catch (RuntimeException e) {
      moveBack(fs, move, newDir, oldDir, e);
      throw e;
    }
    glue.partitions().delete(name, List.of(old.values()));
    changed.run();
    return true;
  }

  private static void moveBack(FileSystem fs, boolean moved, Path newDir, Path oldDir, RuntimeException cause) {
    try {
      if (moved && fs.exists(newDir)) {
        fs.rename(newDir, oldDir);
      }
    } catch (IOException e) {
      cause.addSuppressed(e);
    }
  }

  /**
   * {@code ALTER TABLE t PARTITION (..) SET LOCATION}: the Glue partition of a full spec (each partition column's
   * value as Glue keeps it) gets {@code location} in its storage descriptor, the rest of the object as it was, as
   * Spark's catalog changes only the partition's location (no directory is made or moved). False, with nothing
   * changed, when Glue holds no such partition.
   */
  public boolean setLocation(Map<String, String> spec, String location) {
    requireObjects("ALTER TABLE ... SET LOCATION");
    Optional<StoredPartition> found = find(spec);
    if (found.isEmpty()) {
      return false;
    }
    StoredPartition old = found.get();
    String qualifiedLocation = fs(location).makeQualified(new Path(location)).toString();
    glue.partitions().update(name, old.values(), old.at(qualifiedLocation));
    changed.run();
    return true;
  }

  /** TRUNCATE TABLE ... PARTITION: each partition's directory emptied; the partitions stay. */
  public boolean truncate(InternalRow[] idents) throws NoSuchPartitionException {
    requireObjects("TRUNCATE TABLE ... PARTITION");
    List<String> locations = new ArrayList<>();
    for (InternalRow ident : idents) {
      locations.add(find(ident).orElseThrow(() -> new NoSuchPartitionException(qualified, ident, partitionSchema))
          .location());
    }
    for (String location : locations) {
      delete(new Path(location), true);
    }
    changed.run();
    return true;
  }

  /**
   * TRUNCATE TABLE: as Spark's catalog, the directories of the partitions the catalog knows, or the table's
   * directory when Glue keeps no partition objects for it (unpartitioned, Spark's own form).
   */
  public boolean truncateTable() {
    if (PartitionSync.notApplicable(entry) != null) {
      delete(new Path(tableLocation()), true);
    } else {
      for (StoredPartition p : list()) {
        delete(new Path(p.location()), true);
      }
    }
    changed.run();
    return true;
  }

  /** The partitions whose values of {@code names} are {@code ident}'s (all when {@code names} is empty). */
  public InternalRow[] identifiers(String[] names, InternalRow ident) {
    if (PartitionSync.notApplicable(entry) != null) {
      return new InternalRow[0];
    }
    if (java.util.Arrays.equals(names, partitionSchema.fieldNames())) { // one partition (Spark's partitionExists)
      return find(ident).map(p -> new InternalRow[] {row(p.values())}).orElse(new InternalRow[0]);
    }
    List<InternalRow> rows = new ArrayList<>();
    for (StoredPartition p : listSelected(names, ident)) {
      InternalRow row = row(p.values());
      if (matches(row, names, ident)) {
        rows.add(row);
      }
    }
    return rows.toArray(new InternalRow[0]);
  }

  /** A partition's Glue parameters (its metadata for Spark). */
  public Map<String, String> metadata(InternalRow ident) {
    return find(ident).map(StoredPartition::parameters).orElse(Map.of());
  }

  /**
   * The Glue partition of a full spec (each partition column's value as Glue keeps it) as Spark's catalog keeps one
   * written by an INSERT: the spec, its Glue location with {@code storageProperties} (the table's), its creation
   * time, no parameters; empty if Glue holds none.
   */
  public Optional<CatalogTablePartition> described(Map<String, String> spec, Map<String, String> storageProperties) {
    return find(spec).map(found -> new CatalogTablePartition(SparkCompat.scalaMap(spec), SparkCompat.storageFormat(
        new Path(found.location()).toUri(), storageProperties), SparkCompat.scalaMap(Map.of()),
        found.creationMillis(), 0L, scala.Option.empty()));
  }

  private Optional<StoredPartition> find(Map<String, String> spec) {
    List<String> values = new ArrayList<>();
    for (StructField f : partitionSchema.fields()) {
      String value = spec.get(f.name());
      values.add(value == null ? ExternalCatalogUtils.DEFAULT_PARTITION_NAME() : value);
    }
    return find(values);
  }

  private Optional<StoredPartition> find(InternalRow ident) {
    return find(values(ident));
  }

  private Optional<StoredPartition> find(List<String> values) {
    List<PartitionExpressions.Key> keys = PartitionExpressions.keys(entry);
    Map<String, String> spec = PartitionExpressions.spec(keys, values);
    Optional<List<String>> expressions = PartitionExpressions.selecting(keys, List.of(spec));
    return list(expressions).stream().filter(p -> PartitionExpressions.selected(p.values(), keys, List.of(spec))).findFirst();
  }

  /** The partitions a partial spec selects, asked of Glue with its expression where one can be written. */
  private List<StoredPartition> listSelected(String[] names, InternalRow ident) {
    Map<String, String> spec = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      DataType type = partitionSchema.fields()[partitionSchema.fieldIndex(names[i])].dataType();
      if (ident.isNullAt(i)) {
        return list(); // Glue's grammar has no null: list, then match
      }
      spec.put(names[i], glueValue(ident.get(i, type), type));
    }
    return list(PartitionExpressions.selecting(PartitionExpressions.keys(entry), List.of(spec)));
  }

  private List<StoredPartition> list() {
    return list(Optional.empty());
  }

  /** The partitions Glue answers for these expressions, or all of them where there are none. */
  private List<StoredPartition> list(Optional<List<String>> expressions) {
    try {
      return expressions.isPresent() ? glue.partitions().list(name, expressions.get()) : glue.partitions().list(name);
    } catch (NoSuchTableException e) {
      throw new GlueCatalogException(qualified + " was dropped while its partitions were changed", e);
    }
  }

  private boolean matches(InternalRow row, String[] names, InternalRow ident) {
    for (int i = 0; i < names.length; i++) {
      int at = partitionSchema.fieldIndex(names[i]);
      DataType type = partitionSchema.fields()[at].dataType();
      Object have = row.isNullAt(at) ? null : row.get(at, type);
      Object want = ident.isNullAt(i) ? null : ident.get(i, type);
      if (!Objects.equals(have, want)) {
        return false;
      }
    }
    return true;
  }

  /** Glue's values of a partition (unescaped strings, Hive's default partition name for null). */
  private List<String> values(InternalRow ident) {
    List<String> values = new ArrayList<>();
    StructField[] fields = partitionSchema.fields();
    for (int i = 0; i < fields.length; i++) {
      values.add(ident.isNullAt(i) ? ExternalCatalogUtils.DEFAULT_PARTITION_NAME()
          : glueValue(ident.get(i, fields[i].dataType()), fields[i].dataType()));
    }
    return values;
  }

  /** A partition row's non-null value as Glue keeps it (its Scala value as text). */
  private static String glueValue(Object value, DataType type) {
    return String.valueOf(CatalystTypeConverters.convertToScala(value, type));
  }

  /** Glue's values as Spark's partition row, cast as Spark casts a spec's values. */
  private InternalRow row(List<String> values) {
    Map<String, String> spec = new LinkedHashMap<>();
    StructField[] fields = partitionSchema.fields();
    for (int i = 0; i < fields.length; i++) {
      spec.put(fields[i].name(), values.get(i));
    }
    return new CatalogTablePartition(SparkCompat.scalaMap(spec), CatalogStorageFormat.empty(), SparkCompat.scalaMap(Map.of()), 0L, 0L,
        scala.Option.empty()).toRow(partitionSchema, SQLConf.get().sessionLocalTimeZone());
  }

  /** The partition's {@code key=value} directory under the table's location. */
  private Path defaultPath(InternalRow ident) {
    List<String> values = values(ident);
    StringBuilder path = new StringBuilder(EntryFormat.withoutTrailingSlash(tableLocation()));
    StructField[] fields = partitionSchema.fields();
    for (int i = 0; i < fields.length; i++) {
      path.append('/').append(ExternalCatalogUtils.getPartitionPathString(fields[i].name(), values.get(i)));
    }
    return new Path(path.toString());
  }

  private boolean underTable(String location) {
    return location != null && EntryFormat.withoutTrailingSlash(location)
        .startsWith(EntryFormat.withoutTrailingSlash(tableLocation()) + "/");
  }

  /** The table's StorageDescriptor.Location, as the entry holds it. */
  private String tableLocation() {
    return entry.storageLocation().orElse(null);
  }

  /** Deletes a directory; with {@code recreate} an empty one takes its place, as Spark's TRUNCATE leaves it. */
  private void delete(Path dir, boolean recreate) {
    FileSystem fs = fs(dir.toString());
    try {
      if (fs.exists(dir)) {
        fs.delete(dir, true);
        if (recreate) {
          fs.mkdirs(dir);
        }
      }
    } catch (IOException e) {
      throw failed("remove the files of " + dir, e);
    }
  }

  private FileSystem fs(String location) {
    return hadoop.open(qualified, location);
  }

  private void requireObjects(String statement) {
    String reason = PartitionSync.notApplicable(entry);
    if (reason != null) {
      throw new UnsupportedOperationException(String.format("%s %s: gluecat keeps no Glue partition objects for "
          + "this table, which is %s; its partitions are the directories under its location (write or delete "
          + "them with INSERT and TRUNCATE instead). Nothing was changed.", statement, qualified, reason));
    }
  }

  private GlueCatalogException failed(String what, IOException e) {
    return new GlueCatalogException(String.format("%s: could not %s: %s", qualified, what, e.getMessage()), e);
  }
}
