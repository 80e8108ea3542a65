package io.gluecat.extensions.views;

import io.gluecat.compat.Scala;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;

/**
 * The details of a gluecat view as Spark's own catalog lists them for one of its views (DESCRIBE EXTENDED, SHOW
 * TABLE EXTENDED): its CatalogTable's, with the text as written beside the expanded one, which Spark's own catalog
 * keeps apart and gluecat's entry keeps once ({@code View Original Text} after {@code View Text}).
 */
public final class ViewDetails {
  private ViewDetails() {}

  /** Each detail's name and value, in Spark's order; {@code Schema} last, as the tree of the view's columns. */
  public static Map<String, String> of(CatalogTable view) {
    Map<String, String> details = new LinkedHashMap<>();
    Scala.javaMap(view.toLinkedHashMap()).forEach((k, v) -> {
      details.put(k, v);
      if (k.equals("View Text")) {
        details.put("View Original Text", v);
      }
    });
    return details;
  }
}
