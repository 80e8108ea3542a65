package io.gluecat.views;

import io.gluecat.GlueCatalogException;
import io.gluecat.GlueConcurrentModificationException;
import io.gluecat.InvalidGlueEntryException;
import io.gluecat.config.SparkEnvironment;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.entry.ViewEntry;
import io.gluecat.entry.ViewFormat;
import io.gluecat.glue.GlueGateway;
import io.gluecat.glue.GlueViewEntries;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import io.gluecat.compat.SparkCompat;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.catalog.CatalogStorageFormat;
import org.apache.spark.sql.catalyst.catalog.CatalogTableType;
import org.apache.spark.sql.connector.catalog.V1Table;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;

/**
 * A catalog's views in Glue: what every Spark line's view support calls (Spark 4.2's ViewCatalog through
 * compat-spark42's GlueCatalog). Views share Glue's table namespace with tables, so a name holds one or the
 * other. "No view here" is reported as NoSuchTableException and "name taken" as TableAlreadyExistsException,
 * which every line has; the line's bridge turns them into its view exceptions.
 */
public final class GlueViews {
  /** OR REPLACE re-reads and tries again this often when another writer changed the entry in between. */
  static final int REPLACE_ATTEMPTS = 3;

  private final String catalog;
  private final GlueGateway glue;
  private final GlueViewEntries entries;

  public GlueViews(String catalog, GlueGateway glue) {
    this.catalog = catalog;
    this.glue = glue;
    this.entries = new GlueViewEntries(glue);
  }

  /** The view at {@code name}, of any dialect; empty when nothing or a table is there. */
  public Optional<ViewEntry> find(TableName name) {
    return existingView(name).map(t -> read(name, t));
  }

  /** A raw entry known to be a view, read. */
  public ViewEntry read(TableName name, StoredTable entry) {
    return ViewFormat.read(catalog, name.database(), entry);
  }

  /**
   * The view, checked to be one Spark can expand: a Trino or Athena view fails here, naming the view and its
   * dialect, so it is listed but never run as Spark SQL.
   */
  public ViewEntry requireSpark(ViewEntry view) {
    if (view.dialect() != ViewEntry.Dialect.SPARK) {
      throw new InvalidGlueEntryException(String.format("View %s.%s is a %s view: its query is written in that "
          + "engine's SQL, which Spark cannot run. Query it from Trino or Athena, or define a Spark view of the "
          + "same query under another name.", catalog, view.qualifiedName(), view.dialect().label()));
    }
    return view;
  }

  /**
   * The view as Spark's own catalog gives one (a V1Table of type VIEW), which Spark 3.5 and 4.1 expand on read
   * from any catalog when its partitions are not tracked in the catalog; empty when no view has the name.
   */
  public Optional<org.apache.spark.sql.connector.catalog.Table> v1View(TableName name) {
    return find(name).map(this::requireSpark).map(view -> new V1Table(SparkCompat.catalogTable(
        CatalogTableType.VIEW(), view.sql(),
        new TableIdentifier(name.table(), scala.Option.apply(name.database()), scala.Option.apply(catalog)),
        CatalogStorageFormat.empty(), view.schema(), null, List.of(),
        view.owner().orElse(""), view.createTimeMillis(), view.createVersion(), ViewFormat.catalogTableProperties(view), view.comment(),
        Optional.empty(), Optional.empty())));
  }

  /** The names of the database's views, every dialect, lower case. */
  public List<String> list(String database) throws NoSuchNamespaceException {
    return names(database, true);
  }

  /**
   * The names of all the database's entries, tables and views, lower case: what SHOW TABLES lists on Spark's own
   * catalog, from one listing.
   */
  public List<String> listWithTables(String database) throws NoSuchNamespaceException {
    return names(database, false);
  }

  private List<String> names(String database, boolean viewsOnly) throws NoSuchNamespaceException {
    List<StoredTable> listed = entries.list(database);
    if (listed.isEmpty()) {
      glue.existingDatabaseLocation(database); // an empty listing must still report a missing database
    }
    List<String> names = new ArrayList<>();
    for (StoredTable t : listed) {
      if ((!viewsOnly || ViewFormat.isView(t)) && t.name() != null) {
        names.add(t.name().toLowerCase(Locale.ROOT));
      }
    }
    return names;
  }

  /** Creates the view; refused when a table or view already has the name. */
  public void create(ViewEntry view) throws TableAlreadyExistsException, NoSuchNamespaceException {
    entries.create(view.database(), ViewFormat.recordedIn(view, catalog), SparkEnvironment.sparkVersion(),
        SparkEnvironment.schemaStringLengthThreshold());
  }

  /**
   * Replaces the definition of an existing view (ALTER VIEW), at the VersionId it was read at, so a concurrent
   * change is never overwritten unseen. {@code view} carries every user property the view keeps: one of the
   * entry's that it lacks was removed. NoSuchTableException when no view has the name (a table included).
   */
  public void replace(ViewEntry view) throws NoSuchTableException {
    TableName name = new TableName(view.database(), view.name());
    StoredTable existing = existingView(name).orElseThrow(() -> new NoSuchTableException(io.gluecat.compat.Scala.list(catalog,
        name.database(), name.table())));
    update(name, existing, view, ViewFormat.removedProperties(existing, view));
  }

  /**
   * CREATE OR REPLACE: creates the view or replaces it; a replace sets the view's properties and removes none
   * (as a table's replace keeps the keys it does not set: another tool's among them). Against another writer (a create or replace between
   * this one's read and write) Glue's VersionId or AlreadyExists tells; the entry is then read again and the
   * write retried, so the view ends as one of the two definitions, never a mix. A table of that name is
   * refused with TableAlreadyExistsException.
   */
  public void createOrReplace(ViewEntry view) throws TableAlreadyExistsException, NoSuchNamespaceException {
    TableName name = new TableName(view.database(), view.name());
    for (int attempt = 1; ; attempt++) {
      Optional<StoredTable> existing = entries.find(name);
      try {
        if (existing.isEmpty()) {
          create(view);
        } else if (!ViewFormat.isView(existing.get())) {
          throw new TableAlreadyExistsException(io.gluecat.compat.Scala.list(catalog, name.database(), name.table()));
        } else {
          update(name, existing.get(), view, java.util.Set.of());
        }
        return;
      } catch (TableAlreadyExistsException | GlueConcurrentModificationException | NoSuchTableException e) {
        if (e instanceof TableAlreadyExistsException && existing.isPresent()) {
          throw (TableAlreadyExistsException) e; // a table has the name
        }
        if (attempt >= REPLACE_ATTEMPTS) {
          throw new GlueCatalogException(String.format("CREATE OR REPLACE VIEW %s.%s: the entry kept changing "
              + "under other writers (%d attempts); nothing of this statement was written. Retry the statement.",
              catalog, name, attempt), e);
        }
        glue.refreshed(name); // read Glue's current entry, not what this session remembers
      }
    }
  }

  /** Drops the view's entry; false when no view has the name (a table is never dropped here). */
  public boolean drop(TableName name) {
    if (existingView(name).isEmpty()) {
      return false;
    }
    return glue.deleteTable(name);
  }

  /**
   * Renames a view: its entry is created under the new name, then the old one is deleted (Glue has no rename).
   * The view keeps the catalog and namespace its query was written in.
   */
  public void rename(TableName from, TableName to) throws NoSuchTableException, TableAlreadyExistsException {
    StoredTable entry = existingView(from).orElseThrow(() -> new NoSuchTableException(io.gluecat.compat.Scala.list(catalog,
        from.database(), from.table())));
    try {
      entries.createRenamed(entry, to);
    } catch (NoSuchNamespaceException e) {
      throw new IllegalArgumentException(String.format("Cannot rename view %s.%s to %s.%s: database %s does not "
          + "exist", catalog, from, catalog, to, to.database()), e);
    }
    try {
      glue.deleteTable(from);
    } catch (RuntimeException e) {
      throw new GlueCatalogException(String.format("Renamed view %s.%s to %s.%s, but the old entry could not be "
          + "deleted: %s. Run DROP VIEW %s.%s to finish the rename.", catalog, from, catalog, to, e.getMessage(),
          catalog, from), e);
    }
  }

  private Optional<StoredTable> existingView(TableName name) {
    return entries.find(name).filter(ViewFormat::isView);
  }

  private void update(TableName name, StoredTable existing, ViewEntry view, java.util.Set<String> removedProperties)
      throws NoSuchTableException {
    if (ViewFormat.isTrinoView(existing)) {
      throw new IllegalArgumentException(String.format("View %s.%s is a %s view; gluecat does not rewrite it. "
          + "Drop it first (DROP VIEW %s.%s) to define a Spark view of that name.", catalog, name,
          ViewEntry.Dialect.TRINO.label(), catalog, name));
    }
    entries.update(name.database(), existing, ViewFormat.recordedIn(view, catalog), removedProperties,
        SparkEnvironment.schemaStringLengthThreshold());
  }
}
