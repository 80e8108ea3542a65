package io.gluecat.extensions.describe;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.compat.Scala;
import io.gluecat.files.FileTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.catalyst.util.ResolveDefaultColumns;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Tuple3;

/**
 * {@code DESCRIBE [EXTENDED] t} of a gluecat file source table: the rows Spark's V1 {@code DescribeTableCommand}
 * gives for a table of its own catalog, from the table's CatalogTable ({@link FileTable#describedTable}, without
 * the catalog's own settings). The columns with their declared CHAR/VARCHAR types, the partition columns under
 * {@code # Partition Information}, under EXTENDED {@code # Detailed Table Information} as Spark renders the
 * CatalogTable ({@code toLinkedHashMap}, less the schema and partition columns listed above), then the column
 * defaults ({@code # Column Default Values}) as Spark lists them. {@code Partition Provider: Catalog} where
 * Glue keeps the table's partitions (partitioned parquet, orc and avro tables: PartitionSync).
 */
final class DescribeTableByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final boolean extended;
  private final List<Attribute> output;

  DescribeTableByName(GlueTarget target, boolean extended, List<Attribute> output) {
    this.target = target;
    this.extended = extended;
    this.output = output;
  }

  @Override
  protected List<Attribute> columns() {
    return output;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    FileTable file = (FileTable) target.catalog().loadTable(target.ident());
    CatalogTable table = file.describedTable();
    StructType schema = CharVarcharUtils.getRawSchema(table.schema());
    List<Row> rows = new ArrayList<>();
    describeSchema(Arrays.asList(schema.fields()), rows);
    int partitions = table.partitionColumnNames().size();
    if (partitions > 0) {
      rows.add(RowFactory.create("# Partition Information", "", ""));
      rows.add(RowFactory.create("# " + output.get(0).name(), output.get(1).name(), output.get(2).name()));
      List<StructField> fields = Arrays.asList(schema.fields());
      describeSchema(fields.subList(fields.size() - partitions, fields.size()), rows);
    }
    if (extended) {
      rows.add(RowFactory.create("", "", ""));
      rows.add(RowFactory.create("# Detailed Table Information", "", ""));
      Scala.javaMap(table.toLinkedHashMap()).forEach((k, v) -> {
        if (!k.equals("Partition Columns") && !k.equals("Schema")) {
          rows.add(RowFactory.create(k, v, ""));
        }
      });
      // Spark reads gluecat's table through its CatalogTable, which must not send it to Spark's own catalog for
      // the partitions (tracksPartitionsInCatalog is false); where Glue keeps them, the row Spark would print then,
      // last of the rows above
      if (!table.tracksPartitionsInCatalog() && partitions > 0 && file.partitionCommands().inGlue()) {
        rows.add(RowFactory.create("Partition Provider", "Catalog", ""));
      }
    }
    scala.collection.Seq<Tuple3<String, String, String>> defaults = ResolveDefaultColumns.getDescribeMetadata(schema);
    for (Tuple3<String, String, String> row : Scala.javaList(defaults)) {
      rows.add(RowFactory.create(row._1(), row._2(), row._3()));
    }
    return rows;
  }

  /** A row per column: name, type as Spark's V1 command prints it, comment. */
  private static void describeSchema(List<StructField> fields, List<Row> rows) {
    for (StructField f : fields) {
      rows.add(RowFactory.create(f.name(), f.dataType().simpleString(),
          f.getComment().isDefined() ? f.getComment().get() : null));
    }
  }

  @Override
  public String simpleString(int maxFields) {
    return "DescribeTableByName " + target.qualified() + (extended ? " extended" : "");
  }
}
