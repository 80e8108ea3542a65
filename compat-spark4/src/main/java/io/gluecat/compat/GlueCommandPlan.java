package io.gluecat.compat;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.Command;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.execution.command.LeafRunnableCommand;

/**
 * A command plan written in Java: what Scala generates for a {@code case class ... extends LeafRunnableCommand},
 * written out. The collection types of the Scala traits differ between Scala 2.12 and 2.13, so compat-spark35 has
 * its own copy and the Scala 2.13 lines share this one (compat-spark4/); subclasses (io.gluecat.extensions) see only {@link #execute}. A command of this kind has no
 * children and no expressions, so Spark never copies it.
 */
public abstract class GlueCommandPlan extends NoFieldsPlan implements LeafRunnableCommand {
  private scala.collection.immutable.Seq<scala.Enumeration.Value> nodePatterns;

  /** The statement's result columns, fixed when Spark analyses the statement. */
  private final List<Attribute> columns;

  protected GlueCommandPlan(List<Attribute> columns) {
    Command.$init$(this);
    this.columns = List.copyOf(columns);
  }

  /** The statement's result columns, as given at construction. */
  protected final List<Attribute> columns() {
    return columns;
  }

  /** Runs the command; its rows are the statement's result. Spark's AnalysisExceptions reach the user as they are. */
  protected abstract List<Row> execute(SparkSession spark) throws Exception;


  @Override
  public final scala.collection.immutable.Seq<Row> run(SparkSession spark) {
    try {
      return Scala.list(execute(spark));
    } catch (Exception e) {
      throw Scala.rethrow(e);
    }
  }

  @Override
  public final scala.collection.immutable.Seq<Attribute> output() {
    return Scala.list(columns);
  }

  @Override
  public final scala.collection.immutable.Seq<LogicalPlan> children() {
    return Scala.list(List.of());
  }

  @Override
  public final LogicalPlan withNewChildrenInternal(scala.collection.immutable.IndexedSeq<LogicalPlan> children) {
    return this;
  }

  @Override
  public final void org$apache$spark$sql$catalyst$plans$logical$Command$_setter_$nodePatterns_$eq(
      scala.collection.immutable.Seq<scala.Enumeration.Value> value) {
    nodePatterns = value;
  }

  @Override
  public final scala.collection.immutable.Seq<scala.Enumeration.Value> nodePatterns() {
    return nodePatterns;
  }
}
