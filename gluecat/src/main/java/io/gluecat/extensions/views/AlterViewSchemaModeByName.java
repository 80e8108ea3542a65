package io.gluecat.extensions.views;

import io.gluecat.entry.ViewEntry;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * ALTER VIEW v WITH SCHEMA BINDING | COMPENSATION | [TYPE] EVOLUTION of a gluecat view (Spark 4, in session mode
 * and on named catalogs of lines that do not ask the catalog): the view keeps its query, columns and context and
 * takes the new mode. As Spark's own catalog does, an EVOLUTION view keeps no query column names (it follows its
 * query's), and a view leaving EVOLUTION maps its columns by the names they have now.
 */
final class AlterViewSchemaModeByName extends ViewCommand {
  private final String mode;

  AlterViewSchemaModeByName(GlueView view, String mode) {
    super(view);
    this.mode = mode;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    ViewEntry existing = view.existing("ALTER VIEW .. WITH SCHEMA", "ALTER TABLE");
    List<String> queryColumns = "EVOLUTION".equals(mode) ? List.of()
        : !existing.queryColumnNames().isEmpty() ? existing.queryColumnNames()
        : Arrays.asList(existing.schema().fieldNames());
    view.views().replace(existing.toBuilder().schemaMode(mode).queryColumnNames(queryColumns).build());
    return List.of();
  }
}
