package io.gluecat.extensions.describe;

import io.gluecat.catalog.AbstractGlueCatalog;
import io.gluecat.compat.Scala;
import io.gluecat.compat.ShownPartition;
import io.gluecat.compat.ShownTables;
import io.gluecat.compat.SparkCompat;
import io.gluecat.entry.TableName;
import io.gluecat.files.FileTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.ResolvedNamespace;
import org.apache.spark.sql.catalyst.analysis.ResolvedTable;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.catalyst.util.StringUtils;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.V1Table;

/**
 * {@code SHOW TABLE EXTENDED [IN ns] LIKE 'pattern'} in a gluecat namespace whose matching names are all file
 * source tables or Glue views, in both catalog modes: Spark 3.5 refuses it for a catalog plugin, and Spark 4's V2
 * command prints another text (on Spark 4.2 the table properties as single characters) and finds no view. The rule
 * replaces the statement with {@link ShowTablesExtendedByName}, which answers the text of Spark's V1 command (issue
 * #43). Where a Delta table or (in session mode) a temporary view matches, the statement is left to Spark.
 * {@code .. LIKE 't' PARTITION (..)} of a file source table whose partitions Glue keeps answers the partition's
 * text as Spark's V1 command does.
 */
public final class RewriteShowTableExtended extends Rule<LogicalPlan> {
  private final SparkSession spark;

  public RewriteShowTableExtended(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
    Optional<ShownPartition> partition = SparkCompat.shownPartition(plan);
    if (partition.isPresent()) {
      return showPartition(partition.get()).orElse(plan);
    }
    Optional<ShownTables> shown = SparkCompat.shownTables(plan);
    if (shown.isEmpty() || !(shown.get().namespace() instanceof ResolvedNamespace namespace)
        || !(namespace.catalog() instanceof AbstractGlueCatalog catalog)) {
      return plan;
    }
    String pattern = shown.get().pattern();
    if (CatalogManager.SESSION_CATALOG_NAME().equals(catalog.name())
        && !spark.sessionState().catalog().listLocalTempViews(pattern).isEmpty()) {
      return plan;
    }
    String[] ns = Scala.javaList(namespace.namespace()).toArray(new String[0]);
    try {
      // tables and views: a view that matches leaves the statement to Spark
      List<String> names = new ArrayList<>();
      if (ns.length == 1) {
        names.addAll(catalog.views().listWithTables(ns[0]));
      } else {
        Arrays.stream(catalog.listTables(ns)).forEach(ident -> names.add(ident.name()));
      }
      List<FileTable> tables = new ArrayList<>();
      List<CatalogTable> views = new ArrayList<>();
      for (String name : Scala.javaList(StringUtils.filterPattern(Scala.list(names), pattern))) {
        Optional<Table> view = ns.length == 1 ? catalog.views().v1View(new TableName(ns[0], name)) : Optional.empty();
        if (view.isPresent()) {
          views.add(((V1Table) view.get()).v1Table());
        } else if (catalog.loadTable(Identifier.of(ns, name)) instanceof FileTable table) {
          tables.add(table);
        } else {
          return plan;
        }
      }
      return new ShowTablesExtendedByName(String.join(".", ns), tables, views, shown.get().output());
    } catch (Exception e) { // a namespace or table gone meanwhile: Spark's own answer
      return plan;
    }
  }

  /** A partition of a file source table whose partitions Glue keeps, its spec naming every partition column. */
  private static Optional<LogicalPlan> showPartition(ShownPartition shown) {
    FileTable file;
    String[] ns;
    if (shown.relation() instanceof ResolvedTable resolved && resolved.catalog() instanceof AbstractGlueCatalog
        && resolved.table() instanceof FileTable table) {
      file = table;
      ns = resolved.identifier().namespace();
    } else if (shown.relation() instanceof ResolvedNamespace namespace
        && namespace.catalog() instanceof AbstractGlueCatalog catalog) {
      ns = Scala.javaList(namespace.namespace()).toArray(new String[0]);
      try {
        if (!(catalog.loadTable(Identifier.of(ns, shown.table())) instanceof FileTable table)) {
          return Optional.empty();
        }
        file = table;
      } catch (Exception e) { // no such table: Spark's own answer
        return Optional.empty();
      }
    } else {
      return Optional.empty();
    }
    return RewriteDescribeTable.fullSpec(shown.spec(), file).map(spec -> new ShowTablesExtendedByName(
        String.join(".", ns), List.of(file), shown.output(), spec));
  }
}
