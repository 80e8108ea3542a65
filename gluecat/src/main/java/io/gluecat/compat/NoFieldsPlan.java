package io.gluecat.compat;

import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * The part of a plan written in Java that Scala's {@code Product} asks of it and that no Spark or Scala line
 * changes: such a plan has no fields (none that Spark should copy or compare), so it equals only itself. Each
 * line's {@code GlueCommandPlan} (whose Scala collection types differ between 2.12 and 2.13) builds on it.
 */
public abstract class NoFieldsPlan extends LogicalPlan {

  @Override
  public int productArity() {
    return 0;
  }

  @Override
  public Object productElement(int n) {
    throw new IndexOutOfBoundsException(Integer.toString(n));
  }

  @Override
  public boolean canEqual(Object that) {
    return that == this;
  }
}
