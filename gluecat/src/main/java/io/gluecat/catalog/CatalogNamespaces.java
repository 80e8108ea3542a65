package io.gluecat.catalog;

import io.gluecat.config.CatalogOptions;
import io.gluecat.config.SparkEnvironment;
import io.gluecat.entry.StoredDatabase;
import io.gluecat.glue.GlueDatabases;
import io.gluecat.glue.GlueGateway;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;

/**
 * Spark namespaces as Glue databases, one to one: Glue databases have no children, a comment is the
 * database's Description, a location its LocationUri, every other property a parameter.
 */
final class CatalogNamespaces {
  private final String name;
  private final CatalogOptions options;
  private final GlueGateway glue;
  private final GlueDatabases databases;
  private final CatalogNames names;

  CatalogNamespaces(String name, CatalogOptions options, GlueGateway glue, CatalogNames names) {
    this.name = name;
    this.options = options;
    this.glue = glue;
    this.databases = new GlueDatabases(glue);
    this.names = names;
  }

  String[][] list() {
    return databases.list().stream()
        .map(d -> new String[] {d.name().toLowerCase(Locale.ROOT)})
        .toArray(String[][]::new);
  }

  String[][] list(String[] namespace) throws NoSuchNamespaceException {
    if (namespace.length == 0) {
      return list();
    }
    names.existingDatabaseName(namespace);
    return new String[0][]; // Glue databases have no children
  }

  boolean exists(String[] namespace) {
    return namespace.length == 1 && glue.databaseExists(CatalogNames.databaseName(namespace[0]));
  }

  Map<String, String> metadata(String[] namespace) throws NoSuchNamespaceException {
    StoredDatabase db = databases.get(names.existingDatabaseName(namespace));
    Map<String, String> metadata = new LinkedHashMap<>(db.parameters());
    db.description().ifPresent(d -> metadata.put(SupportsNamespaces.PROP_COMMENT, d));
    db.location().ifPresent(l -> metadata.put(SupportsNamespaces.PROP_LOCATION, l));
    return metadata;
  }

  void create(String[] namespace, Map<String, String> metadata) throws NamespaceAlreadyExistsException {
    String database = names.newDatabaseName(namespace);
    Map<String, String> parameters = new LinkedHashMap<>(metadata);
    String comment = parameters.remove(SupportsNamespaces.PROP_COMMENT);
    String location = parameters.remove(SupportsNamespaces.PROP_LOCATION);
    if (location == null) {
      // The legacy Hive path needs a database location to place tables; without a warehouse, none.
      location = options.warehouse().map(w -> w + "/" + database + ".db").orElse(null);
    }
    databases.create(database, comment,
        location == null ? null : SparkEnvironment.qualify(location, "database " + name + "." + database), parameters);
  }

  void alter(String[] namespace, NamespaceChange... changes) throws NoSuchNamespaceException {
    String database = names.existingDatabaseName(namespace);
    StoredDatabase current = databases.get(database);
    Map<String, String> parameters = current.parameters();
    String description = current.description().orElse(null);
    String location = current.location().orElse(null);
    for (NamespaceChange change : changes) {
      if (change instanceof NamespaceChange.SetProperty) {
        NamespaceChange.SetProperty set = (NamespaceChange.SetProperty) change;
        if (SupportsNamespaces.PROP_LOCATION.equals(set.property())) {
          location = SparkEnvironment.qualify(set.value(), "database " + name + "." + database);
        } else if (SupportsNamespaces.PROP_COMMENT.equals(set.property())) {
          description = set.value();
        } else {
          parameters.put(set.property(), set.value());
        }
      } else if (change instanceof NamespaceChange.RemoveProperty) {
        String property = ((NamespaceChange.RemoveProperty) change).property();
        if (SupportsNamespaces.PROP_LOCATION.equals(property)) {
          location = null;
        } else if (SupportsNamespaces.PROP_COMMENT.equals(property)) {
          description = null;
        } else {
          parameters.remove(property);
        }
      } else {
        throw new UnsupportedOperationException(String.format("gluecat catalog '%s': namespace change %s on "
            + "database %s is not supported", name, change.getClass().getSimpleName(), database));
      }
    }
    // UpdateDatabase replaces the definition: the update carries over what this change does not touch.
    databases.update(database, current, description, location, parameters);
  }

  /**
   * Drops the Glue database. A database with entries is refused unless {@code cascade}; with cascade,
   * Glue removes the entries of its tables. Data is never deleted.
   */
  boolean drop(String[] namespace, boolean cascade) throws NonEmptyNamespaceException {
    if (namespace.length != 1) {
      return false;
    }
    String database = CatalogNames.databaseName(namespace[0]);
    try {
      if (!cascade && glue.hasTables(database)) {
        throw new NonEmptyNamespaceException(new String[] {name, database});
      }
      glue.deleteDatabase(database);
      return true;
    } catch (NoSuchNamespaceException e) {
      return false;
    }
  }
}
