package io.gluecat.entry;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.connector.catalog.V1Table;

/**
 * A Delta or file source entry as Spark's V1Table, whose storage properties carry the catalog's Hadoop settings
 * (so that Spark's reads and writes of the table use them) but whose properties, the table's as DESCRIBE, SHOW
 * CREATE TABLE, SHOW TBLPROPERTIES and CREATE TABLE LIKE see them, leave out every setting the catalog added:
 * those are the catalog's, never the table's. File source tables extend it with partition DDL.
 */
public class EntryV1Table extends V1Table {
  private final Map<String, String> properties;
  private final Set<String> catalogSettings;

  public EntryV1Table(CatalogTable table, Set<String> catalogSettings) {
    super(table);
    this.catalogSettings = catalogSettings;
    Map<String, String> shown = new LinkedHashMap<>(super.properties());
    catalogSettings.forEach(key -> shown.remove("option." + key));
    this.properties = Collections.unmodifiableMap(shown);
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  /**
   * The CatalogTable as DESCRIBE shows it: its storage properties without the settings the catalog added, in
   * the order of their keys (Glue keeps no order; Spark's catalog shows up to four in the order they were given).
   */
  public CatalogTable describedTable() {
    Map<String, String> storage = new java.util.TreeMap<>(io.gluecat.compat.Scala.javaMap(
        v1Table().storage().properties()));
    storage.keySet().removeAll(catalogSettings);
    return io.gluecat.compat.SparkCompat.withStorageProperties(v1Table(), storage);
  }
}
