package io.gluecat.extensions.views;


import io.gluecat.entry.ViewEntry;
import io.gluecat.entry.ViewFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * ALTER VIEW v SET TBLPROPERTIES / UNSET TBLPROPERTIES [IF EXISTS] of a gluecat view (Spark 3.5 and 4.1, session
 * mode on every line). The key 'comment' is the view's comment, as in Spark's own catalog.
 */
final class AlterViewPropertiesByName extends ViewCommand {
  private final Map<String, String> set;
  private final List<String> unset;
  private final boolean ifExists;

  private AlterViewPropertiesByName(GlueView view, Map<String, String> set, List<String> unset, boolean ifExists) {
    super(view);
    this.set = set;
    this.unset = unset;
    this.ifExists = ifExists;
  }

  static AlterViewPropertiesByName set(GlueView view, Map<String, String> properties) {
    return new AlterViewPropertiesByName(view, properties, List.of(), false);
  }

  static AlterViewPropertiesByName unset(GlueView view, List<String> keys, boolean ifExists) {
    return new AlterViewPropertiesByName(view, Map.of(), keys, ifExists);
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    ViewEntry existing = view.existing("ALTER VIEW", "ALTER TABLE");
    Map<String, String> properties = new LinkedHashMap<>(existing.properties());
    String comment = existing.comment().orElse(null);
    for (Map.Entry<String, String> e : set.entrySet()) {
      if (e.getKey().equals(ViewFormat.PROP_COMMENT)) {
        comment = e.getValue();
      } else if (ViewFormat.isOwned(e.getKey()) || e.getKey().startsWith("spark.sql.")) {
        throw new IllegalArgumentException(String.format("ALTER VIEW %s: property '%s' is reserved for the Glue "
            + "entry format and cannot be set. Nothing was changed.", view.qualified(), e.getKey()));
      } else {
        properties.put(e.getKey(), e.getValue());
      }
    }
    for (String key : unset) {
      boolean present = key.equals(ViewFormat.PROP_COMMENT) ? comment != null : properties.containsKey(key);
      if (!present && !ifExists) {
        throw new IllegalArgumentException(String.format("ALTER VIEW %s UNSET TBLPROPERTIES: the view has no "
            + "property '%s' (use UNSET TBLPROPERTIES IF EXISTS to ignore missing keys). Nothing was changed.",
            view.qualified(), key));
      }
      if (key.equals(ViewFormat.PROP_COMMENT)) {
        comment = null;
      } else {
        properties.remove(key);
      }
    }
    view.views().replace(existing.toBuilder().properties(properties).comment(comment).build());
    return List.of();
  }
}
