package io.gluecat.partitions;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.apache.spark.sql.sources.AlwaysTrue;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.IsNull;

/**
 * The static partition values of an {@code INSERT OVERWRITE}, as Spark hands them to a V2 write's
 * {@code overwrite(Filter[])}: equality (or null-safe equality, or IS NULL) on partition columns, AND-ed. Both
 * writes that replace whole partitions (file source tables' and Hive-format tables') read them here.
 */
public final class StaticPartitions {
  private StaticPartitions() {}

  /**
   * Whether a partition (its values by column, unescaped as in its directory name) is selected by
   * {@code filter}; an empty spec checks the filter only. A filter on anything but {@code partitionColumns}
   * gets {@code refusal}'s exception, thrown while the statement is planned, before anything is written.
   */
  public static boolean selects(Filter filter, Map<String, String> spec, List<String> partitionColumns,
      Function<Filter, RuntimeException> refusal) {
    if (filter instanceof AlwaysTrue) {
      return true;
    }
    if (filter instanceof And and) {
      return selects(and.left(), spec, partitionColumns, refusal)
          && selects(and.right(), spec, partitionColumns, refusal);
    }
    String key = null;
    Object value = null;
    if (filter instanceof EqualTo eq) {
      key = eq.attribute();
      value = eq.value();
    } else if (filter instanceof EqualNullSafe eq) {
      key = eq.attribute();
      value = eq.value();
    } else if (filter instanceof IsNull isNull) {
      key = isNull.attribute();
    }
    if (key == null || !partitionColumns.contains(key)) {
      throw refusal.apply(filter);
    }
    return spec.isEmpty() || directoryValue(value).equals(spec.get(key));
  }

  /**
   * The static partition values of an overwrite's filters (checked by {@link #selects} while planning), by column,
   * as the partitions' directories and Glue hold them: what a lookup of the selected partitions asks Glue for
   * ({@code glue.PartitionExpressions}). Empty when the filters select every partition ({@code AlwaysTrue}, or none).
   */
  public static Map<String, String> values(Filter[] filters) {
    Map<String, String> values = new java.util.LinkedHashMap<>();
    for (Filter f : filters) {
      collect(f, values);
    }
    return values;
  }

  private static void collect(Filter filter, Map<String, String> values) {
    if (filter instanceof And and) {
      collect(and.left(), values);
      collect(and.right(), values);
    } else if (filter instanceof EqualTo eq) {
      values.put(eq.attribute(), directoryValue(eq.value()));
    } else if (filter instanceof EqualNullSafe eq) {
      values.put(eq.attribute(), directoryValue(eq.value()));
    } else if (filter instanceof IsNull isNull) {
      values.put(isNull.attribute(), directoryValue(null));
    }
  }

  /** A static partition value as Spark's file writer (and Hive) writes it in a directory name, before escaping. */
  private static String directoryValue(Object value) {
    if (value == null) {
      return ExternalCatalogUtils.DEFAULT_PARTITION_NAME();
    }
    if (value instanceof java.math.BigDecimal d) {
      return d.toPlainString();
    }
    return String.valueOf(value);
  }
}
