package io.gluecat.files;

import io.gluecat.compat.SparkCompat;
import io.gluecat.entry.Bucketing;
import io.gluecat.entry.GlueEntry;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.SupportsTruncate;
import org.apache.spark.sql.connector.write.V1Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.InsertableRelation;
import org.apache.spark.sql.types.StructType;

/**
 * An existing file source table as DataFrameWriter's {@code saveAsTable} and {@code insertInto} write it
 * (see {@link WriterCall}): the rows go to the table's location through Spark's own file source, the way
 * Spark's V1 path writes them, and the Glue entry stays as it is (partitions live in the file system).
 *
 * <p>For {@code insertInto} the table shows no partitioning, so that Spark asks for an overwrite rather
 * than its dynamic-partition write (which only true V2 writers can do); the file source then applies
 * {@code spark.sql.sources.partitionOverwriteMode} itself, exactly as V1 {@code insertInto} does.
 */
public final class FileWriteTable implements SupportsWrite {
  private final String name;
  private final GlueEntry entry;
  private final WriterCall call;
  private final CatalogHadoopConf hadoop;
  private final Runnable afterWrite;

  public FileWriteTable(String name, GlueEntry entry, WriterCall call, CatalogHadoopConf hadoop, Runnable afterWrite) {
    this.name = name;
    this.entry = entry;
    this.call = call;
    this.hadoop = hadoop;
    this.afterWrite = afterWrite;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  @SuppressWarnings("deprecation") // Table.schema() is what both Spark lines read for writes
  public StructType schema() {
    return entry.schema();
  }

  @Override
  public Transform[] partitioning() {
    if (call == WriterCall.INSERT_INTO) {
      return new Transform[0];
    }
    // saveAsTable compares these with the writer's partitionBy and bucketBy, as V1 compares them with the table's
    return java.util.stream.Stream.concat(entry.partitionColumns().stream().map(Expressions::identity),
        entry.bucketing().map(Bucketing::transform).stream()).toArray(Transform[]::new);
  }

  @Override
  public Map<String, String> properties() {
    return entry.properties();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.V1_BATCH_WRITE, TableCapability.TRUNCATE);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    hadoop.open(name, entry.location());
    return new Builder(entry.provider(), entry.location(), entry.partitionColumns(), entry.bucketing(),
        hadoop.writeOptions(name, entry.storageProperties(), info.options().asCaseSensitiveMap()), afterWrite);
  }

  /**
   * The write of a file source table's rows, for appends and for overwrites (Spark asks for a truncate
   * when it overwrites, and for CTAS and RTAS into a staged table).
   */
  static final class Builder implements SupportsTruncate {
    private final String provider;
    private final String location;
    private final List<String> partitionColumns;
    private final Optional<Bucketing> bucketing;
    private final Map<String, String> options;
    private final Runnable afterWrite;
    private boolean truncate;

    Builder(String provider, String location, List<String> partitionColumns, Optional<Bucketing> bucketing,
        Map<String, String> options, Runnable afterWrite) {
      this.provider = provider;
      this.location = location;
      this.partitionColumns = partitionColumns;
      this.bucketing = bucketing;
      this.options = options;
      this.afterWrite = afterWrite;
    }

    @Override
    public WriteBuilder truncate() {
      truncate = true;
      return this;
    }

    @Override
    public V1Write build() {
      return () -> (InsertableRelation) (data, overwrite) -> {
        writeFiles(provider, location, partitionColumns, bucketing, options, data,
            truncate || overwrite ? SaveMode.Overwrite : SaveMode.Append);
        afterWrite.run();
      };
    }
  }

  /**
   * Writes rows at a file source table's location with Spark's own file source. An overwrite of a partitioned table replaces only
   * the partitions written when {@code partitionOverwriteMode} is dynamic, and everything otherwise.
   */
  private static void writeFiles(String provider, String location, List<String> partitionColumns,
      Optional<Bucketing> bucketing, Map<String, String> options, Dataset<Row> data, SaveMode mode) {
    // the location is the table's (a saveAsTable's option("path") became it): a path option beside it would make
    // Spark refuse the save ("There is a 'path' option set and save() is called with a path parameter")
    Map<String, String> withoutPath = new java.util.LinkedHashMap<>(options);
    withoutPath.keySet().removeIf(key -> key.equalsIgnoreCase("path"));
    if (bucketing.isPresent()) { // save refuses a bucketing: the same write, given the table's bucket spec
      SparkCompat.writeBucketed(data, provider, location, partitionColumns, bucketing.get().toSpark(), withoutPath,
          mode);
      return;
    }
    data.write()
        .format(provider)
        .options(withoutPath)
        .partitionBy(partitionColumns.toArray(new String[0]))
        .mode(mode)
        .save(location);
  }
}
