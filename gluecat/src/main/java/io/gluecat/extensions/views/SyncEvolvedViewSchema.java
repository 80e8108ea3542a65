package io.gluecat.extensions.views;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.entry.ViewEntry;
import io.gluecat.entry.ViewFormat;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.View;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.connector.catalog.V1Table;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.Function1;
import scala.runtime.AbstractPartialFunction;

/**
 * The write-back of a gluecat view's evolved schema (Spark 4: {@code WITH SCHEMA EVOLUTION} and
 * {@code TYPE EVOLUTION}). When such a view's query now returns other columns or types, Spark's own check
 * (ViewSyncSchemaToMetaStore) stores the new schema through its built-in catalog, which does not hold gluecat's
 * views, and fails the read. This rule runs first, during analysis: it makes the same decision as Spark, writes
 * the new schema to the view's Glue entry (at the VersionId it read) and hands Spark the view as now stored, so
 * Spark's check finds nothing to update.
 */
public final class SyncEvolvedViewSchema extends Rule<LogicalPlan> {
  private static final String EVOLUTION = "EVOLUTION";
  private static final String TYPE_EVOLUTION = "TYPE EVOLUTION";

  private final SparkSession spark;

  public SyncEvolvedViewSchema(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    return plan.resolveOperatorsUp(new AbstractPartialFunction<LogicalPlan, LogicalPlan>() {
      @Override
      public boolean isDefinedAt(LogicalPlan node) {
        return node instanceof View view && evolving(view) && target(view).isPresent();
      }

      @Override
      @SuppressWarnings("unchecked")
      public <A1 extends LogicalPlan, B1> B1 applyOrElse(A1 node, Function1<A1, B1> otherwise) {
        return isDefinedAt(node) ? (B1) synced((View) node) : otherwise.apply(node);
      }
    });
  }

  /** A persisted view in an evolving mode, its query analysed, whose stored schema no longer matches it. */
  private static boolean evolving(View view) {
    String mode = view.desc().properties().get(ViewFormat.SCHEMA_MODE).getOrElse(() -> "");
    if (view.isTempView() || !view.child().resolved() || !(EVOLUTION.equals(mode) || TYPE_EVOLUTION.equals(mode))) {
      return false;
    }
    return newSchema(view.desc().schema(), view.child().schema(), EVOLUTION.equals(mode)) != null;
  }

  private Optional<GlueView> target(View view) {
    return GlueTarget.of(spark, view.desc().identifier().nameParts()).map(GlueView::of);
  }

  private LogicalPlan synced(View node) {
    GlueView view = target(node).orElseThrow();
    ViewEntry stored = view.views().requireSpark(view.views().find(view.name()).orElseThrow());
    StructType schema = newSchema(node.desc().schema(), node.child().schema(),
        EVOLUTION.equals(stored.schemaMode().orElse("")));
    if (schema == null) { // another session has written it back already
      return node;
    }
    try {
      view.views().replace(stored.toBuilder().schema(CharVarcharUtils.getRawSchema(schema)).build());
    } catch (org.apache.spark.sql.catalyst.analysis.NoSuchTableException e) {
      return node; // dropped meanwhile: Spark's own check then reports it
    }
    CatalogTable now = ((V1Table) view.views().v1View(view.name()).orElseThrow()).v1Table();
    // the same node with the stored view as its first argument (View's other arguments differ between lines)
    Object[] arguments = new Object[node.productArity()];
    for (int i = 0; i < arguments.length; i++) {
      arguments[i] = node.productElement(i);
    }
    arguments[0] = now;
    return node.makeCopy(arguments);
  }

  /**
   * The schema Spark would store for the view, as Spark's ViewSyncSchemaToMetaStore decides it: EVOLUTION takes
   * the query's columns as they are, TYPE EVOLUTION the query's types under the view's names and comments. Null
   * when the stored schema still fits.
   */
  static StructType newSchema(StructType stored, StructType query, boolean evolution) {
    StructField[] viewFields = stored.fields();
    StructField[] queryFields = query.fields();
    boolean redo = evolution && viewFields.length != queryFields.length;
    for (int i = 0; !redo && i < viewFields.length && i < queryFields.length; i++) {
      StructField v = viewFields[i];
      StructField q = queryFields[i];
      redo = !v.dataType().equals(q.dataType()) || v.nullable() != q.nullable()
          || (evolution && (!Objects.equals(v.getComment(), q.getComment()) || !v.name().equals(q.name())));
    }
    if (!redo) {
      return null;
    }
    if (evolution) {
      return query;
    }
    StructType schema = new StructType();
    for (StructField q : queryFields) {
      Metadata metadata = Arrays.stream(viewFields).filter(v -> v.name().equals(q.name())).findFirst()
          .map(StructField::metadata).orElse(q.metadata());
      schema = schema.add(new StructField(q.name(), q.dataType(), q.nullable(), metadata));
    }
    return schema;
  }
}
