package io.gluecat.writes;

import io.gluecat.compat.Scala;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.catalog.BucketSpec;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.Write;

/**
 * The write Spark runs for a table's files: rows sorted by the partition columns, as Spark's V1 file writer sorts
 * them, because its partitioned writer closes a partition's file when the next row is of another partition.
 *
 * <p>A bucketed table's rows are first clustered by the bucket columns into as many tasks as it has buckets: Spark's
 * hash partitioning into n parts is the bucket id Spark's writer computes, so each task writes one bucket, and its
 * rows need only be sorted by the partition columns, then the sort columns (a bucket's file is sorted by them, as
 * Spark's V1 insert sorts it). Without that, Spark's writer would reopen a bucket's file under the same name.
 */
public final class PartitionSortedWrite implements Write, RequiresDistributionAndOrdering {
  private final String description;
  private final List<String> partitionColumns;
  private final Optional<BucketSpec> bucketSpec;
  private final Supplier<BatchWrite> batch;

  public PartitionSortedWrite(String description, List<String> partitionColumns, Supplier<BatchWrite> batch) {
    this(description, partitionColumns, Optional.empty(), batch);
  }

  public PartitionSortedWrite(String description, List<String> partitionColumns, Optional<BucketSpec> bucketSpec,
      Supplier<BatchWrite> batch) {
    this.description = description;
    this.partitionColumns = partitionColumns;
    this.bucketSpec = bucketSpec;
    this.batch = batch;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public Distribution requiredDistribution() {
    return bucketSpec.isEmpty() ? Distributions.unspecified() : Distributions.clustered(
        Scala.javaList(bucketSpec.get().bucketColumnNames()).stream().map(Expressions::column)
            .toArray(Expression[]::new));
  }

  @Override
  public int requiredNumPartitions() {
    return bucketSpec.map(BucketSpec::numBuckets).orElse(0);
  }

  @Override
  public SortOrder[] requiredOrdering() {
    List<String> columns = new ArrayList<>(partitionColumns);
    bucketSpec.ifPresent(b -> columns.addAll(Scala.javaList(b.sortColumnNames())));
    return columns.stream()
        .map(c -> Expressions.sort(Expressions.column(c), SortDirection.ASCENDING)).toArray(SortOrder[]::new);
  }

  @Override
  public BatchWrite toBatch() {
    return batch.get();
  }
}
