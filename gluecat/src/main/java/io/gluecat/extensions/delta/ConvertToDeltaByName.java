package io.gluecat.extensions.delta;

import io.gluecat.catalog.GlueTarget;

import io.gluecat.compat.GlueCommandPlan;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.delta.commands.ConvertToDeltaCommand;
import org.apache.spark.sql.types.StructType;

/**
 * CONVERT TO DELTA of a gluecat table, in either catalog mode. Delta's command looks a name up in Spark's built-in
 * catalog; this one converts the files at the entry's location and turns the entry into a Delta entry.
 */
final class ConvertToDeltaByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final Optional<StructType> partitions;
  private final boolean collectStats;

  ConvertToDeltaByName(GlueTarget target, ConvertToDeltaCommand statement) {
    super(List.of());
    this.target = target;
    this.partitions = Optional.ofNullable(statement.partitionSchema().getOrElse(() -> null));
    this.collectStats = statement.collectStats();
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    target.catalog().convertToDelta(target.ident(), partitions, collectStats);
    return List.of();
  }

  @Override
  public String simpleString(int maxFields) {
    return "ConvertToDeltaByName " + target.qualified();
  }
}
