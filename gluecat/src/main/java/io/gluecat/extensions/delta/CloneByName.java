package io.gluecat.extensions.delta;

import io.gluecat.catalog.GlueTarget;

import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.delta.DeltaCreates;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.UnresolvedRelation;
import org.apache.spark.sql.catalyst.plans.logical.CloneTableStatement;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.delta.commands.CloneTableCommand$;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * SHALLOW CLONE into a gluecat table where Delta would write Spark's built-in catalog: Delta clones onto the
 * table's location by path, then gluecat writes the entry from the new log, as for a CTAS.
 */
final class CloneByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final CloneTableStatement statement;

  CloneByName(GlueTarget target, CloneTableStatement statement) {
    super(Scala.javaList(CloneTableCommand$.MODULE$.output()));
    this.target = target;
    this.statement = statement;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    if (statement.ifNotExists() && target.catalog().tableExists(target.ident())) {
      return List.of();
    }
    DeltaCreates.Mode mode = statement.isCreateCommand() && statement.isReplaceCommand()
        ? DeltaCreates.Mode.CREATE_OR_REPLACE
        : statement.isReplaceCommand() ? DeltaCreates.Mode.REPLACE : DeltaCreates.Mode.CREATE;
    Map<String, String> properties = new LinkedHashMap<>();
    if (statement.targetLocation().isDefined()) {
      properties.put(TableCatalog.PROP_LOCATION, statement.targetLocation().get());
    }
    properties.put(TableCatalog.PROP_OWNER, spark.sparkContext().sparkUser());
    return target.catalog().writeDeltaByPath(target.ident(), mode, properties, location -> SparkCompat.run(spark,
        new CloneTableStatement(statement.source(),
            new UnresolvedRelation(Scala.list("delta", location), CaseInsensitiveStringMap.empty(), false),
            false, statement.isReplaceCommand(), statement.isCreateCommand(), statement.tablePropertyOverrides(),
            scala.Option.empty())));
  }

  @Override
  public String simpleString(int maxFields) {
    return "CloneByName " + target.qualified();
  }
}
