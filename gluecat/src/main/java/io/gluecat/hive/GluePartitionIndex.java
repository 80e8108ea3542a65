package io.gluecat.hive;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.compat.PrunedFileIndex;
import io.gluecat.compat.SparkCompat;
import io.gluecat.entry.StoredPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.execution.datasources.InMemoryFileIndex;
import org.apache.spark.sql.execution.datasources.NoopCache$;
import org.apache.spark.sql.execution.datasources.PartitionPath;
import org.apache.spark.sql.execution.datasources.PartitionSpec;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The files of a partitioned Hive-format table, by its Glue partitions: when a scan lists its files, the
 * scan's partition filters become a GetPartitions expression ({@link PartitionFilters}), and only the
 * returned partitions' locations are listed, wherever they are (outside the table's location, in any
 * layout). Values come from Glue, not from directory names; {@code __HIVE_DEFAULT_PARTITION__} is null.
 * Spark's own index then prunes the returned partitions with the filters themselves, which covers what
 * Glue's grammar cannot express.
 */
public final class GluePartitionIndex extends PrunedFileIndex {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(GluePartitionIndex.class);
  /** Hive's name of the partition whose value is null. */
  static final String DEFAULT_PARTITION = "__HIVE_DEFAULT_PARTITION__";

  /** Reads a table's partitions from Glue, all of them or those the expression selects. */
  public interface Source {
    List<StoredPartition> partitions(Optional<String> expression);
  }

  private final SparkSession spark;
  private final String table;
  private final String location;
  private final Map<String, String> options;
  private final StructType partitionSchema;
  private final Source source;
  /** Whether the files are text (csv, json), whose codecs are checked ({@link HiveScanFiles#requireDecompressible}). */
  private final boolean textFiles;
  /** The entry's partition projection, which replaces its Glue partitions; null when it has none. */
  private final PartitionProjection projection;
  /** Spark lists a scan's files more than once while it plans; Glue is asked once per expression. */
  private final Map<Optional<String>, InMemoryFileIndex> selections = new java.util.concurrent.ConcurrentHashMap<>();
  /** Projected partitions are computed per listing (cheap), their files listed once per set of partitions. */
  private final Map<List<PartitionProjection.Partition>, InMemoryFileIndex> projections =
      new java.util.concurrent.ConcurrentHashMap<>();

  GluePartitionIndex(SparkSession spark, String table, String location, Map<String, String> options,
      StructType partitionSchema, Source source, Optional<PartitionProjection> projection, boolean textFiles) {
    super(spark, options, partitionSchema);
    this.textFiles = textFiles;
    this.spark = spark;
    this.table = table;
    this.location = location;
    this.options = options;
    this.partitionSchema = partitionSchema;
    this.source = source;
    this.projection = projection.orElse(null);
  }

  @Override
  protected InMemoryFileIndex selected(List<Expression> partitionFilters) {
    if (projection != null) {
      return projections.computeIfAbsent(projection.partitions(partitionFilters, this::matching), this::index);
    }
    return selections.computeIfAbsent(PartitionFilters.of(partitionFilters, partitionSchema), this::read);
  }

  /**
   * The indexes of the rows (partition values as strings, for the keys of {@code schema}) that the filters
   * referring to those keys alone may match; the other filters are left to Spark.
   */
  private List<Integer> matching(StructType schema, List<List<String>> rows, List<Expression> filters) {
    java.util.Set<String> names = new java.util.HashSet<>(java.util.Arrays.asList(schema.fieldNames()));
    List<Expression> usable = filters.stream().filter(f -> io.gluecat.compat.Scala.javaList(f.references().toSeq())
        .stream().allMatch(a -> names.contains(a.name()))).toList();
    List<Integer> kept = new ArrayList<>();
    if (usable.isEmpty()) {
      for (int i = 0; i < rows.size(); i++) {
        kept.add(i);
      }
      return kept;
    }
    // bind the filters' attributes to the row's positions, as Spark's own index prunes its partitions
    List<org.apache.spark.sql.catalyst.expressions.Attribute> input = new ArrayList<>();
    for (StructField f : schema.fields()) {
      input.add(usable.stream().flatMap(e -> io.gluecat.compat.Scala.javaList(e.references().toSeq()).stream())
          .filter(a -> a.name().equals(f.name())).findFirst()
          .orElseGet(() -> org.apache.spark.sql.catalyst.types.DataTypeUtils.toAttribute(f)));
    }
    var attributes = org.apache.spark.sql.catalyst.expressions.package$.MODULE$.AttributeSeq(
        io.gluecat.compat.Scala.list(input));
    Expression all = usable.stream().reduce(org.apache.spark.sql.catalyst.expressions.And::new).orElseThrow();
    org.apache.spark.sql.catalyst.expressions.InterpretedPredicate predicate =
        org.apache.spark.sql.catalyst.expressions.Predicate.createInterpreted(
            org.apache.spark.sql.catalyst.expressions.BindReferences.bindReference(all, attributes, false));
    predicate.initialize(0);
    String timeZone = SQLConf.get().sessionLocalTimeZone();
    for (int i = 0; i < rows.size(); i++) {
      if (predicate.eval(row(table, schema, rows.get(i), timeZone))) {
        kept.add(i);
      }
    }
    return kept;
  }

  /** The index of projected partitions; those without a directory read as empty, as in Athena. */
  private InMemoryFileIndex index(List<PartitionProjection.Partition> partitions) {
    String timeZone = SQLConf.get().sessionLocalTimeZone();
    List<PartitionPath> paths = new ArrayList<>();
    List<Path> roots = new ArrayList<>();
    for (PartitionProjection.Partition p : partitions) {
      Path path = new Path(p.location());
      paths.add(new PartitionPath(row(table, partitionSchema, p.values(), timeZone), path));
      roots.add(path);
    }
    InMemoryFileIndex index = index(paths, roots);
    requireDecompressible(index, roots, partitions.stream().map(PartitionProjection.Partition::values).toList());
    return index;
  }

  /** A text table's files, partition by partition, through {@link HiveScanFiles#requireDecompressible}. */
  private void requireDecompressible(InMemoryFileIndex index, List<Path> roots, List<List<String>> values) {
    if (!textFiles) {
      return;
    }
    Map<String, List<String>> byRoot = new java.util.HashMap<>();
    for (int i = 0; i < roots.size(); i++) {
      byRoot.put(roots.get(i).toString(), values.get(i));
      // listed files are qualified (file:/x), a Glue location may not be (file:///x)
      byRoot.putIfAbsent(Path.getPathWithoutSchemeAndAuthority(roots.get(i)).toString(), values.get(i));
    }
    Map<String, List<Path>> byDirectory = new java.util.LinkedHashMap<>();
    for (org.apache.hadoop.fs.FileStatus f : io.gluecat.compat.Scala.javaList(index.allFiles())) {
      byDirectory.computeIfAbsent(f.getPath().getParent().toString(), d -> new ArrayList<>()).add(f.getPath());
    }
    byDirectory.forEach((directory, files) -> HiveScanFiles.requireDecompressible(table,
        byRoot.getOrDefault(directory, byRoot.get(Path.getPathWithoutSchemeAndAuthority(new Path(directory)).toString())),
        files, options));
  }

  private InMemoryFileIndex index(List<PartitionPath> paths, List<Path> roots) {
    PartitionSpec spec = new PartitionSpec(partitionSchema, io.gluecat.compat.Scala.list(paths));
    return new InMemoryFileIndex(spark, io.gluecat.compat.Scala.list(roots), SparkCompat.scalaMap(options),
        scala.Option.apply(partitionSchema), NoopCache$.MODULE$, scala.Option.apply(spec), scala.Option.empty());
  }

  /** The index of the partitions Glue returns for the expression. */
  private InMemoryFileIndex read(Optional<String> expression) {
    List<StoredPartition> partitions = source.partitions(expression);
    String timeZone = SQLConf.get().sessionLocalTimeZone();
    List<PartitionPath> paths = new ArrayList<>();
    List<Path> roots = new ArrayList<>();
    for (StoredPartition p : partitions) {
      List<String> values = p.values();
      if (values.size() != partitionSchema.size()) {
        throw new InvalidGlueEntryException(String.format("Table %s has a Glue partition with %d values %s for its "
            + "%d partition keys", table, values.size(), values, partitionSchema.size()));
      }
      String partitionLocation = p.location();
      if (partitionLocation == null || partitionLocation.isBlank()) {
        throw new InvalidGlueEntryException(String.format("Table %s has a Glue partition %s without a location",
            table, values));
      }
      Path path = new Path(partitionLocation.trim());
      paths.add(new PartitionPath(row(table, partitionSchema, values, timeZone), path));
      roots.add(path);
    }
    InMemoryFileIndex index = index(paths, roots);
    requireDecompressible(index, roots, partitions.stream().map(StoredPartition::values).toList());
    warnAbsent(index, partitions, roots);
    return index;
  }

  /**
   * A Glue partition whose directory does not exist reads as empty, as Hive, Athena and Spark's Hive path read
   * it (Spark's listing skips a missing root; Trino fails on HDFS unless hive.ignore-absent-partitions, and on
   * S3, which has no directories, reads it as empty). It usually means files were moved or deleted behind the
   * catalog's back, so each one is logged, naming the table and the partition. Only partitions that listed no
   * files are looked up: one file-system call each.
   */
  private void warnAbsent(InMemoryFileIndex index, List<StoredPartition> partitions, List<Path> roots) {
    java.util.Set<String> withFiles = new java.util.HashSet<>();
    for (org.apache.hadoop.fs.FileStatus f : io.gluecat.compat.Scala.javaList(index.allFiles())) {
      withFiles.add(f.getPath().getParent().toString());
      withFiles.add(Path.getPathWithoutSchemeAndAuthority(f.getPath().getParent()).toString());
    }
    org.apache.hadoop.conf.Configuration conf = null;
    for (int i = 0; i < roots.size(); i++) {
      Path root = roots.get(i);
      if (withFiles.contains(root.toString())
          || withFiles.contains(Path.getPathWithoutSchemeAndAuthority(root).toString())) {
        continue;
      }
      try {
        if (conf == null) {
          conf = HiveScanFiles.hadoopConf(options);
        }
        org.apache.hadoop.fs.FileSystem fs = root.getFileSystem(conf);
        if (!fs.exists(root)) {
          LOG.warn("Table {}: the Glue partition {} has the location {}, which does not exist; it reads as empty, "
              + "as in Hive and Athena", table, partitions.get(i).values(), root);
        }
      } catch (java.io.IOException | RuntimeException e) {
        LOG.debug("Table {}: could not check the location {} of the Glue partition {}", table, root,
            partitions.get(i).values(), e);
      }
    }
  }

  /** A partition's values as Spark's row of the keys' types, cast as Spark casts strings. */
  private static InternalRow row(String table, StructType partitionSchema, List<String> values, String timeZone) {
    Object[] row = new Object[values.size()];
    for (int i = 0; i < row.length; i++) {
      String value = values.get(i);
      StructField key = partitionSchema.fields()[i];
      if (value == null || value.equals(DEFAULT_PARTITION)) {
        continue;
      }
      try {
        row[i] = new Cast(Literal.create(value, DataTypes.StringType), key.dataType(), scala.Option.apply(timeZone))
            .eval(null);
      } catch (RuntimeException e) { // ANSI mode's cast error
        throw new InvalidGlueEntryException(String.format("Table %s has a Glue partition %s whose value '%s' is "
            + "not a %s (partition key '%s')", table, values, value, key.dataType().simpleString(), key.name()), e);
      }
    }
    return new GenericInternalRow(row);
  }

  /** Spark's estimate for a table it has no statistics of: listing every partition to measure it costs too much. */
  @Override
  public long sizeInBytes() {
    return SQLConf.get().defaultSizeInBytes();
  }

  @Override
  public String[] inputFiles() {
    return selected(List.of()).inputFiles();
  }

  /** Two scans are the same only over the same table (the index lists no root paths to compare). */
  @Override
  public boolean equals(Object other) {
    return other instanceof GluePartitionIndex o && o.table.equals(table) && o.location.equals(location);
  }

  @Override
  public int hashCode() {
    return Objects.hash(table, location);
  }

  @Override
  public String toString() {
    return "GluePartitionIndex(" + table + ")";
  }
}
