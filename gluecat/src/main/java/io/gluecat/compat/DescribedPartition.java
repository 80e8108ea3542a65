package io.gluecat.compat;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * A {@code DESCRIBE [EXTENDED] t PARTITION (..)} as every line's {@code SparkCompat} reads it from its plan (a
 * {@code DescribeRelation} with a spec up to Spark 4.1, a plan of its own in 4.2): the table's relation, the spec
 * (column to value as written; a resolved spec's values as text), whether EXTENDED, and the statement's output.
 */
public record DescribedPartition(LogicalPlan relation, Map<String, String> spec, boolean extended,
    List<Attribute> output) {}
