package io.gluecat.create;

import io.gluecat.config.CatalogOptions;
import io.gluecat.config.SparkEnvironment;
import io.gluecat.entry.TableName;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import org.apache.spark.sql.connector.catalog.TableCatalog;

/**
 * The property map Spark passes to createTable and stage*: Spark's reserved keys (provider, location,
 * comment, owner, ...), data source OPTIONS (as {@code option.<key>}) and the user's TBLPROPERTIES, told
 * apart; and where a new table goes.
 */
public final class CreateArguments {
  /** Keys Spark reserves at create time; they are not table properties. */
  private static final Set<String> RESERVED = Set.of(TableCatalog.PROP_LOCATION, TableCatalog.PROP_PROVIDER,
      TableCatalog.PROP_COMMENT, TableCatalog.PROP_OWNER, TableCatalog.PROP_EXTERNAL, "is_managed_location",
      "path");

  private final Map<String, String> properties;

  public CreateArguments(Map<String, String> properties) {
    this.properties = properties;
  }

  /** The property map as Spark passed it. */
  public Map<String, String> properties() {
    return properties;
  }

  /** The provider the statement names, else the session's default data source, as Spark resolves it. */
  public String provider() {
    String provider = properties.get(TableCatalog.PROP_PROVIDER);
    return provider != null ? provider
        : org.apache.spark.sql.internal.SQLConf.get().getConfString("spark.sql.sources.default", "parquet");
  }

  public Optional<String> comment() {
    return Optional.ofNullable(properties.get(TableCatalog.PROP_COMMENT));
  }

  public Optional<String> owner() {
    return Optional.ofNullable(properties.get(TableCatalog.PROP_OWNER)).filter(o -> !o.isEmpty());
  }

  /** LOCATION (or a {@code path} option), qualified, when the statement gave one. */
  public Optional<String> explicitLocation() {
    String location = properties.get(TableCatalog.PROP_LOCATION);
    if (location == null) {
      location = options().get("path");
    }
    return Optional.ofNullable(location).map(SparkEnvironment::qualify);
  }

  /** Data source OPTIONS, without their {@code option.} prefix and without {@code path}. */
  public Map<String, String> options() {
    Map<String, String> options = new LinkedHashMap<>();
    properties.forEach((k, v) -> {
      if (k.startsWith(TableCatalog.OPTION_PREFIX)) {
        options.put(k.substring(TableCatalog.OPTION_PREFIX.length()), v);
      }
    });
    return options;
  }

  /** TBLPROPERTIES as the user gave them: no reserved keys and no OPTIONS (which some Spark versions repeat unprefixed). */
  public Map<String, String> userProperties() {
    Map<String, String> options = options();
    Map<String, String> user = new LinkedHashMap<>();
    properties.forEach((k, v) -> {
      if (!RESERVED.contains(k) && !k.startsWith(TableCatalog.OPTION_PREFIX) && !options.containsKey(k)) {
        user.put(k, v);
      }
    });
    return user;
  }

  /**
   * Where a new table goes: its explicit location, else a directory no table used before under the
   * database location (or {@code <warehouse>/<db>.db}), so that dropping a table (which never deletes data)
   * and creating it again never picks up the old data.
   */
  public String location(String catalog, CatalogOptions options, TableName name, Optional<String> databaseLocation) {
    String explicitLocation = properties.containsKey(TableCatalog.PROP_LOCATION)
        ? properties.get(TableCatalog.PROP_LOCATION) : options().get("path");
    if (explicitLocation != null) {
      return SparkEnvironment.qualify(explicitLocation, "table " + catalog + "." + name);
    }
    String base = databaseLocation.or(() -> options.warehouse().map(w -> w + "/" + name.database() + ".db"))
        .orElseThrow(() -> new IllegalArgumentException(String.format("Table %s.%s has no location: give one "
                + "(LOCATION '...'), set a location on database %s, or set the catalog's warehouse option "
                + "(spark.sql.catalog.%s.warehouse)", catalog, name, name.database(), catalog)));
    String trimmed = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
    if (databaseLocation.isPresent()) {
      try {
        new org.apache.hadoop.fs.Path(trimmed).toUri();
      } catch (IllegalArgumentException e) {
        Throwable cause = e.getCause() != null ? e.getCause() : e;
        throw new IllegalArgumentException(String.format("Table %s.%s cannot be created in database %s.%s: the "
            + "database's location is not a valid URI ('%s': %s). Give the table a LOCATION, or fix the database's "
            + "location (ALTER DATABASE %s.%s SET LOCATION '...').", catalog, name, catalog, name.database(), base,
            cause.getMessage(), catalog, name.database()), e);
      }
    }
    return SparkEnvironment.qualify(trimmed + "/" + name.table() + "-" + UUID.randomUUID().toString().replace("-", ""),
        "table " + catalog + "." + name);
  }
}
