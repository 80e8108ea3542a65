package io.gluecat.extensions.views;


import io.gluecat.compat.Scala;
import io.gluecat.entry.ViewEntry;
import io.gluecat.entry.ViewFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.connector.catalog.V1Table;
import org.apache.spark.sql.types.StructField;

/**
 * DESCRIBE [EXTENDED], SHOW TBLPROPERTIES and SHOW CREATE TABLE of a gluecat view where Spark would read the view
 * from its built-in catalog (session mode) or describe it as a table (SHOW CREATE TABLE, named catalogs of 3.5 and
 * 4.1): the rows Spark's own catalog gives for a view, from the view as gluecat loads it.
 */
final class ViewMetadataByName extends ViewCommand {
  enum Kind { DESCRIBE, DESCRIBE_EXTENDED, DESCRIBE_COLUMN, DESCRIBE_COLUMN_EXTENDED, PROPERTIES, CREATE_STATEMENT }

  /** The statistics rows Spark's DESCRIBE EXTENDED of a column adds; a view has none, so each reads NULL. */
  private static final List<String> COLUMN_STATISTICS = List.of("min", "max", "num_nulls", "distinct_count",
      "avg_col_len", "max_col_len", "histogram");

  private final Kind kind;
  /** The property key of SHOW TBLPROPERTIES, or the column of DESCRIBE v col; null for the others. */
  private final String propertyKey;

  ViewMetadataByName(GlueView view, Kind kind, String propertyKey, List<Attribute> output) {
    super(view, output);
    this.kind = kind;
    this.propertyKey = propertyKey;
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    ViewEntry entry = view.existing("DESCRIBE", "DESCRIBE TABLE");
    CatalogTable table = ((V1Table) view.views().v1View(view.name()).orElseThrow()).v1Table();
    List<Row> rows = new ArrayList<>();
    switch (kind) {
      case DESCRIBE, DESCRIBE_EXTENDED -> {
        for (StructField f : table.schema().fields()) {
          rows.add(RowFactory.create(f.name(), f.dataType().simpleString(),
              f.getComment().isDefined() ? f.getComment().get() : null));
        }
        if (kind == Kind.DESCRIBE_EXTENDED) {
          rows.add(RowFactory.create("", "", ""));
          rows.add(RowFactory.create("# Detailed Table Information", "", ""));
          ViewDetails.of(table).forEach((k, v) -> {
            if (!k.equals("Schema")) { // Spark's own DESCRIBE of a view leaves the tree out: the columns are above
              rows.add(RowFactory.create(k, v, ""));
            }
          });
        }
      }
      case DESCRIBE_COLUMN, DESCRIBE_COLUMN_EXTENDED -> {
        StructField f = java.util.Arrays.stream(table.schema().fields())
            .filter(c -> c.name().equalsIgnoreCase(propertyKey)).findFirst()
            .orElseThrow(() -> org.apache.spark.sql.errors.QueryCompilationErrors.columnNotFoundError(propertyKey));
        rows.add(RowFactory.create("col_name", f.name()));
        rows.add(RowFactory.create("data_type", f.dataType().catalogString()));
        rows.add(RowFactory.create("comment", f.getComment().isDefined() ? f.getComment().get() : "NULL"));
        if (kind == Kind.DESCRIBE_COLUMN_EXTENDED) {
          COLUMN_STATISTICS.forEach(statistic -> rows.add(RowFactory.create(statistic, "NULL")));
        }
      }
      case PROPERTIES -> {
        Map<String, String> properties = Scala.javaMap(spark.sessionState().conf().redactOptions(
            table.properties()));
        if (propertyKey != null) {
          String value = properties.getOrDefault(propertyKey, "Table " + view.qualified()
              + " does not have property: " + propertyKey);
          rows.add(columns().size() == 1 ? RowFactory.create(value) : RowFactory.create(propertyKey, value));
        } else {
          new TreeMap<>(properties).forEach((k, v) -> {
            if (!k.startsWith("view.")) {
              rows.add(RowFactory.create(k, v));
            }
          });
        }
      }
      case CREATE_STATEMENT -> rows.add(RowFactory.create(createStatement(table, entry)));
      default -> throw new IllegalStateException(kind.name());
    }
    return rows;
  }

  /** The statement that creates the view again, in the form Spark's SHOW CREATE TABLE gives for a view. */
  private String createStatement(CatalogTable table, ViewEntry entry) {
    StringBuilder ddl = new StringBuilder("CREATE VIEW ").append(quoted(view.target().catalog().name())).append('.')
        .append(quoted(view.name().database())).append('.').append(quoted(view.name().table())).append(' ');
    List<String> columns = new ArrayList<>();
    for (StructField f : table.schema().fields()) {
      columns.add(quoted(f.name()) + (f.getComment().isDefined() ? " COMMENT '" + escaped(f.getComment().get())
          + "'" : ""));
    }
    if (!columns.isEmpty()) {
      ddl.append(block(columns));
    }
    if (table.comment().isDefined()) {
      ddl.append("COMMENT '").append(escaped(table.comment().get())).append("'\n");
    }
    entry.collation().ifPresent(c -> ddl.append("DEFAULT COLLATION ").append(c).append('\n'));
    List<String> properties = new ArrayList<>();
    new TreeMap<>(Scala.javaMap(table.properties())).forEach((k, v) -> {
      if (!k.startsWith("view.") && !k.equals(ViewFormat.COLLATION)) {
        properties.add("'" + escaped(k) + "' = '" + escaped(v) + "'");
      }
    });
    if (!properties.isEmpty()) {
      ddl.append("TBLPROPERTIES ").append(block(properties));
    }
    // Spark 4 prints the binding so that the DDL recreates the same view; Spark 3.5 has none to print
    entry.schemaMode().ifPresent(m -> ddl.append("WITH SCHEMA ").append(m).append('\n'));
    return ddl.append("AS ").append(table.viewText().get()).append('\n').toString();
  }

  private static String block(List<String> items) {
    return "(\n  " + String.join(",\n  ", items) + ")\n";
  }

  private static String quoted(String name) {
    return name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : "`" + name.replace("`", "``") + "`";
  }

  private static String escaped(String s) {
    return s.replace("\\", "\\\\").replace("'", "\\'");
  }
}
