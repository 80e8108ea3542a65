package io.gluecat.extensions.describe;

import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.compat.Scala;
import io.gluecat.extensions.views.ViewDetails;
import io.gluecat.files.FileTable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.catalog.CatalogTablePartition;
import org.apache.spark.sql.catalyst.expressions.Attribute;

/**
 * {@code SHOW TABLE EXTENDED} of gluecat file source tables: a row per table (namespace, name, not temporary, its
 * text), the text as Spark's V1 command writes it for a table of its own catalog, one {@code key: value} line per
 * detail of the table's CatalogTable as DESCRIBE EXTENDED shows it ({@link FileTable#describedTable}), with
 * {@code Partition Provider: Catalog} where Glue keeps the table's partitions, as {@link DescribeTableByName}.
 * With a partition (of a table whose partitions Glue keeps), the one row's text is the partition's, as Spark
 * renders a CatalogTablePartition; a partition Glue does not hold is refused with Spark's catalog's error.
 */
final class ShowTablesExtendedByName extends GlueCommandPlan {
  private final String namespace;
  private final List<FileTable> tables;
  /** The Glue views shown beside the tables, as gluecat loads them (GlueViews.v1View). */
  private final List<CatalogTable> views;

  /** The partition shown (of the one table, each partition column to its value), or null. */
  private final Map<String, String> partition;

  ShowTablesExtendedByName(String namespace, List<FileTable> tables, List<CatalogTable> views,
      List<Attribute> output) {
    this(namespace, tables, views, output, null);
  }

  ShowTablesExtendedByName(String namespace, List<FileTable> tables, List<Attribute> output,
      Map<String, String> partition) {
    this(namespace, tables, List.of(), output, partition);
  }

  private ShowTablesExtendedByName(String namespace, List<FileTable> tables, List<CatalogTable> views,
      List<Attribute> output, Map<String, String> partition) {
    super(output);
    this.namespace = namespace;
    this.tables = List.copyOf(tables);
    this.views = List.copyOf(views);
    this.partition = partition;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    List<Row> rows = new ArrayList<>();
    for (FileTable file : tables) {
      CatalogTable table = file.describedTable();
      if (partition != null) {
        CatalogTablePartition shown = DescribeTableByName.find(file, table, partition);
        StringBuilder text = new StringBuilder();
        Scala.javaMap(shown.toLinkedHashMap()).forEach((k, v) -> text.append(k).append(": ").append(v).append('\n'));
        rows.add(RowFactory.create(namespace, table.identifier().table(), false, text.toString()));
        continue;
      }
      boolean provider = file.partitionProviderIsCatalog();
      StringBuilder text = new StringBuilder();
      for (Map.Entry<String, String> detail : Scala.javaMap(table.toLinkedHashMap()).entrySet()) {
        if (provider && detail.getKey().equals("Partition Columns")) {
          text.append("Partition Provider: Catalog\n");
        }
        text.append(detail.getKey()).append(": ").append(detail.getValue()).append('\n');
      }
      rows.add(RowFactory.create(namespace, table.identifier().table(), false, text.toString()));
    }
    for (CatalogTable view : views) {
      StringBuilder text = new StringBuilder();
      ViewDetails.of(view).forEach((k, v) -> text.append(k).append(": ").append(v).append('\n'));
      rows.add(RowFactory.create(namespace, view.identifier().table(), false, text.toString()));
    }
    rows.sort(Comparator.comparing(row -> row.getString(1))); // by name, as Spark's catalog lists them
    return rows;
  }

  @Override
  public String simpleString(int maxFields) {
    return "ShowTablesExtendedByName " + namespace + " " + tables.size() + " tables " + views.size() + " views"
        + (partition == null ? "" : " " + partition);
  }
}
