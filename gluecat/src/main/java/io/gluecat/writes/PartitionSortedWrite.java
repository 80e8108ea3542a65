package io.gluecat.writes;

import java.util.List;
import java.util.function.Supplier;
import org.apache.spark.sql.connector.distributions.Distribution;
import org.apache.spark.sql.connector.distributions.Distributions;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.SortDirection;
import org.apache.spark.sql.connector.expressions.SortOrder;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.RequiresDistributionAndOrdering;
import org.apache.spark.sql.connector.write.Write;

/**
 * The write Spark runs for a table's files: rows sorted by the partition columns, as Spark's V1 file writer sorts
 * them, because its partitioned writer closes a partition's file when the next row is of another partition.
 */
public final class PartitionSortedWrite implements Write, RequiresDistributionAndOrdering {
  private final String description;
  private final List<String> partitionColumns;
  private final Supplier<BatchWrite> batch;

  public PartitionSortedWrite(String description, List<String> partitionColumns, Supplier<BatchWrite> batch) {
    this.description = description;
    this.partitionColumns = partitionColumns;
    this.batch = batch;
  }

  @Override
  public String description() {
    return description;
  }

  @Override
  public Distribution requiredDistribution() {
    return Distributions.unspecified();
  }

  @Override
  public SortOrder[] requiredOrdering() {
    return partitionColumns.stream()
        .map(c -> Expressions.sort(Expressions.column(c), SortDirection.ASCENDING)).toArray(SortOrder[]::new);
  }

  @Override
  public BatchWrite toBatch() {
    return batch.get();
  }
}
