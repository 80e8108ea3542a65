package io.gluecat.extensions.statistics;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.files.FileTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.catalog.CatalogColumnStat;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.Histogram;
import org.apache.spark.sql.catalyst.plans.logical.HistogramBin;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.types.StructField;

/**
 * {@code DESCRIBE EXTENDED t col} of a gluecat file source table: the rows Spark's own catalog gives (name, type,
 * comment, then the column's stored statistics, each NULL when there is none, and its histogram).
 */
final class DescribeColumnByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final String column;

  DescribeColumnByName(GlueTarget target, String column, List<Attribute> output) {
    super(output);
    this.target = target;
    this.column = column;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    CatalogTable table = ((FileTable) target.catalog().loadTable(target.ident())).v1Table();
    StructField field = Arrays.stream(table.schema().fields()).filter(f -> f.name().equals(column)).findFirst()
        .orElseThrow(() -> new IllegalStateException("no column " + column + " in " + target.qualified()));
    CatalogColumnStat stat = table.stats().isDefined() && table.stats().get().colStats().contains(field.name())
        ? table.stats().get().colStats().apply(field.name()) : null;
    List<Row> rows = new ArrayList<>();
    org.apache.spark.sql.types.DataType type = CharVarcharUtils.getRawType(field.metadata()).isDefined()
        ? CharVarcharUtils.getRawType(field.metadata()).get() : field.dataType();
    rows.add(RowFactory.create("col_name", field.name()));
    rows.add(RowFactory.create("data_type", type.catalogString()));
    rows.add(RowFactory.create("comment", field.getComment().isDefined() ? field.getComment().get() : "NULL"));
    rows.add(RowFactory.create("min", stat == null || stat.min().isEmpty() ? "NULL" : stat.min().get()));
    rows.add(RowFactory.create("max", stat == null || stat.max().isEmpty() ? "NULL" : stat.max().get()));
    rows.add(RowFactory.create("num_nulls", text(stat == null ? scala.Option.empty() : stat.nullCount())));
    rows.add(RowFactory.create("distinct_count", text(stat == null ? scala.Option.empty() : stat.distinctCount())));
    rows.add(RowFactory.create("avg_col_len", text(stat == null ? scala.Option.empty() : stat.avgLen())));
    rows.add(RowFactory.create("max_col_len", text(stat == null ? scala.Option.empty() : stat.maxLen())));
    if (stat == null || stat.histogram().isEmpty()) {
      rows.add(RowFactory.create("histogram", "NULL"));
    } else {
      Histogram histogram = stat.histogram().get();
      HistogramBin[] bins = histogram.bins();
      rows.add(RowFactory.create("histogram", "height: " + histogram.height() + ", num_of_bins: " + bins.length));
      for (int i = 0; i < bins.length; i++) {
        rows.add(RowFactory.create("bin_" + i, "lower_bound: " + bins[i].lo() + ", upper_bound: " + bins[i].hi()
            + ", distinct_count: " + bins[i].ndv()));
      }
    }
    return rows;
  }

  private static String text(scala.Option<?> value) {
    return value.isDefined() ? value.get().toString() : "NULL";
  }

  @Override
  public String simpleString(int maxFields) {
    return "DescribeColumnByName " + target.qualified() + " " + column;
  }
}
