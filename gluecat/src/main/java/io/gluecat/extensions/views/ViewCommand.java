package io.gluecat.extensions.views;

import io.gluecat.compat.GlueCommandPlan;
import java.util.List;
import org.apache.spark.sql.catalyst.expressions.Attribute;

/** A command of the extension on one gluecat view name; it returns no rows unless it says otherwise. */
abstract class ViewCommand extends GlueCommandPlan {
  protected final GlueView view;

  /** A view statement without result rows. */
  ViewCommand(GlueView view) {
    this(view, List.of());
  }

  ViewCommand(GlueView view, List<Attribute> columns) {
    super(columns);
    this.view = view;
  }

  @Override
  public String simpleString(int maxFields) {
    return getClass().getSimpleName() + " " + view.qualified();
  }
}
