package io.gluecat.catalog;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.Identifier;

/** A table name that a gluecat catalog serves: the catalog and the identifier within it. */
public record GlueTarget(AbstractGlueCatalog catalog, Identifier ident) {
  public static final String SESSION_CATALOG = "spark_catalog";

  /** Whether the catalog is the session catalog (session mode), where Spark's v1 commands look up names. */
  public boolean inSessionCatalog() {
    return catalog.name().equalsIgnoreCase(SESSION_CATALOG);
  }

  /** The name as users write it, for messages. */
  public String qualified() {
    return catalog.name() + "." + String.join(".", ident.namespace()) + "." + ident.name();
  }

  /** The table a resolved statement names, when a gluecat catalog serves it and it is a {@code kind}. */
  public static Optional<GlueTarget> of(org.apache.spark.sql.catalyst.plans.logical.LogicalPlan resolved,
      Class<?> kind) {
    if (resolved instanceof org.apache.spark.sql.catalyst.analysis.ResolvedTable table
        && table.catalog() instanceof AbstractGlueCatalog catalog && kind.isInstance(table.table())) {
      return Optional.of(new GlueTarget(catalog, table.identifier()));
    }
    return Optional.empty();
  }

  public static Optional<GlueTarget> of(SparkSession spark, TableIdentifier table) {
    return of(spark, table.nameParts());
  }

  /**
   * Resolves a multi-part name as Spark does (a first part naming a catalog picks it, otherwise the current
   * catalog and namespace); empty unless a gluecat catalog serves it. Path names (delta.`/p`) are Delta's.
   */
  public static Optional<GlueTarget> of(SparkSession spark, List<String> parts) {
    CatalogManager manager = spark.sessionState().catalogManager();
    CatalogPlugin catalog;
    List<String> rest;
    if (parts.size() > 1 && (manager.isCatalogRegistered(parts.get(0))
        || parts.get(0).equalsIgnoreCase(SESSION_CATALOG))) {
      catalog = manager.catalog(parts.get(0));
      rest = parts.subList(1, parts.size());
    } else {
      catalog = manager.currentCatalog();
      rest = parts;
    }
    if (!(catalog instanceof AbstractGlueCatalog) || rest.isEmpty()) {
      return Optional.empty();
    }
    String[] namespace = rest.size() == 1 ? manager.currentNamespace()
        : rest.subList(0, rest.size() - 1).toArray(new String[0]);
    Identifier ident = Identifier.of(namespace, rest.get(rest.size() - 1));
    if (CatalogNames.isPathIdentifier(ident)) {
      return Optional.empty();
    }
    return Optional.of(new GlueTarget((AbstractGlueCatalog) catalog, ident));
  }

  public static Optional<GlueTarget> of(SparkSession spark, scala.collection.Seq<String> parts) {
    return of(spark, io.gluecat.compat.Scala.javaList(parts));
  }
}
