package io.gluecat.extensions.describe;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.files.FileTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchPartitionException;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.catalog.CatalogTablePartition;
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
 * Glue keeps the table's partitions (partitioned parquet, orc and avro tables: PartitionSync). With a partition
 * (of such a table: Glue's partition objects are its partitions), the V1 command's rows for it: refused as Spark's
 * catalog refuses a partition it does not hold, under EXTENDED {@code # Detailed Partition Information}.
 */
final class DescribeTableByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final boolean extended;
  /** The partition described (each partition column to its value, in the columns' order), or null. */
  private final Map<String, String> partition;

  DescribeTableByName(GlueTarget target, boolean extended, List<Attribute> output) {
    this(target, extended, output, null);
  }

  DescribeTableByName(GlueTarget target, boolean extended, List<Attribute> output, Map<String, String> partition) {
    super(output);
    this.target = target;
    this.extended = extended;
    this.partition = partition;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    FileTable file = (FileTable) target.catalog().loadTable(target.ident());
    CatalogTable table = file.describedTable();
    CatalogTablePartition found = partition == null ? null : find(file, table, partition);
    StructType schema = CharVarcharUtils.getRawSchema(table.schema());
    List<Row> rows = new ArrayList<>();
    describeSchema(Arrays.asList(schema.fields()), rows);
    int partitions = table.partitionColumnNames().size();
    if (partitions > 0) {
      rows.add(RowFactory.create("# Partition Information", "", ""));
      rows.add(RowFactory.create("# " + columns().get(0).name(), columns().get(1).name(), columns().get(2).name()));
      List<StructField> fields = Arrays.asList(schema.fields());
      describeSchema(fields.subList(fields.size() - partitions, fields.size()), rows);
    }
    if (extended && found != null) {
      describePartition(table, found, rows);
    } else if (extended) {
      rows.add(RowFactory.create("", "", ""));
      rows.add(RowFactory.create("# Detailed Table Information", "", ""));
      Scala.javaMap(table.toLinkedHashMap()).forEach((k, v) -> {
        if (!k.equals("Partition Columns") && !k.equals("Schema")) {
          rows.add(RowFactory.create(k, v, ""));
        }
      });
      // last of the rows above, where Spark's catalog would print it
      if (file.partitionProviderIsCatalog()) {
        rows.add(RowFactory.create("Partition Provider", "Catalog", ""));
      }
    }
    scala.collection.Seq<Tuple3<String, String, String>> defaults = ResolveDefaultColumns.getDescribeMetadata(schema);
    for (Tuple3<String, String, String> row : Scala.javaList(defaults)) {
      rows.add(RowFactory.create(row._1(), row._2(), row._3()));
    }
    return rows;
  }

  /**
   * The rows of Spark's V1 command for a partition of its own catalog: the table's database and name, the
   * partition as Spark renders a CatalogTablePartition (its Glue location and creation time, the table's storage
   * properties, as Spark's catalog gives a partition written by an INSERT), then the table's storage.
   */
  private void describePartition(CatalogTable table, CatalogTablePartition found, List<Row> rows) {
    rows.add(RowFactory.create("", "", ""));
    rows.add(RowFactory.create("# Detailed Partition Information", "", ""));
    rows.add(RowFactory.create("Database", table.identifier().database().getOrElse(() -> ""), ""));
    rows.add(RowFactory.create("Table", table.identifier().table(), ""));
    Scala.javaMap(found.toLinkedHashMap()).forEach((k, v) -> rows.add(RowFactory.create(k, v, "")));
    rows.add(RowFactory.create("", "", ""));
    rows.add(RowFactory.create("# Storage Information", "", ""));
    Scala.javaMap(table.storage().toLinkedHashMap()).forEach((k, v) -> rows.add(RowFactory.create(k, v, "")));
  }

  /**
   * The Glue partition of a full spec as Spark's catalog keeps one written by an INSERT (with the table's storage
   * properties), or Spark's catalog's error for a partition it does not hold.
   */
  static CatalogTablePartition find(FileTable file, CatalogTable table, Map<String, String> spec)
      throws NoSuchPartitionException {
    return file.partitionCommands().described(spec, Scala.javaMap(table.storage().properties()))
        .orElseThrow(() -> new NoSuchPartitionException(table.identifier().database().getOrElse(() -> ""),
            table.identifier().table(), SparkCompat.scalaMap(spec)));
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
    return "DescribeTableByName " + target.qualified() + (partition == null ? "" : " " + partition)
        + (extended ? " extended" : "");
  }
}
