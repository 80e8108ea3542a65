package io.gluecat.extensions.views;


import io.gluecat.compat.GlueCommandPlan;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Attribute;

/** A command of the extension on one gluecat view name; it returns no rows unless it says otherwise. */
abstract class ViewCommand extends GlueCommandPlan {
  protected final GlueView view;

  ViewCommand(GlueView view) {
    this.view = view;
  }

  @Override
  protected List<Attribute> columns() {
    return List.of();
  }

  @Override
  public String simpleString(int maxFields) {
    return getClass().getSimpleName() + " " + view.qualified();
  }
}
