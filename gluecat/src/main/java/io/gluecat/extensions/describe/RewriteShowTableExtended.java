package io.gluecat.extensions.describe;

import io.gluecat.catalog.AbstractGlueCatalog;
import io.gluecat.compat.Scala;
import io.gluecat.compat.ShownTables;
import io.gluecat.compat.SparkCompat;
import io.gluecat.files.FileTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.ResolvedNamespace;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import org.apache.spark.sql.catalyst.util.StringUtils;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.connector.catalog.Identifier;

/**
 * {@code SHOW TABLE EXTENDED [IN ns] LIKE 'pattern'} in a gluecat namespace whose matching names are all file
 * source tables, in both catalog modes: Spark 3.5 refuses it for a catalog plugin, and Spark 4's V2 command prints
 * another text (on Spark 4.2 the table properties as single characters). The rule replaces the statement with
 * {@link ShowTablesExtendedByName}, which answers the text of Spark's V1 command. Where a Delta table, a view or
 * (in session mode) a temporary view matches, the statement is left to Spark.
 */
public final class RewriteShowTableExtended extends Rule<LogicalPlan> {
  private final SparkSession spark;

  public RewriteShowTableExtended(SparkSession spark) {
    this.spark = spark;
  }

  @Override
  public LogicalPlan apply(LogicalPlan plan) {
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
      List<String> names = new ArrayList<>();
      Arrays.stream(catalog.listTables(ns)).forEach(ident -> names.add(ident.name()));
      List<FileTable> tables = new ArrayList<>();
      for (String name : Scala.javaList(StringUtils.filterPattern(Scala.list(names), pattern))) {
        if (!(catalog.loadTable(Identifier.of(ns, name)) instanceof FileTable table)) {
          return plan;
        }
        tables.add(table);
      }
      return new ShowTablesExtendedByName(String.join(".", ns), tables, shown.get().output());
    } catch (Exception e) { // a namespace or table gone meanwhile: Spark's own answer
      return plan;
    }
  }
}
