package io.gluecat.extensions.views;

import io.gluecat.catalog.GlueTarget;

import io.gluecat.catalog.AbstractGlueCatalog;
import io.gluecat.compat.Scala;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.PersistedView$;
import org.apache.spark.sql.catalyst.analysis.ResolvedIdentifier;
import org.apache.spark.sql.catalyst.analysis.ResolvedNamespace;
import org.apache.spark.sql.catalyst.analysis.UnresolvedIdentifier;
import org.apache.spark.sql.catalyst.analysis.UnresolvedNamespace;
import org.apache.spark.sql.catalyst.analysis.UnresolvedTableOrView;
import org.apache.spark.sql.catalyst.analysis.UnresolvedView;
import org.apache.spark.sql.catalyst.plans.logical.AlterViewAs;
import org.apache.spark.sql.catalyst.plans.logical.CreateView;
import org.apache.spark.sql.catalyst.plans.logical.DropTable;
import org.apache.spark.sql.catalyst.plans.logical.DropView;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.plans.logical.RenameTable;
import org.apache.spark.sql.catalyst.plans.logical.SetViewProperties;
import org.apache.spark.sql.catalyst.plans.logical.ShowTables;
import org.apache.spark.sql.catalyst.plans.logical.ShowViews;
import org.apache.spark.sql.catalyst.plans.logical.UnsetViewProperties;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.connector.catalog.CatalogPlugin;
import org.apache.spark.sql.connector.catalog.ViewCatalog;
import org.apache.spark.sql.execution.command.AlterTableRenameCommand;
import org.apache.spark.sql.execution.command.AlterTableSetPropertiesCommand;
import org.apache.spark.sql.execution.command.AlterTableUnsetPropertiesCommand;
import org.apache.spark.sql.execution.command.AlterViewAsCommand;
import org.apache.spark.sql.execution.command.CreateViewCommand;
import org.apache.spark.sql.execution.command.DropTableCommand;
import org.apache.spark.sql.execution.command.ShowViewsCommand;
import org.apache.spark.sql.execution.command.DescribeTableCommand;
import org.apache.spark.sql.execution.command.ShowCreateTableAsSerdeCommand;
import org.apache.spark.sql.execution.command.ShowCreateTableCommand;
import org.apache.spark.sql.execution.command.DescribeColumnCommand;
import org.apache.spark.sql.execution.command.ShowTablePropertiesCommand;
import org.apache.spark.sql.catalyst.analysis.ResolvedTable;
import org.apache.spark.sql.catalyst.catalog.CatalogTableType;
import org.apache.spark.sql.catalyst.plans.logical.ShowCreateTable;
import org.apache.spark.sql.connector.catalog.V1Table;

/**
 * View DDL on gluecat names where Spark does not ask the catalog for it (docs/extensions.md, "Views").
 * <ul>
 * <li>Session mode, every line: Spark turns view statements on spark_catalog into its v1 commands, which would run
 *     on its built-in catalog; this rule (an analyzer rule, after Spark's own) replaces them with gluecat's.
 * <li>A named gluecat catalog on Spark 3.5 and 4.1 (4.2 asks the catalog itself): Spark refuses CREATE VIEW, DROP
 *     VIEW and SHOW VIEWS there while resolving names, and ALTER VIEW sees the view as a table, all before any
 *     extension rule runs. So the extension's parser passes each parsed statement through {@link #parsed}, which
 *     replaces those statements (or, for the two with a query, only their name) before analysis.
 * </ul>
 */
public final class RewriteViewCommands extends Rule<LogicalPlan> {
  private static final String CURRENT_NAMESPACE = "org.apache.spark.sql.catalyst.analysis.CurrentNamespace$";
  private final SparkSession spark;

  public RewriteViewCommands(SparkSession spark) {
    this.spark = spark;
  }

  /** The statement Spark parsed, with view statements on a named gluecat catalog of Spark 3.5/4.1 taken over. */
  public static LogicalPlan parsed(SparkSession spark, LogicalPlan plan) {
    if (plan instanceof CreateView create && create.child() instanceof UnresolvedIdentifier id) {
      return named(spark, id.nameParts(), false)
          .<LogicalPlan>map(v -> create.withNewChildren(Scala.list(new PendingViewName(v), create.query())))
          .orElse(plan);
    }
    if (plan instanceof AlterViewAs alter && alter.child() instanceof UnresolvedView name) {
      return named(spark, name.multipartIdentifier(), true)
          .<LogicalPlan>map(v -> alter.withNewChildren(Scala.list(new PendingViewName(v), alter.query())))
          .orElse(plan);
    }
    if (plan instanceof SetViewProperties set && set.child() instanceof UnresolvedView name) {
      return named(spark, name.multipartIdentifier(), true)
          .<LogicalPlan>map(v -> AlterViewPropertiesByName.set(v, Scala.javaMap(set.properties())))
          .orElse(plan);
    }
    if (plan instanceof UnsetViewProperties unset && unset.child() instanceof UnresolvedView name) {
      return named(spark, name.multipartIdentifier(), true)
          .<LogicalPlan>map(v -> AlterViewPropertiesByName.unset(v, Scala.javaList(unset.propertyKeys()),
              unset.ifExists()))
          .orElse(plan);
    }
    if (plan instanceof RenameTable rename && rename.isView()
        && rename.child() instanceof UnresolvedTableOrView name) {
      return named(spark, name.multipartIdentifier(), true)
          .<LogicalPlan>map(v -> new RenameViewByName(v, Scala.javaList(rename.newName())))
          .orElse(plan);
    }
    if (plan instanceof DropView drop && drop.child() instanceof UnresolvedIdentifier id) {
      return named(spark, id.nameParts(), true)
          .<LogicalPlan>map(v -> new DropViewByName(v, drop.ifExists()))
          .orElse(plan);
    }
    if (plan instanceof ShowViews show) {
      return showViews(spark, show).orElse(plan);
    }
    scala.Tuple2<scala.collection.Seq<String>, String> binding = io.gluecat.compat.SparkCompat.viewSchemaBinding(plan);
    if (binding != null && !spark.sessionState().catalog().isTempView(Scala.list(Scala.javaList(binding._1())))) {
      // Spark 4 would look the view up in its built-in catalog (session mode) or as a table (a named catalog)
      return GlueTarget.of(spark, binding._1())
          .filter(t -> t.inSessionCatalog() || !(t.catalog() instanceof ViewCatalog))
          .<LogicalPlan>map(t -> new AlterViewSchemaModeByName(GlueView.of(t), binding._2()))
          .orElse(plan);
    }
    return plan;
  }

  /**
   * For a parsed view statement on a gluecat name that only this extension runs (a named catalog on Spark 3.5
   * and 4.1, session mode on every line), the statement and the name as users write them, e.g. "DROP VIEW
   * glue.db.v"; empty for anything else, a temporary view included.
   */
  public static Optional<String> runOnlyByTheExtension(SparkSession spark, LogicalPlan plan) {
    String statement;
    scala.collection.Seq<String> parts;
    if (plan instanceof CreateView create && create.child() instanceof UnresolvedIdentifier id) {
      statement = "CREATE VIEW";
      parts = id.nameParts();
    } else if (plan instanceof AlterViewAs alter && alter.child() instanceof UnresolvedView name) {
      statement = "ALTER VIEW .. AS";
      parts = name.multipartIdentifier();
    } else if (plan instanceof SetViewProperties set && set.child() instanceof UnresolvedView name) {
      statement = "ALTER VIEW .. SET TBLPROPERTIES";
      parts = name.multipartIdentifier();
    } else if (plan instanceof UnsetViewProperties unset && unset.child() instanceof UnresolvedView name) {
      statement = "ALTER VIEW .. UNSET TBLPROPERTIES";
      parts = name.multipartIdentifier();
    } else if (plan instanceof RenameTable rename && rename.isView()
        && rename.child() instanceof UnresolvedTableOrView name) {
      statement = "ALTER VIEW .. RENAME TO";
      parts = name.multipartIdentifier();
    } else if (plan instanceof DropView drop && drop.child() instanceof UnresolvedIdentifier id) {
      statement = "DROP VIEW";
      parts = id.nameParts();
    } else {
      return Optional.empty();
    }
    if (!(plan instanceof CreateView) && spark.sessionState().catalog().isTempView(Scala.list(Scala.javaList(parts)))) {
      return Optional.empty();
    }
    return GlueTarget.of(spark, parts).filter(t -> t.inSessionCatalog() || !(t.catalog() instanceof ViewCatalog))
        .map(t -> statement + " " + t.qualified());
  }

  /** A name of a named gluecat catalog whose line never asks it for views; a temporary view is Spark's. */
  private static Optional<GlueView> named(SparkSession spark, scala.collection.Seq<String> parts,
      boolean mayBeTemporary) {
    if (mayBeTemporary && spark.sessionState().catalog().isTempView(Scala.list(Scala.javaList(parts)))) {
      return Optional.empty();
    }
    return GlueTarget.of(spark, parts)
        .filter(t -> !t.inSessionCatalog() && !(t.catalog() instanceof ViewCatalog))
        .map(GlueView::of);
  }

  private static Optional<LogicalPlan> showViews(SparkSession spark, ShowViews show) {
    CatalogManager manager = spark.sessionState().catalogManager();
    CatalogPlugin catalog;
    List<String> namespace;
    // no IN clause: Spark 4.1 parses CurrentNamespace (a class 3.5 lacks), 3.5 an empty UnresolvedNamespace
    if (show.namespace().getClass().getName().equals(CURRENT_NAMESPACE)
        || (show.namespace() instanceof UnresolvedNamespace ns && ns.multipartIdentifier().isEmpty())) {
      catalog = manager.currentCatalog();
      namespace = List.of(manager.currentNamespace());
    } else if (show.namespace() instanceof UnresolvedNamespace ns) {
      List<String> parts = Scala.javaList(ns.multipartIdentifier());
      if (parts.size() > 1 && manager.isCatalogRegistered(parts.get(0))) {
        catalog = manager.catalog(parts.get(0));
        namespace = parts.subList(1, parts.size());
      } else {
        catalog = manager.currentCatalog();
        namespace = parts;
      }
    } else {
      return Optional.empty();
    }
    if (!(catalog instanceof AbstractGlueCatalog glue) || catalog instanceof ViewCatalog
        || catalog.name().equalsIgnoreCase(GlueTarget.SESSION_CATALOG)) {
      return Optional.empty();
    }
    if (namespace.size() != 1) {
      throw new IllegalArgumentException(String.format("SHOW VIEWS in gluecat catalog '%s' takes one database "
          + "name (Glue has one level of databases), not '%s'", catalog.name(), String.join(".", namespace)));
    }
    return Optional.of(ShowTablesOrViewsByName.views(glue, namespace.get(0), show.pattern().isDefined()
        ? show.pattern().get() : null, Scala.javaList(show.output())));
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    // named mode: the statements whose name parsed() replaced, once Spark has analysed their query
    if (plan instanceof CreateView create && create.child() instanceof PendingViewName name) {
      return !create.query().resolved() ? plan : new CreateViewByName(name.view(), create.userSpecifiedColumns(),
          create.comment(), create.properties(), create.originalText(), create.query(), create.allowExisting(),
          create.replace(), io.gluecat.compat.SparkCompat.viewSchemaMode(create),
          io.gluecat.compat.SparkCompat.viewCollation(create));
    }
    if (plan instanceof AlterViewAs alter && alter.child() instanceof PendingViewName name) {
      return !alter.query().resolved() ? plan : new AlterViewAsByName(name.view(), alter.originalText(),
          alter.query());
    }
    if (plan instanceof ShowCreateTable show && show.child() instanceof ResolvedTable table
        && table.catalog() instanceof AbstractGlueCatalog catalog && !(catalog instanceof ViewCatalog)
        && table.table() instanceof V1Table v1 && v1.v1Table().tableType() == CatalogTableType.VIEW()) {
      // Spark 3.5 and 4.1 would print a CREATE TABLE of a view loaded from a catalog plugin
      return new ViewMetadataByName(GlueView.of(new GlueTarget(catalog, table.identifier())),
          ViewMetadataByName.Kind.CREATE_STATEMENT, null, Scala.javaList(show.output()));
    }
    if (plan instanceof DropTable drop && drop.child() instanceof ResolvedIdentifier id) {
      refuseDropTableOfView(id);
      return plan;
    }
    return session(plan).orElse(plan);
  }

  /** Session mode: Spark's v1 view commands on spark_catalog, when that is a gluecat catalog. */
  private Optional<LogicalPlan> session(LogicalPlan plan) {
    if (plan instanceof CreateViewCommand create && create.viewType() == PersistedView$.MODULE$) {
      return GlueView.session(spark, create.name()).filter(v -> create.plan().resolved())
          .map(v -> new CreateViewByName(v, create.userSpecifiedColumns(), create.comment(), create.properties(),
              create.originalText(), create.plan(), create.allowExisting(), create.replace(),
              io.gluecat.compat.SparkCompat.viewSchemaMode(create), io.gluecat.compat.SparkCompat.viewCollation(create)));
    }
    if (plan instanceof AlterViewAsCommand alter) {
      return GlueView.session(spark, alter.name()).filter(v -> alter.query().resolved())
          .map(v -> new AlterViewAsByName(v, alter.originalText(), alter.query()));
    }
    if (plan instanceof AlterTableSetPropertiesCommand set && set.isView()) {
      return GlueView.session(spark, set.tableName())
          .map(v -> AlterViewPropertiesByName.set(v, Scala.javaMap(set.properties())));
    }
    if (plan instanceof AlterTableUnsetPropertiesCommand unset && unset.isView()) {
      return GlueView.session(spark, unset.tableName())
          .map(v -> AlterViewPropertiesByName.unset(v, Scala.javaList(unset.propKeys()), unset.ifExists()));
    }
    if (plan instanceof AlterTableRenameCommand rename && rename.isView()) {
      return GlueView.session(spark, rename.oldName()).map(v -> new RenameViewByName(v, parts(rename.newName())));
    }
    if (plan instanceof DropTableCommand drop && drop.isView()) {
      return GlueView.session(spark, drop.tableName()).map(v -> new DropViewByName(v, drop.ifExists()));
    }
    if (plan instanceof DescribeTableCommand describe && describe.partitionSpec().isEmpty()) {
      return sessionView(describe.table()).map(v -> new ViewMetadataByName(v, describe.isExtended()
          ? ViewMetadataByName.Kind.DESCRIBE_EXTENDED : ViewMetadataByName.Kind.DESCRIBE, null,
          Scala.javaList(describe.output())));
    }
    if (plan instanceof ShowTablePropertiesCommand show) {
      return sessionView(show.table()).map(v -> new ViewMetadataByName(v, ViewMetadataByName.Kind.PROPERTIES,
          show.propertyKey().isDefined() ? show.propertyKey().get() : null, Scala.javaList(show.output())));
    }
    if (plan instanceof ShowCreateTableCommand show) {
      return sessionView(show.table()).map(v -> new ViewMetadataByName(v,
          ViewMetadataByName.Kind.CREATE_STATEMENT, null, Scala.javaList(show.output())));
    }
    if (plan instanceof ShowCreateTableAsSerdeCommand show) {
      // as Spark's own catalog: a view's DDL is the same in both forms
      return sessionView(show.table()).map(v -> new ViewMetadataByName(v,
          ViewMetadataByName.Kind.CREATE_STATEMENT, null, Scala.javaList(show.output())));
    }
    if (plan instanceof DescribeColumnCommand describe && describe.colNameParts().size() == 1) {
      return sessionView(describe.table()).map(v -> new ViewMetadataByName(v, describe.isExtended()
          ? ViewMetadataByName.Kind.DESCRIBE_COLUMN_EXTENDED : ViewMetadataByName.Kind.DESCRIBE_COLUMN,
          describe.colNameParts().head(), Scala.javaList(describe.output())));
    }
    if (plan instanceof ShowViews show && show.namespace() instanceof ResolvedNamespace ns
        && ns.catalog() instanceof AbstractGlueCatalog && ns.catalog().name().equalsIgnoreCase(GlueTarget.SESSION_CATALOG)
        && ns.namespace().size() == 1) {
      // Spark 4.2 lists a ViewCatalog's views itself, even in session mode, without the session's temporary
      // views that Spark's own catalog lists; the global temporary views are Spark's
      return Optional.of(isGlobalTemp(ns.namespace().head())
          ? new ShowViewsCommand(ns.namespace().head(), show.pattern(), show.output())
          : ShowTablesOrViewsByName.views((AbstractGlueCatalog) ns.catalog(), ns.namespace().head(),
              show.pattern().isDefined() ? show.pattern().get() : null, Scala.javaList(show.output())));
    }
    if (plan instanceof ShowTables show && show.namespace() instanceof ResolvedNamespace ns
        && ns.catalog() instanceof AbstractGlueCatalog glue && glue.name().equalsIgnoreCase(GlueTarget.SESSION_CATALOG)
        && ns.namespace().size() == 1 && !isGlobalTemp(ns.namespace().head())) {
      // Spark's own catalog lists a database's views with its tables, then the session's temporary views; a
      // catalog plugin's SHOW TABLES would list its tables only
      return Optional.of(ShowTablesOrViewsByName.tables(glue, ns.namespace().head(),
          show.pattern().isDefined() ? show.pattern().get() : null, Scala.javaList(show.output())));
    }
    if (plan instanceof ShowViewsCommand show) {
      CatalogPlugin catalog = spark.sessionState().catalogManager().catalog(GlueTarget.SESSION_CATALOG);
      if (catalog instanceof AbstractGlueCatalog glue && !isGlobalTemp(show.databaseName())) {
        return Optional.of(ShowTablesOrViewsByName.views(glue, show.databaseName(), show.tableIdentifierPattern().isDefined()
            ? show.tableIdentifierPattern().get() : null, Scala.javaList(show.output())));
      }
    }
    return Optional.empty();
  }

  /** Whether a database name is Spark's database of global temporary views. */
  private boolean isGlobalTemp(String database) {
    return database.equalsIgnoreCase(spark.conf().get("spark.sql.globalTempDatabase", "global_temp"));
  }

  /** A v1 command's name in session mode, when a view (not a table) of gluecat's has it. */
  private Optional<GlueView> sessionView(TableIdentifier table) {
    return GlueView.session(spark, table).filter(v -> v.views().find(v.name()).isPresent());
  }

  /**
   * DROP TABLE of a gluecat view fails as Spark's own catalog fails, naming DROP VIEW (Spark 3.5 and 4.1 would
   * report the view as not found; 4.2 checks this itself).
   */
  private void refuseDropTableOfView(ResolvedIdentifier id) {
    if (!(id.catalog() instanceof AbstractGlueCatalog catalog) || catalog instanceof ViewCatalog) {
      return;
    }
    io.gluecat.entry.TableName name = catalog.tableName(id.identifier());
    if (name != null && catalog.views().find(name).isPresent()) {
      throw new IllegalArgumentException(String.format("DROP TABLE %s.%s: it is a view, not a table; use DROP VIEW "
          + "instead. Nothing was dropped.", catalog.name(), name));
    }
  }

  private static List<String> parts(TableIdentifier name) {
    List<String> parts = new ArrayList<>();
    if (name.database().isDefined()) {
      parts.add(name.database().get());
    }
    parts.add(name.table());
    return parts;
  }
}
