package io.gluecat.compat;

import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.execution.datasources.InMemoryFileIndex;
import org.apache.spark.sql.execution.datasources.NoopCache$;
import org.apache.spark.sql.execution.datasources.PartitionDirectory;
import org.apache.spark.sql.execution.datasources.PartitionPath;
import org.apache.spark.sql.execution.datasources.PartitionSpec;
import org.apache.spark.sql.types.StructType;

/**
 * A file index whose partitions are chosen when a scan lists its files, from the scan's partition filters:
 * it lists nothing itself, and {@link #selected} gives the index of the chosen partitions. Only the
 * {@code Seq} types of these overrides differ between the Spark lines (Scala 2.12 and 2.13): compat-spark35 has its
 * own copy, the Scala 2.13 lines share this one (compat-spark4/).
 */
public abstract class PrunedFileIndex extends InMemoryFileIndex {
  protected PrunedFileIndex(SparkSession spark, java.util.Map<String, String> options, StructType partitionSchema) {
    super(spark, Scala.<org.apache.hadoop.fs.Path>list(List.of()), SparkCompat.scalaMap(options),
        scala.Option.apply(partitionSchema), NoopCache$.MODULE$,
        scala.Option.apply(new PartitionSpec(partitionSchema, Scala.<PartitionPath>list(List.of()))),
        scala.Option.empty());
  }

  /** The index of the partitions that {@code partitionFilters} may match. */
  protected abstract InMemoryFileIndex selected(List<Expression> partitionFilters);

  @Override
  public scala.collection.immutable.Seq<PartitionDirectory> listFiles(scala.collection.immutable.Seq<Expression> partitionFilters,
      scala.collection.immutable.Seq<Expression> dataFilters) {
    return selected(Scala.javaList(partitionFilters)).listFiles(partitionFilters, dataFilters);
  }

  @Override
  public scala.collection.immutable.Seq<FileStatus> allFiles() {
    return selected(List.of()).allFiles();
  }
}
