package io.gluecat.compat;

import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * A {@code SHOW TABLE EXTENDED [IN ns] LIKE 'pattern'} without a partition, as every line's {@code SparkCompat}
 * reads it from its plan ({@code ShowTableExtended} in Spark 3.5, {@code ShowTablesExtended} in Spark 4): the
 * namespace's plan, the pattern and the statement's output.
 */
public record ShownTables(LogicalPlan namespace, String pattern, List<Attribute> output) {}
