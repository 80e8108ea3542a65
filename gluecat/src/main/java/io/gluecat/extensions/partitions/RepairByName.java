package io.gluecat.extensions.partitions;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.partitions.PartitionSync;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.errors.QueryCompilationErrors;

/**
 * RECOVER PARTITIONS / MSCK REPAIR TABLE of a gluecat file source table, as Spark's catalog runs it: the
 * {@code key=value} directories under the table's location that Glue has no partition object for are added, and
 * (with {@code DROP} or {@code SYNC PARTITIONS}) the objects whose location is gone are deleted
 * ({@link PartitionSync#repair}).
 */
final class RepairByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final boolean add;
  private final boolean drop;
  private final String command;

  RepairByName(GlueTarget target, boolean add, boolean drop, String command) {
    super(List.of()); // no rows, as Spark's RepairTableCommand
    this.target = target;
    this.add = add;
    this.drop = drop;
    this.command = command;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    TableName name = target.catalog().tableName(target.ident());
    StoredTable entry = target.catalog().parts().glue().getStoredTable(name);
    if (!entry.isPartitioned()) {
      throw (Exception) QueryCompilationErrors.cmdOnlyWorksOnPartitionedTablesError(command, target.qualified());
    }
    String reason = PartitionSync.notApplicable(entry);
    if (reason != null) {
      throw new UnsupportedOperationException(String.format("%s %s: gluecat keeps no Glue partition objects for this "
          + "table, which is %s; Spark reads its partitions from its directories, so there is nothing to repair.",
          command, target.qualified(), reason));
    }
    target.catalog().partitionSync().repair(name, entry, add, drop);
    spark.catalog().refreshTable(target.qualified());
    return List.of();
  }

  @Override
  public String simpleString(int maxFields) {
    return "RepairByName " + target.qualified() + (add ? " add" : "") + (drop ? " drop" : "");
  }
}
