package io.gluecat.entry;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.glue.model.Database;
import software.amazon.awssdk.services.glue.model.DatabaseInput;

/**
 * A Glue database as read, for code outside {@code glue} and {@code entry} (issue #42): its name, description,
 * location and parameters in gluecat's terms. Glue's UpdateDatabase replaces the whole definition, so the
 * Database is kept whole and {@link #changed} carries over every field a change does not set.
 */
public final class StoredDatabase {
  private final Database database;

  public StoredDatabase(Database database) {
    this.database = database;
  }

  /** Glue's Database, every field as read: for {@code glue} and {@code entry} only. */
  public Database sdkDatabase() { return database; }

  public String name() { return database.name(); }

  /** The Description, Spark's namespace comment. */
  public Optional<String> description() { return Optional.ofNullable(database.description()); }

  /** The LocationUri. */
  public Optional<String> location() { return Optional.ofNullable(database.locationUri()); }

  /** The parameters, in Glue's order; empty when it has none. */
  public Map<String, String> parameters() {
    return database.hasParameters() ? new LinkedHashMap<>(database.parameters()) : new LinkedHashMap<>();
  }

  /** A new database's definition; a null description or location is left unset. */
  public static DatabaseInput newDatabase(String name, String description, String location,
      Map<String, String> parameters) {
    return DatabaseInput.builder().name(name).description(description).locationUri(location).parameters(parameters)
        .build();
  }

  /**
   * This database's definition with the description, location and parameters replaced (null: removed), and
   * what a namespace change never sets carried over: the default table permissions, the target database
   * (a resource link's) and the federated database.
   */
  public DatabaseInput changed(String name, String description, String location, Map<String, String> parameters) {
    return DatabaseInput.builder()
        .name(name)
        .description(description)
        .locationUri(location)
        .parameters(parameters)
        .createTableDefaultPermissions(database.createTableDefaultPermissions())
        .targetDatabase(database.targetDatabase())
        .federatedDatabase(database.federatedDatabase())
        .build();
  }
}
