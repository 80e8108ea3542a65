package io.gluecat.hive;

import io.gluecat.GlueCatalogException;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.hive.HiveWrite.Mode;
import io.gluecat.hive.HiveWrite.Target;
import io.gluecat.partitions.PartitionsByValue;
import io.gluecat.partitions.StaticPartitions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.types.DataTypeUtils;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.OutputWriterFactory;
import org.apache.spark.sql.execution.datasources.WriteJobDescription;
import org.apache.spark.sql.execution.datasources.WriteTaskResult;
import org.apache.spark.sql.execution.datasources.v2.FileBatchWrite;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;

/**
 * The job of a {@link HiveWrite}: Spark's file writers and commit protocol, then the partitions in Glue and the
 * replaced files. Kept apart from HiveWrite (what Spark asks for, which partitions an overwrite selects): this is
 * the part that touches storage and Glue, in the order that keeps a failed write harmless.
 */
final class HiveBatchWrite implements BatchWrite {
  private final Target target;
  private final Mode mode;
  private final Filter[] filters;
  private final String jobId = UUID.randomUUID().toString();
  private final Configuration conf;
  /**
   * The table's partitions the write may touch, by their values, as Glue has them: read before the job for a
   * static overwrite (the partitions its values select), after the job's commit otherwise (the partitions it
   * wrote).
   */
  private final Map<List<String>, Partition> existing = new LinkedHashMap<>();
  /** Whether {@link #existing} was read before the job, so the job writes into their locations itself. */
  private final boolean existingBeforeJob;
  private final HiveWriteFiles jobFiles;
  private final FileBatchWrite files;

  HiveBatchWrite(Target target, LogicalWriteInfo info, Mode mode, Filter[] filters) {
    this.target = target;
    this.mode = mode;
    this.filters = filters;
    SparkSession spark = SparkSession.active();
    Map<String, String> options = new LinkedHashMap<>(target.options());
    options.putAll(target.source().writeOptions());
    options.putAll(info.options().asCaseSensitiveMap());
    this.conf = spark.sessionState().newHadoopConfWithOptions(SparkCompat.scalaMap(options));
    // a static overwrite knows what it replaces before it writes: the partitions of its static values (all of
    // them when it names none); appends and dynamic overwrites learn which partitions they wrote only once written
    this.existingBeforeJob = mode == Mode.OVERWRITE && !target.source().partitionColumns().isEmpty();
    if (existingBeforeJob) {
      Map<String, String> statics = StaticPartitions.values(filters);
      readExisting(statics.isEmpty() ? null : List.of(statics));
    }
    this.jobFiles = new HiveWriteFiles(target.name(), target.location(), conf, jobId);
    Path root = new Path(target.location());
    try {
      FileSystem fs = root.getFileSystem(conf);
      if (!fs.exists(root)) {
        fs.mkdirs(root);
      }
      Job job = Job.getInstance(conf);
      job.setOutputKeyClass(Void.class);
      job.setOutputValueClass(InternalRow.class);
      FileOutputFormat.setOutputPath(job, root);
      FileCommitProtocol committer = FileCommitProtocol.instantiate(
          spark.sessionState().conf().fileCommitProtocolClass(), jobId, target.location(), false);
      WriteJobDescription description = description(spark, job, info.schema(), options);
      committer.setupJob(job);
      this.files = new FileBatchWrite(job, description, committer);
    } catch (IOException e) {
      throw new UncheckedIOException(String.format("Cannot write table %s at %s: %s", target.name(),
          target.location(), e.getMessage()), e);
    }
  }

  /**
   * Reads the table's partitions of {@code specs} (values by key; null: every partition) into {@link #existing}:
   * GetPartitions expressions naming them ({@link PartitionsByValue}), or one listing of all when Glue's grammar
   * cannot name them.
   */
  private void readExisting(Collection<Map<String, String>> specs) {
    List<PartitionsByValue.Key> keys = keys();
    Optional<List<String>> expressions = specs == null ? Optional.empty() : PartitionsByValue.expressions(keys, specs);
    List<Partition> answer = expressions.isPresent() ? target.partitions().partitions(expressions.get())
        : target.partitions().partitions(Optional.empty());
    for (Partition p : answer) {
      if (specs == null || PartitionsByValue.selected(p, keys, specs)) {
        existing.put(p.values(), p);
      }
    }
  }

  /** The partition keys with the Hive names of their types, as Glue keeps them. */
  private List<PartitionsByValue.Key> keys() {
    StructType schema = target.source().schema();
    return target.source().partitionColumns().stream()
        .map(k -> new PartitionsByValue.Key(k, schema.apply(k).dataType().catalogString())).toList();
  }

  private WriteJobDescription description(SparkSession spark, Job job, StructType schema,
      Map<String, String> options) {
    List<String> keys = target.source().partitionColumns();
    List<Attribute> all = new ArrayList<>(Scala.javaList(DataTypeUtils.toAttributes(schema)));
    List<Attribute> data = all.stream().filter(a -> !keys.contains(a.name())).toList();
    List<Attribute> partitionAttributes = all.stream().filter(a -> keys.contains(a.name())).toList();
    StructType dataSchema = new StructType(java.util.Arrays.stream(schema.fields())
        .filter(f -> !keys.contains(f.name())).toArray(StructField[]::new));
    FileFormat format = fileFormat(target.source().format());
    for (StructField f : dataSchema.fields()) {
      if (!format.supportDataType(f.dataType())) {
        throw new UnsupportedOperationException(String.format("Table %s: its %s files cannot hold the column "
            + "'%s' of type %s. Nothing was written.", target.name(), target.source().format(), f.name(),
            f.dataType().simpleString()));
      }
    }
    OutputWriterFactory writers;
    try {
      writers = format.prepareWrite(spark, job, SparkCompat.scalaMap(options), dataSchema);
    } catch (IllegalArgumentException e) { // an option the writer refuses, e.g. a codec
      throw new IllegalArgumentException(String.format("Table %s: Spark's %s writer refuses its options: %s. "
          + "Nothing was written.", target.name(), target.source().format(), e.getMessage()), e);
    }
    Map<scala.collection.immutable.Map<String, String>, String> custom = new LinkedHashMap<>();
    for (Partition p : existing.values()) {
      Map<String, String> spec = spec(p.values());
      String where = p.storageDescriptor() == null ? null : p.storageDescriptor().location();
      if (where != null && !stripSlash(where).equals(defaultLocation(spec))) {
        custom.put(SparkCompat.scalaMap(spec), stripSlash(where));
      }
    }
    org.apache.spark.sql.internal.SQLConf sql = spark.sessionState().conf();
    String maxRecords = options.get("maxRecordsPerFile");
    return new WriteJobDescription(jobId, new SerializableConfiguration(job.getConfiguration()), writers,
        Scala.list(all), Scala.list(data), Scala.list(partitionAttributes), scala.Option.empty(),
        target.location(), SparkCompat.scalaMap(custom),
        maxRecords == null ? sql.maxRecordsPerFile() : Long.parseLong(maxRecords.trim()),
        sql.sessionLocalTimeZone(), Scala.list());
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return files.createBatchWriterFactory(info);
  }

  @Override
  public boolean useCommitCoordinator() {
    return files.useCommitCoordinator();
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    files.abort(messages);
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    files.commit(messages); // the new files are in place from here on
    Set<String> fragments = new java.util.TreeSet<>(); // in one order whatever the tasks' order
    for (WriterCommitMessage m : messages) {
      if (m instanceof WriteTaskResult result) {
        fragments.addAll(Scala.javaSet(result.summary().updatedPartitions()));
      }
    }
    Set<List<String>> written = new LinkedHashSet<>();
    fragments.forEach(fragment -> written.add(values(fragment)));
    if (!existingBeforeJob && !written.isEmpty()) {
      try {
        List<PartitionsByValue.Key> keys = keys();
        readExisting(written.stream().map(v -> PartitionsByValue.spec(keys, v)).toList());
      } catch (RuntimeException e) {
        throw new GlueCatalogException(String.format("The rows of this write to table %s were written into %s, "
            + "under %s, but reading which of those partitions Glue has failed: %s. Glue readers (gluecat, Trino, "
            + "Athena) miss the rows of partitions Glue lacks until they exist: add them with "
            + "io.gluecat.partitions.PartitionSync.sync(\"<catalog>\", \"<database>.<table>\") (or the doctor "
            + "tool's repair --partitions). Rows of a partition that Glue keeps at a location of its own stay in its "
            + "key=value directory named here until they are moved there; the files an overwrite replaces were "
            + "kept.", target.name(), written.stream().map(v -> defaultLocation(spec(v))).toList(),
            target.location(), e.getMessage()), e);
      }
      // the job wrote every partition into its key=value directory: an existing partition that Glue keeps
      // elsewhere gets its rows moved there, as Hive moves a finished job's files into each partition's location
      for (List<String> values : written) {
        if (!location(values).equals(defaultLocation(spec(values)))) {
          jobFiles.move(defaultLocation(spec(values)), location(values));
        }
      }
    }
    List<PartitionInput> added = new ArrayList<>();
    for (List<String> values : written) {
      if (!existing.containsKey(values)) {
        added.add(PartitionInput.builder().values(values)
            .storageDescriptor(partitionStorage(defaultLocation(spec(values)))).build());
      }
    }
    // Glue first: until a partition object exists, no Glue reader sees its rows, and the old files stay
    try {
      target.partitions().create(added);
    } catch (RuntimeException e) {
      throw new GlueCatalogException(String.format("The rows of this write to table %s were written, but "
          + "creating the Glue partitions %s failed: %s. Glue readers (gluecat, Trino, Athena) miss those "
          + "partitions' rows until the partition objects exist; the files an overwrite replaces were kept. "
          + "Add the partitions without writing the rows again with io.gluecat.partitions.PartitionSync.sync"
          + "(\"<catalog>\", \"<database>.<table>\") (or the doctor tool's repair --partitions), which adds "
          + "the missing ones under %s and changes no other.", target.name(),
          added.stream().map(PartitionInput::values).toList(), e.getMessage(), target.location()), e);
    }
    if (mode == Mode.APPEND) {
      return;
    }
    List<List<String>> emptied = new ArrayList<>();
    Set<String> replaced = new LinkedHashSet<>();
    if (target.source().partitionColumns().isEmpty()) {
      replaced.add(stripSlash(target.location()));
    } else {
      for (List<String> values : written) {
        replaced.add(location(values));
      }
      if (mode == Mode.OVERWRITE) {
        for (List<String> values : existing.keySet()) {
          if (selected(values)) {
            replaced.add(location(values));
            if (!written.contains(values)) {
              emptied.add(values);
            }
          }
        }
      }
    }
    for (String dir : replaced) {
      jobFiles.removeFilesOfOtherJobs(dir);
    }
    target.partitions().delete(emptied);
  }

  /** Whether the overwrite's filters select a partition (Spark's static partition values, AND-ed). */
  private boolean selected(List<String> values) {
    Map<String, String> spec = spec(values);
    for (Filter f : filters) {
      if (!HiveWrite.matches(target, f, spec)) {
        return false;
      }
    }
    return true;
  }

  /** Where a partition's files are: its Glue location, or the key=value directory of a new one. */
  private String location(List<String> values) {
    Partition p = existing.get(values);
    String where = p == null || p.storageDescriptor() == null ? null : p.storageDescriptor().location();
    return where == null || where.isBlank() ? defaultLocation(spec(values)) : stripSlash(where);
  }

  /** A new partition's object: the table's storage at the partition's directory, as Hive and Trino add it. */
  private StorageDescriptor partitionStorage(String location) {
    return io.gluecat.entry.EntryWriter.partitionStorage(target.storage(), location);
  }

  /** A partition directory fragment {@code k1=v1/k2=v2} (as Spark's writer names it) to Glue's values. */
  private List<String> values(String fragment) {
    List<String> values = new ArrayList<>();
    for (String part : fragment.split("/")) {
      int eq = part.indexOf('=');
      values.add(ExternalCatalogUtils.unescapePathName(part.substring(eq + 1)));
    }
    return values;
  }

  private Map<String, String> spec(List<String> values) {
    Map<String, String> spec = new LinkedHashMap<>();
    List<String> keys = target.source().partitionColumns();
    for (int i = 0; i < keys.size() && i < values.size(); i++) {
      spec.put(keys.get(i), values.get(i));
    }
    return spec;
  }

  private String defaultLocation(Map<String, String> spec) {
    StringBuilder path = new StringBuilder(stripSlash(target.location()));
    spec.forEach((key, value) -> path.append('/').append(ExternalCatalogUtils.getPartitionPathString(key, value)));
    return path.toString();
  }

  private static String stripSlash(String location) {
    return location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
  }

  private static FileFormat fileFormat(String format) {
    return switch (format) {
      case "parquet" -> new org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat();
      case "orc" -> new org.apache.spark.sql.execution.datasources.orc.OrcFileFormat();
      case "csv" -> new org.apache.spark.sql.execution.datasources.csv.CSVFileFormat();
      default -> throw new IllegalStateException("gluecat does not write " + format + " files of Hive tables");
    };
  }
}
