package io.gluecat.catalog;

import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.create.CreateChecks;
import io.gluecat.entry.TableName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.connector.catalog.CatalogManager;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.errors.QueryCompilationErrors;

/**
 * How one catalog turns Spark's identifiers into Glue names: one level of databases, lower case (Glue
 * stores names lower case; Spark passes them as typed), and path identifiers such as delta.`/data/t`
 * that never name a Glue entry.
 */
public final class CatalogNames {
  private final String catalog;

  public CatalogNames(String catalog) {
    this.catalog = catalog;
  }

  /** The Glue table an identifier names, or null for a path identifier or a nested namespace. */
  public TableName tableName(Identifier ident) {
    if (ident.namespace().length != 1 || isPathIdentifier(ident)) {
      return null;
    }
    return new TableName(databaseName(ident.namespace()[0]), ident.name());
  }

  /** The Glue table a create or rename targets; a path identifier or a nested namespace is refused. */
  public TableName newTableName(Identifier ident) {
    TableName table = tableName(ident);
    if (table == null) {
      requireSinglePartNamespace(ident);
      throw new IllegalArgumentException(String.format("gluecat catalog '%s' cannot create table %s: tables are "
          + "named <database>.<table> (Glue has one level of databases)", catalog, ident));
    }
    CreateChecks.validName(catalog, "table", table.table(), table.toString());
    return table;
  }

  /** Whether this catalog is spark_catalog (session mode). */
  public boolean sessionCatalog() {
    return CatalogManager.SESSION_CATALOG_NAME().equalsIgnoreCase(catalog);
  }

  /**
   * As spark_catalog, refuses a nested namespace with the error Spark's own session catalog gives
   * (REQUIRES_SINGLE_PART_NAMESPACE), which users and tools match on; a named catalog answers for itself.
   */
  void requireSinglePartNamespace(Identifier ident) {
    if (sessionCatalog() && ident.namespace().length > 1) {
      List<String> parts = new ArrayList<>(Arrays.asList(ident.namespace()));
      if (SparkCompat.NESTED_NAME_ERROR_NAMES_TABLE) {
        parts.add(ident.name());
      }
      throw Scala.rethrow(QueryCompilationErrors.requiresSinglePartNamespaceError(Scala.list(parts)));
    }
  }

  /** RENAME's target may arrive qualified with this catalog's name: [catalog, db]. */
  public Identifier withoutCatalogName(Identifier ident) {
    String[] ns = ident.namespace();
    if (ns.length == 2 && ns[0].equalsIgnoreCase(catalog)) {
      return Identifier.of(new String[] {ns[1]}, ident.name());
    }
    return ident;
  }

  /** The identifier as an error message shows it. */
  public String describe(Identifier ident) {
    TableName t = tableName(ident);
    return t == null ? ident.toString() : t.toString();
  }

  public static String databaseName(String part) {
    return part.toLowerCase(Locale.ROOT);
  }

  /** The database a namespace names; a namespace of another depth does not exist in Glue. */
  public String existingDatabaseName(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length != 1) {
      String[] qualified = new String[namespace.length + 1];
      qualified[0] = catalog;
      System.arraycopy(namespace, 0, qualified, 1, namespace.length);
      throw new NoSuchNamespaceException(qualified);
    }
    return databaseName(namespace[0]);
  }

  /** The database a CREATE NAMESPACE makes: exactly one valid name part. */
  public String newDatabaseName(String[] namespace) {
    if (namespace.length != 1 || namespace[0].isEmpty()) {
      throw new IllegalArgumentException(String.format("gluecat catalog '%s': Glue databases have exactly one "
          + "name part, but namespace '%s' has %d", catalog, String.join(".", namespace), namespace.length));
    }
    return CreateChecks.validName(catalog, "database", databaseName(namespace[0]), databaseName(namespace[0]));
  }

  /** Whether a name is a path: Spark and Delta address files as <format>.`<absolute path>`. */
  public static boolean isPathIdentifier(Identifier ident) {
    String n = ident.name();
    return n.startsWith("/") || n.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");
  }

  /**
   * Spark caches the relation (and file listing) of file source tables by catalog, database and table;
   * after gluecat changed or removed an entry, that cache must not serve the old location or schema.
   */
  void forgetCachedRelation(TableName table) {
    SparkCompat.invalidateCachedRelation(new org.apache.spark.sql.catalyst.TableIdentifier(table.table(),
        scala.Option.apply(table.database()), scala.Option.apply(catalog)));
  }

  /**
   * After gluecat changed a file source table's files (its own INSERT, partition DDL, TRUNCATE): besides the
   * relation, a table cached with CACHE TABLE (or {@code df.cache()}) is re-read. Spark re-caches such a
   * statement's target by its V2 plan, which never matches the V1 relation it read and cached the table as, so the
   * cache is refreshed by the table's files, as Spark's own insert does (no Glue call).
   */
  void forgetCachedData(TableName table, String location) {
    forgetCachedRelation(table);
    scala.Option<org.apache.spark.sql.SparkSession> spark = org.apache.spark.sql.SparkSession.getActiveSession();
    if (spark.isDefined()) { // the statement's session: the one whose cache may hold the table
      spark.get().catalog().refreshByPath(location);
    }
  }
}
