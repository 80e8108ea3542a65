package io.gluecat.glue;

import io.gluecat.CatalogOptions;
import io.gluecat.TableName;
import io.gluecat.glue.GlueErrors.Call;
import io.gluecat.storage.LocationMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.core.client.config.SdkAdvancedClientOption;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.regions.providers.DefaultAwsRegionProviderChain;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Database;
import software.amazon.awssdk.services.glue.model.DatabaseInput;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.GetDatabasesResponse;
import software.amazon.awssdk.services.glue.model.GetTablesResponse;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * The only class that talks to Glue. One instance per catalog, with that catalog's own clients and
 * credentials (never shared between catalogs): it names the catalog's glue.id on every call, pages
 * every listing, and turns every AWS error into what Spark expects through {@link GlueErrors}.
 */
public final class GlueGateway implements AutoCloseable {

  private final CatalogOptions options;
  private final GlueErrors errors;
  private final GlueClient glue;
  /** Locations cross the Glue boundary here, so the rest of gluecat only sees ones Hadoop can open. */
  private final LocationMap locations;
  private final List<AutoCloseable> resources = new ArrayList<>();

  public GlueGateway(CatalogOptions options) {
    this.options = options;
    this.errors = new GlueErrors(options);
    this.locations = options.locationMap();
    Region region = resolveRegion(options);
    String userAgent = AwsCredentials.userAgent(options.catalogName(), "");
    AwsCredentialsProvider credentials = AwsCredentials.provider(options.roleArn().map(arn -> new AwsCredentials.Role(
        arn, options.roleExternalId(), options.roleSessionName(), options.stsEndpoint())), region, userAgent, resources);
    this.glue = GlueClient.builder()
        .region(region)
        .credentialsProvider(credentials)
        .applyMutation(b -> options.glueEndpoint().ifPresent(b::endpointOverride))
        .overrideConfiguration(c -> c.putAdvancedOption(SdkAdvancedClientOption.USER_AGENT_SUFFIX, userAgent))
        .build();
    resources.add(glue);
  }

  public GlueErrors errors() { return errors; }

  // ---- databases ----

  public Database getDatabase(String name) throws NoSuchNamespaceException {
    try {
      return locations.read(glue.getDatabase(r -> r.catalogId(catalogId()).name(name)).database());
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.GET_DATABASE, name, null, e), NoSuchNamespaceException.class);
    }
  }

  public boolean databaseExists(String name) {
    try {
      getDatabase(name);
      return true;
    } catch (NoSuchNamespaceException e) {
      return false;
    }
  }

  /** The database's location, or empty when it has none or does not exist (anymore). */
  public Optional<String> databaseLocation(String name) {
    try {
      return Optional.ofNullable(getDatabase(name).locationUri());
    } catch (NoSuchNamespaceException e) {
      return Optional.empty();
    }
  }

  public List<Database> listDatabases() {
    List<Database> all = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      GetDatabasesResponse page = unchecked(Call.GET_DATABASES, "*", null,
          () -> glue.getDatabases(r -> r.catalogId(catalogId()).nextToken(next)));
      page.databaseList().forEach(d -> all.add(locations.read(d)));
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return all;
  }

  public void createDatabase(DatabaseInput input) throws NamespaceAlreadyExistsException {
    try {
      glue.createDatabase(r -> r.catalogId(catalogId()).databaseInput(locations.write(input)));
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.CREATE_DATABASE, input.name(), null, e),
          NamespaceAlreadyExistsException.class);
    }
  }

  /** Replaces the database definition (Glue's UpdateDatabase replaces, it does not merge). */
  public void updateDatabase(String name, DatabaseInput input) throws NoSuchNamespaceException {
    try {
      glue.updateDatabase(r -> r.catalogId(catalogId()).name(name).databaseInput(locations.write(input)));
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.UPDATE_DATABASE, name, null, e), NoSuchNamespaceException.class);
    }
  }

  /** Deletes the database entry and, as Glue does, the entries of its tables; never any data. */
  public void deleteDatabase(String name) throws NoSuchNamespaceException {
    try {
      glue.deleteDatabase(r -> r.catalogId(catalogId()).name(name));
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.DELETE_DATABASE, name, null, e), NoSuchNamespaceException.class);
    }
  }

  // ---- tables ----

  /** Every entry of a database, views included, over all of Glue's pages. */
  public List<Table> listTables(String database) throws NoSuchNamespaceException {
    List<Table> all = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      GetTablesResponse page;
      try {
        page = glue.getTables(r -> r.catalogId(catalogId()).databaseName(database).nextToken(next));
      } catch (SdkException e) {
        throw rethrow(errors.translate(Call.GET_TABLES, database, null, e), NoSuchNamespaceException.class);
      }
      page.tableList().forEach(t -> all.add(locations.read(t)));
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return all;
  }

  /** Whether the database holds any entry at all (tables or views), reading one page of one. */
  public boolean hasTables(String database) throws NoSuchNamespaceException {
    try {
      return !glue.getTables(r -> r.catalogId(catalogId()).databaseName(database).maxResults(1))
          .tableList().isEmpty();
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.GET_TABLES, database, null, e), NoSuchNamespaceException.class);
    }
  }

  public Table getTable(TableName name) throws NoSuchTableException {
    try {
      return locations.read(
          glue.getTable(r -> r.catalogId(catalogId()).databaseName(name.database()).name(name.table())).table());
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.GET_TABLE, name.database(), name.table(), e), NoSuchTableException.class);
    }
  }

  /** The entry, or empty when the table or its database does not exist. */
  public Optional<Table> findTable(TableName name) {
    try {
      return Optional.of(getTable(name));
    } catch (NoSuchTableException e) {
      return Optional.empty();
    }
  }

  public void createTable(String database, TableInput input)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    try {
      glue.createTable(r -> r.catalogId(catalogId()).databaseName(database).tableInput(locations.write(input)));
    } catch (SdkException e) {
      Exception mapped = errors.translate(Call.CREATE_TABLE, database, input.name(), e);
      if (mapped instanceof TableAlreadyExistsException) {
        throw (TableAlreadyExistsException) mapped;
      }
      throw rethrow(mapped, NoSuchNamespaceException.class);
    }
  }

  /**
   * Replaces the entry, but only if it is still at {@code versionId}: Glue refuses the update when
   * someone changed the entry since it was read, so a concurrent change is never overwritten.
   */
  public void updateTable(String database, TableInput input, String versionId) throws NoSuchTableException {
    try {
      glue.updateTable(r -> r.catalogId(catalogId()).databaseName(database).tableInput(locations.write(input))
          .versionId(versionId).skipArchive(options.skipArchive()));
    } catch (SdkException e) {
      throw rethrow(errors.translate(Call.UPDATE_TABLE, database, input.name(), e), NoSuchTableException.class);
    }
  }

  /** Deletes the entry (never data); false when there was none. */
  public boolean deleteTable(TableName name) {
    try {
      glue.deleteTable(r -> r.catalogId(catalogId()).databaseName(name.database()).name(name.table()));
      return true;
    } catch (EntityNotFoundException e) {
      return false;
    } catch (SdkException e) {
      throw (RuntimeException) errors.translate(Call.DELETE_TABLE, name.database(), name.table(), e);
    }
  }

  @Override
  public void close() {
    for (AutoCloseable resource : resources) {
      try {
        resource.close();
      } catch (Exception ignored) {
        // closing clients of a catalog that is going away: nothing to do on failure
      }
    }
  }

  // ---- helpers ----

  private String catalogId() {
    return options.glueId().orElse(null);
  }

  private <T> T unchecked(Call call, String database, String table, Supplier<T> body) {
    try {
      return body.get();
    } catch (SdkException e) {
      throw asUnchecked(errors.translate(call, database, table, e));
    }
  }

  /** Throws {@code mapped} as {@code declared} when it is one, else as the unchecked exception it is. */
  private static <E extends Exception> E rethrow(Exception mapped, Class<E> declared) throws E {
    if (declared.isInstance(mapped)) {
      throw declared.cast(mapped);
    }
    throw asUnchecked(mapped);
  }

  private static RuntimeException asUnchecked(Exception mapped) {
    return mapped instanceof RuntimeException ? (RuntimeException) mapped
        : new IllegalStateException(mapped.getMessage(), mapped);
  }

  private static Region resolveRegion(CatalogOptions options) {
    if (options.region().isPresent()) {
      return Region.of(options.region().get());
    }
    try {
      return new DefaultAwsRegionProviderChain().getRegion();
    } catch (SdkException e) {
      throw new IllegalArgumentException(String.format(
          "gluecat catalog '%s': no AWS region. Set spark.sql.catalog.%s.%s (or AWS_REGION for all catalogs)",
          options.catalogName(), options.catalogName(), CatalogOptions.REGION), e);
    }
  }
}
