package io.gluecat.files;

import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.files.InsertTable.Mode;
import io.gluecat.files.InsertTable.Target;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
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

/**
 * The job of an {@link InsertTable} write: Spark's own file format writer and commit protocol, as Spark's V1
 * insert runs them (the same writer, options, file names and {@code key=value} directories), then the
 * partition sync. An overwrite writes through the commit protocol's dynamic partition overwrite, which
 * replaces each partition directory written when the job commits; a static overwrite then removes the
 * directories its static values select that got no rows, as Spark's V1 insert removes them. Nothing is
 * deleted before the new files are committed, so a statement that reads the table it overwrites reads the
 * old rows, and a failed job leaves the table as it was.
 */
final class InsertBatchWrite implements BatchWrite {
  private final Target target;
  private final Mode mode;
  private final Filter[] filters;
  private final String jobId = UUID.randomUUID().toString();
  private final Configuration conf;
  private final FileBatchWrite files;
  private volatile boolean committed;

  InsertBatchWrite(Target target, LogicalWriteInfo info, Mode mode, Filter[] filters) {
    this.target = target;
    this.mode = mode;
    this.filters = filters;
    // before the table's directory is made: a missing writer (spark-avro) leaves nothing behind
    FileFormat format = fileFormat(target.name(), target.provider(), Thread.currentThread().getContextClassLoader());
    SparkSession spark = SparkSession.active();
    Map<String, String> options = new LinkedHashMap<>(target.options());
    this.conf = spark.sessionState().newHadoopConfWithOptions(SparkCompat.scalaMap(options));
    Path root = new Path(target.location());
    try {
      FileSystem fs = root.getFileSystem(conf);
      if (!fs.exists(root)) {
        fs.mkdirs(root);
      }
      Job job = Job.getInstance(conf);
      job.setOutputKeyClass(Void.class);
      job.setOutputValueClass(InternalRow.class);
      boolean replace = mode != Mode.APPEND;
      // as Spark's V1 insert: an overwrite's job writes into the protocol's staging directory, whose partition
      // directories replace the table's when the job commits
      Path output = replace ? new Path(root, ".spark-staging-" + jobId).makeQualified(fs.getUri(),
          fs.getWorkingDirectory()) : root;
      FileOutputFormat.setOutputPath(job, output);
      FileCommitProtocol committer = FileCommitProtocol.instantiate(
          spark.sessionState().conf().fileCommitProtocolClass(), jobId, target.location(), replace);
      WriteJobDescription description = description(spark, job, format, info.schema(), options,
          output.toString());
      committer.setupJob(job);
      this.files = new FileBatchWrite(job, description, committer);
    } catch (IOException e) {
      throw new UncheckedIOException(String.format("Cannot write table %s at %s: %s", target.name(),
          target.location(), e.getMessage()), e);
    }
  }

  private WriteJobDescription description(SparkSession spark, Job job, FileFormat format, StructType schema,
      Map<String, String> options, String output) {
    List<String> keys = target.partitionColumns();
    List<Attribute> all = new ArrayList<>(Scala.javaList(DataTypeUtils.toAttributes(schema)));
    List<Attribute> data = all.stream().filter(a -> !keys.contains(a.name())).toList();
    // in the table's order of partition columns, which is the directories' order
    List<Attribute> partitionAttributes = new ArrayList<>();
    for (String key : keys) {
      all.stream().filter(a -> a.name().equals(key)).findFirst().ifPresent(partitionAttributes::add);
    }
    StructType dataSchema = new StructType(java.util.Arrays.stream(schema.fields())
        .filter(f -> !keys.contains(f.name())).toArray(StructField[]::new));
    for (StructField f : dataSchema.fields()) {
      if (!format.supportDataType(f.dataType())) {
        throw new UnsupportedOperationException(String.format("Table %s: its %s files cannot hold the column "
            + "'%s' of type %s. Nothing was written.", target.name(), target.provider(), f.name(),
            f.dataType().simpleString()));
      }
    }
    OutputWriterFactory writers = format.prepareWrite(spark, job, SparkCompat.scalaMap(options), dataSchema);
    org.apache.spark.sql.internal.SQLConf sql = spark.sessionState().conf();
    String maxRecords = options.get("maxRecordsPerFile");
    return new WriteJobDescription(jobId, new SerializableConfiguration(job.getConfiguration()), writers,
        Scala.list(all), Scala.list(data), Scala.list(partitionAttributes), scala.Option.empty(),
        output, SparkCompat.scalaMap(Map.of()),
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
    if (!committed) { // after the commit the new files are the table's; a failed sync keeps them
      files.abort(messages);
    }
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    files.commit(messages); // the new files are in place from here on (an overwrite's written partitions replaced)
    committed = true;
    Set<String> written = new LinkedHashSet<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof WriteTaskResult result) {
        written.addAll(Scala.javaSet(result.summary().updatedPartitions()));
      }
    }
    List<String> removed = mode == Mode.OVERWRITE ? removeUnwrittenSelectedPartitions(written) : List.of();
    target.afterWrite().run(new ArrayList<>(written), removed);
  }

  /** A static overwrite's selected partition directories that got no rows go, as Spark's V1 insert removes them. */
  private List<String> removeUnwrittenSelectedPartitions(Set<String> written) {
    Path root = new Path(target.location());
    try {
      FileSystem fs = root.getFileSystem(conf);
      Map<String, Path> partitions = new LinkedHashMap<>();
      walk(fs, root, "", 0, new LinkedHashMap<>(), written, partitions);
      for (Path dir : partitions.values()) {
        fs.delete(dir, true);
        for (Path parent = dir.getParent(); parent != null && parent.depth() > root.depth();
            parent = parent.getParent()) {
          FileStatus[] left = fs.listStatus(parent);
          if (left.length > 0) {
            break;
          }
          fs.delete(parent, false);
        }
      }
      return new ArrayList<>(partitions.keySet());
    } catch (IOException e) {
      throw new UncheckedIOException(String.format("The rows of this overwrite of table %s were written, but "
          + "removing the partitions it replaces under %s failed: %s. Readers see the old partitions beside the "
          + "new until they are removed.", target.name(), target.location(), e.getMessage()), e);
    }
  }

  private void walk(FileSystem fs, Path dir, String fragment, int depth, Map<String, String> spec, Set<String> written,
      Map<String, Path> selected) throws IOException {
    List<String> keys = target.partitionColumns();
    if (depth == keys.size()) {
      if (!written.contains(fragment) && selectedByFilters(spec)) {
        selected.put(fragment, dir);
      }
      return;
    }
    if (!fs.exists(dir)) {
      return;
    }
    for (FileStatus child : fs.listStatus(dir)) {
      String name = child.getPath().getName();
      int eq = name.indexOf('=');
      if (!child.isDirectory() || name.startsWith("_") || name.startsWith(".") || eq <= 0
          || !ExternalCatalogUtils.unescapePathName(name.substring(0, eq)).equalsIgnoreCase(keys.get(depth))) {
        continue;
      }
      Map<String, String> next = new LinkedHashMap<>(spec);
      next.put(keys.get(depth), ExternalCatalogUtils.unescapePathName(name.substring(eq + 1)));
      walk(fs, child.getPath(), fragment.isEmpty() ? name : fragment + "/" + name, depth + 1, next, written, selected);
    }
  }

  private boolean selectedByFilters(Map<String, String> spec) {
    for (Filter f : filters) {
      if (!InsertTable.selects(target, f, spec)) {
        return false;
      }
    }
    return true;
  }

  /** The writer of {@code table}'s files, or a refusal naming the table and the artifact that is missing. */
  static FileFormat fileFormat(String table, String provider, ClassLoader loader) {
    switch (provider) {
      case "parquet":
        return new org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat();
      case "orc":
        return new org.apache.spark.sql.execution.datasources.orc.OrcFileFormat();
      default:
        try { // spark-avro is the session's, not gluecat's
          return (FileFormat) Class.forName("org.apache.spark.sql.avro.AvroFileFormat", true, loader)
              .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
          throw new IllegalStateException(String.format("Table %s: writing its %s files needs Spark's avro source "
              + "on the classpath (org.apache.spark:spark-avro_<scala> of the running Spark release, e.g. with "
              + "--packages). Nothing was written.", table, provider), e);
        }
    }
  }
}
