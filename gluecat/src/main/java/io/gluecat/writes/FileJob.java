package io.gluecat.writes;

import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.lib.output.FileOutputFormat;
import org.apache.spark.internal.io.FileCommitProtocol;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.catalog.BucketSpec;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.plans.physical.HashPartitioning;
import org.apache.spark.sql.catalyst.types.DataTypeUtils;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.OutputWriterFactory;
import org.apache.spark.sql.execution.datasources.WriteJobDescription;
import org.apache.spark.sql.execution.datasources.WriteTaskResult;
import org.apache.spark.sql.execution.datasources.WriterBucketSpec;
import org.apache.spark.sql.execution.datasources.v2.FileBatchWrite;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.util.SerializableConfiguration;

/**
 * One job of a table's files, as Spark's V1 insert runs it: Spark's own file format writer (its options, file
 * names and {@code key=value} directories) and commit protocol. Every file write of gluecat runs one (SQL INSERT
 * into file source tables, writes into Hive-format tables); what a table kind does before and after the commit
 * (Glue partitions, replaced files) stays with it.
 */
public final class FileJob {
  /**
   * What a job writes.
   *
   * @param table catalog.database.table, for messages
   * @param format parquet, orc, csv or avro
   * @param location the table's location
   * @param partitionColumns the partition columns, in the directories' order
   * @param options the writer's options (and Hadoop settings), as the statement and table give them
   * @param schema the rows' schema, partition columns included
   * @param partitionLocations existing partitions whose files go to a location of their own (values by column
   *     to location); the rest go to their {@code key=value} directory
   * @param replaceWrittenPartitions whether the commit replaces each partition directory written (the commit
   *     protocol's dynamic partition overwrite, through its staging directory)
   * @param bucketSpec the table's bucketing: each file then holds one bucket, its id in the name, as Spark's V1
   *     insert writes them; the tasks' rows must be one bucket each ({@link PartitionSortedWrite} asks for that)
   */
  public record Spec(String table, String format, String location, List<String> partitionColumns,
      Map<String, String> options, StructType schema, Map<Map<String, String>, String> partitionLocations,
      boolean replaceWrittenPartitions, Optional<BucketSpec> bucketSpec) {
    /** A job of an unbucketed table. */
    public Spec(String table, String format, String location, List<String> partitionColumns,
        Map<String, String> options, StructType schema, Map<Map<String, String>, String> partitionLocations,
        boolean replaceWrittenPartitions) {
      this(table, format, location, partitionColumns, options, schema, partitionLocations, replaceWrittenPartitions,
          Optional.empty());
    }
  }

  private final String jobId = UUID.randomUUID().toString();
  private final Configuration conf;
  private final FileBatchWrite files;

  /** Checks the format and the columns, makes the table's directory and sets the job up. */
  public FileJob(Spec spec) {
    SparkSession spark = SparkSession.active();
    // before the table's directory is made: a missing writer (spark-avro) or a column its files cannot hold
    // leaves nothing behind
    FileFormat format = fileFormat(spec.table(), spec.format(), Thread.currentThread().getContextClassLoader());
    if (spec.bucketSpec().isPresent() && spec.partitionColumns().isEmpty()) {
      // Spark's V2 file writer writes an unpartitioned table's files without bucket ids: never into a bucketed table
      throw new IllegalStateException(String.format("Table %s: gluecat writes a bucketed table's files in this job "
          + "only when it is partitioned. Nothing was written.", spec.table()));
    }
    StructType dataSchema = new StructType(Arrays.stream(spec.schema().fields())
        .filter(f -> !spec.partitionColumns().contains(f.name())).toArray(StructField[]::new));
    for (StructField f : dataSchema.fields()) {
      if (!format.supportDataType(f.dataType())) {
        throw new UnsupportedOperationException(String.format("Table %s: its %s files cannot hold the column "
            + "'%s' of type %s. Nothing was written.", spec.table(), spec.format(), f.name(),
            f.dataType().simpleString()));
      }
    }
    this.conf = spark.sessionState().newHadoopConfWithOptions(SparkCompat.scalaMap(spec.options()));
    Path root = new Path(spec.location());
    try {
      FileSystem fs = root.getFileSystem(conf);
      if (!fs.exists(root)) {
        fs.mkdirs(root);
      }
      Job job = Job.getInstance(conf);
      job.setOutputKeyClass(Void.class);
      job.setOutputValueClass(InternalRow.class);
      // as Spark's V1 insert: a job that replaces the partitions it writes writes into the protocol's staging
      // directory, whose partition directories replace the table's when the job commits
      Path output = spec.replaceWrittenPartitions() ? new Path(root, ".spark-staging-" + jobId)
          .makeQualified(fs.getUri(), fs.getWorkingDirectory()) : root;
      FileOutputFormat.setOutputPath(job, output);
      FileCommitProtocol committer = FileCommitProtocol.instantiate(
          spark.sessionState().conf().fileCommitProtocolClass(), jobId, spec.location(),
          spec.replaceWrittenPartitions());
      WriteJobDescription description = description(spark, spec, job, format, dataSchema, output.toString());
      committer.setupJob(job);
      this.files = new FileBatchWrite(job, description, committer);
    } catch (IOException e) {
      throw new UncheckedIOException(String.format("Cannot write table %s at %s: %s", spec.table(),
          spec.location(), e.getMessage()), e);
    }
  }

  private WriteJobDescription description(SparkSession spark, Spec spec, Job job, FileFormat format,
      StructType dataSchema, String output) {
    List<String> keys = spec.partitionColumns();
    List<Attribute> all = new ArrayList<>(Scala.javaList(DataTypeUtils.toAttributes(spec.schema())));
    List<Attribute> data = all.stream().filter(a -> !keys.contains(a.name())).toList();
    List<Attribute> partitionAttributes = new ArrayList<>(); // in the directories' order
    for (String key : keys) {
      all.stream().filter(a -> a.name().equals(key)).findFirst().ifPresent(partitionAttributes::add);
    }
    OutputWriterFactory writers;
    try {
      writers = format.prepareWrite(spark, job, SparkCompat.scalaMap(spec.options()), dataSchema);
    } catch (IllegalArgumentException e) { // an option the writer refuses, e.g. a codec
      throw new IllegalArgumentException(String.format("Table %s: Spark's %s writer refuses its options: %s. "
          + "Nothing was written.", spec.table(), spec.format(), e.getMessage()), e);
    }
    Map<scala.collection.immutable.Map<String, String>, String> custom = new java.util.LinkedHashMap<>();
    spec.partitionLocations().forEach((values, location) -> custom.put(SparkCompat.scalaMap(values), location));
    SQLConf sql = spark.sessionState().conf();
    String maxRecords = spec.options().get("maxRecordsPerFile");
    scala.Option<WriterBucketSpec> bucketing = spec.bucketSpec().isEmpty() ? scala.Option.<WriterBucketSpec>empty()
        : scala.Option.apply(writerBucketSpec(spec.table(), spec.bucketSpec().get(), data));
    return new WriteJobDescription(jobId, new SerializableConfiguration(job.getConfiguration()), writers,
        Scala.list(all), Scala.list(data), Scala.list(partitionAttributes), bucketing, output,
        SparkCompat.scalaMap(custom), maxRecords == null ? sql.maxRecordsPerFile() : Long.parseLong(maxRecords.trim()),
        sql.sessionLocalTimeZone(), Scala.list());
  }

  /**
   * The bucket id of a row as Spark's own file writer computes it for a Spark bucketed table (FileFormatWriter): the
   * shuffle partition id of Spark's hash partitioning by the bucket columns, so that joins of bucketed tables need no
   * shuffle; no prefix in the file names (that is Hive's bucketing, which Spark writes only when asked).
   */
  private static WriterBucketSpec writerBucketSpec(String table, BucketSpec bucketSpec, List<Attribute> data) {
    List<Expression> columns = new ArrayList<>();
    for (String column : Scala.javaList(bucketSpec.bucketColumnNames())) {
      columns.add(data.stream().filter(a -> a.name().equals(column)).findFirst().orElseThrow(
          () -> new IllegalArgumentException(String.format("Table %s: its bucket column %s is not among the data "
              + "columns written. Nothing was written.", table, column))));
    }
    return new WriterBucketSpec(new HashPartitioning(Scala.list(columns), bucketSpec.numBuckets())
        .partitionIdExpression(), new NoBucketPrefix());
  }

  /** Spark's {@code (_: Int) => ""}, serializable: the job's description goes to the executors. */
  private static final class NoBucketPrefix extends scala.runtime.AbstractFunction1<Object, String>
      implements java.io.Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public String apply(Object bucketId) {
      return "";
    }
  }

  /** The job's id, which Spark's writers put in the name of every file they write. */
  public String jobId() {
    return jobId;
  }

  /** The Hadoop settings of the job: the session's with the write's options. */
  public Configuration conf() {
    return conf;
  }

  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return files.createBatchWriterFactory(info);
  }

  public boolean useCommitCoordinator() {
    return files.useCommitCoordinator();
  }

  public void abort(WriterCommitMessage[] messages) {
    files.abort(messages);
  }

  /**
   * Commits the job: from here on the new files are the table's (and a replacing job's partitions replaced).
   * Returns the partition directories written, as {@code k1=v1/k2=v2} fragments, in one order whatever the
   * tasks' order.
   */
  public SortedSet<String> commit(WriterCommitMessage[] messages) {
    files.commit(messages);
    SortedSet<String> written = new TreeSet<>();
    for (WriterCommitMessage m : messages) {
      if (m instanceof WriteTaskResult result) {
        written.addAll(Scala.javaSet(result.summary().updatedPartitions()));
      }
    }
    return written;
  }

  /** The writer of {@code table}'s files, or a refusal naming the table (and the artifact, when one is missing). */
  static FileFormat fileFormat(String table, String format, ClassLoader loader) {
    switch (format) {
      case "parquet":
        return new org.apache.spark.sql.execution.datasources.parquet.ParquetFileFormat();
      case "orc":
        return new org.apache.spark.sql.execution.datasources.orc.OrcFileFormat();
      case "csv":
        return new org.apache.spark.sql.execution.datasources.csv.CSVFileFormat();
      case "avro":
        try { // spark-avro is the session's, not gluecat's
          return (FileFormat) Class.forName("org.apache.spark.sql.avro.AvroFileFormat", true, loader)
              .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException | LinkageError e) {
          throw new IllegalStateException(String.format("Table %s: writing its avro files needs Spark's avro source "
              + "on the classpath (org.apache.spark:spark-avro_<scala> of the running Spark release, e.g. with "
              + "--packages). Nothing was written.", table), e);
        }
      default:
        throw new UnsupportedOperationException(String.format("Table %s: gluecat does not write %s files. Nothing "
            + "was written.", table, format));
    }
  }
}
