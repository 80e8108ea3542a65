package io.gluecat.catalog;

import java.util.Map;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;

/**
 * The namespace reads of a catalog's two faces, the catalog Spark calls ({@link AbstractGlueCatalog}) and the
 * entry catalog Delta's catalog delegates to ({@link EntryCatalog}): both answer them from the catalog's one
 * {@link CatalogNamespaces}, so they are written once, here. Writes stay with each face.
 */
abstract class NamespaceReads implements SupportsNamespaces {

  /** The catalog's namespaces; set once the catalog is wired. */
  abstract CatalogNamespaces namespaces();

  @Override
  public String[][] listNamespaces() {
    return namespaces().list();
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    return namespaces().list(namespace);
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    return namespaces().exists(namespace);
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    return namespaces().metadata(namespace);
  }
}
