package io.gluecat.compat;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * A {@code SHOW TABLE EXTENDED [IN ns] LIKE 't' PARTITION (..)} as every line's {@code SparkCompat} reads it: the
 * table's plan (Spark 4's ShowTablePartition resolves it) or, in Spark 3.5, the namespace's plan with the table's
 * name as {@code table}; the spec (column to value as written; a resolved spec's values as text); the output.
 */
public record ShownPartition(LogicalPlan relation, String table, Map<String, String> spec, List<Attribute> output) {}
