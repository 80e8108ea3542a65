package io.gluecat.glue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.GlueServiceClientConfiguration;
import software.amazon.awssdk.services.glue.model.AccessDeniedException;
import software.amazon.awssdk.services.glue.model.AlreadyExistsException;
import software.amazon.awssdk.services.glue.model.BatchCreatePartitionRequest;
import software.amazon.awssdk.services.glue.model.BatchCreatePartitionResponse;
import software.amazon.awssdk.services.glue.model.BatchDeletePartitionRequest;
import software.amazon.awssdk.services.glue.model.BatchDeletePartitionResponse;
import software.amazon.awssdk.services.glue.model.ConcurrentModificationException;
import software.amazon.awssdk.services.glue.model.CreateDatabaseRequest;
import software.amazon.awssdk.services.glue.model.CreateDatabaseResponse;
import software.amazon.awssdk.services.glue.model.CreateTableRequest;
import software.amazon.awssdk.services.glue.model.CreateTableResponse;
import software.amazon.awssdk.services.glue.model.Database;
import software.amazon.awssdk.services.glue.model.DatabaseInput;
import software.amazon.awssdk.services.glue.model.DeleteTableRequest;
import software.amazon.awssdk.services.glue.model.DeleteTableResponse;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.ErrorDetail;
import software.amazon.awssdk.services.glue.model.GetDatabaseRequest;
import software.amazon.awssdk.services.glue.model.GetDatabaseResponse;
import software.amazon.awssdk.services.glue.model.GetDatabasesRequest;
import software.amazon.awssdk.services.glue.model.GetDatabasesResponse;
import software.amazon.awssdk.services.glue.model.GetPartitionsRequest;
import software.amazon.awssdk.services.glue.model.GetPartitionsResponse;
import software.amazon.awssdk.services.glue.model.GetTableRequest;
import software.amazon.awssdk.services.glue.model.GetTableResponse;
import software.amazon.awssdk.services.glue.model.GetTablesRequest;
import software.amazon.awssdk.services.glue.model.GetTablesResponse;
import software.amazon.awssdk.services.glue.model.InternalServiceException;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.PartitionError;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.PartitionValueList;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;
import software.amazon.awssdk.services.glue.model.UpdateTableRequest;
import software.amazon.awssdk.services.glue.model.UpdateTableResponse;

/**
 * Glue in memory, for unit tests that hand the catalog its client (GlueGateway's two-argument constructor): the
 * calls gluecat's table, rename and partition paths make, answered as Glue answers them (names in lower case,
 * UpdateTable replacing the whole entry and refusing a stale VersionId, the SDK's own exceptions). Every call is
 * recorded in order, as the test kit's {@code GlueCallRecorder} records real ones (operation named as AWS names
 * it), and {@link #fail} fails the n-th call of an operation before it is applied, as the kit's
 * {@code Fault.glue(op).onCall(n)} does before sending (the kit's faults work on HTTP attempts, which a client
 * without HTTP never makes). Any other call fails with UnsupportedOperationException, GlueClient's default.
 */
public final class InMemoryGlue implements GlueClient {

  /** One call: the operation as AWS names it, and the database and table it named (null where none). */
  public record Call(String operation, String database, String table) {
    @Override
    public String toString() {
      return operation + (database == null ? "" : " " + database + (table == null ? "" : "." + table));
    }
  }

  private final Map<String, Database> databases = new LinkedHashMap<>();
  private final Map<String, Map<String, Table>> tables = new HashMap<>();
  /** Partitions by "database.table", then by values. */
  private final Map<String, Map<List<String>, Partition>> partitions = new HashMap<>();
  private final List<Call> calls = new ArrayList<>();
  private final Map<String, Integer> seen = new HashMap<>();
  private final Map<String, Map<Integer, SdkException>> faults = new HashMap<>();

  // ---- what a test sets up and asks ----

  /** A database at {@code location} (null for none), made without a recorded call. */
  public synchronized InMemoryGlue database(String name, String location) {
    databases.put(lower(name), Database.builder().name(lower(name)).locationUri(location).createTime(Instant.now())
        .build());
    tables.putIfAbsent(lower(name), new LinkedHashMap<>());
    return this;
  }

  /** An entry as another writer (a crawler, Athena, another engine) left it, stored without a recorded call. */
  public synchronized InMemoryGlue entry(String database, TableInput input) {
    tablesOf(database).put(lower(input.name()), stored(database, input, null, "1"));
    return this;
  }

  /** The entry as Glue holds it now, or empty. */
  public synchronized Optional<Table> table(String database, String name) {
    return Optional.ofNullable(tables.getOrDefault(database, Map.of()).get(lower(name)));
  }

  /** The partition values Glue holds for the table, in the order they were created. */
  public synchronized List<List<String>> partitionValues(String database, String table) {
    return new ArrayList<>(partitions.getOrDefault(lower(database) + "." + lower(table), Map.of()).keySet());
  }

  /** Fails the {@code onCall}-th call (1-based) of {@code operation}, e.g. "CreateTable", before it is applied. */
  public synchronized InMemoryGlue fail(String operation, int onCall, SdkException error) {
    faults.computeIfAbsent(operation, o -> new HashMap<>()).put(onCall, error);
    return this;
  }

  /** Every call made so far, in order, failed ones included. */
  public synchronized List<Call> calls() {
    return List.copyOf(calls);
  }

  /** {@link #calls()} as "Operation database.table" strings, for assertions that read as the calls do. */
  public synchronized List<String> callNames() {
    return calls.stream().map(Call::toString).toList();
  }

  /** Forgets the recorded calls and the calls counted for {@link #fail}. */
  public synchronized void clearCalls() {
    calls.clear();
    seen.clear();
  }

  /** Glue's InternalServiceException (HTTP 500), as the SDK throws it once its retries are spent. */
  public static SdkException internalError(String operation) {
    return withDetails(InternalServiceException.builder(), "InternalServiceException", 500,
        "Injected InternalServiceException for Glue." + operation);
  }

  /** Glue's AccessDeniedException (HTTP 400), as an IAM policy without the operation gets it. */
  public static SdkException accessDenied(String operation) {
    return withDetails(AccessDeniedException.builder(), "AccessDeniedException", 400,
        "User is not authorized to perform: glue:" + operation);
  }

  // ---- databases ----

  @Override
  public synchronized GetDatabaseResponse getDatabase(GetDatabaseRequest request) {
    call("GetDatabase", request.name(), null);
    Database database = databases.get(lower(request.name()));
    if (database == null) {
      throw notFound("Database " + request.name() + " not found.");
    }
    return GetDatabaseResponse.builder().database(database).build();
  }

  @Override
  public synchronized GetDatabasesResponse getDatabases(GetDatabasesRequest request) {
    call("GetDatabases", null, null);
    return GetDatabasesResponse.builder().databaseList(databases.values()).build();
  }

  @Override
  public synchronized CreateDatabaseResponse createDatabase(CreateDatabaseRequest request) {
    DatabaseInput input = request.databaseInput();
    call("CreateDatabase", input.name(), null);
    if (databases.containsKey(lower(input.name()))) {
      throw withDetails(AlreadyExistsException.builder(), "AlreadyExistsException", 400,
          "Database already exists.");
    }
    database(input.name(), input.locationUri());
    return CreateDatabaseResponse.builder().build();
  }

  // ---- tables ----

  @Override
  public synchronized GetTableResponse getTable(GetTableRequest request) {
    call("GetTable", request.databaseName(), request.name());
    return GetTableResponse.builder().table(existing(request.databaseName(), request.name())).build();
  }

  /** Pages of MaxResults (Glue's 100 when unset); the token is the index of the page's first entry. */
  @Override
  public synchronized GetTablesResponse getTables(GetTablesRequest request) {
    call("GetTables", request.databaseName(), null);
    List<Table> all = new ArrayList<>(tablesOf(request.databaseName()).values());
    int from = request.nextToken() == null ? 0 : Integer.parseInt(request.nextToken());
    int to = Math.min(all.size(), from + (request.maxResults() == null ? 100 : request.maxResults()));
    return GetTablesResponse.builder().tableList(all.subList(from, to))
        .nextToken(to < all.size() ? String.valueOf(to) : null).build();
  }

  @Override
  public synchronized CreateTableResponse createTable(CreateTableRequest request) {
    TableInput input = request.tableInput();
    call("CreateTable", request.databaseName(), input.name());
    Map<String, Table> database = tablesOf(request.databaseName());
    if (database.containsKey(lower(input.name()))) {
      throw withDetails(AlreadyExistsException.builder(), "AlreadyExistsException", 400,
          "Table already exists.");
    }
    database.put(lower(input.name()), stored(request.databaseName(), input, null, "1"));
    return CreateTableResponse.builder().build();
  }

  /** Replaces the whole entry, as Glue does; a VersionId other than the current one is refused. */
  @Override
  public synchronized UpdateTableResponse updateTable(UpdateTableRequest request) {
    TableInput input = request.tableInput();
    call("UpdateTable", request.databaseName(), input.name());
    Table current = existing(request.databaseName(), input.name());
    if (request.versionId() != null && !request.versionId().equals(current.versionId())) {
      throw withDetails(ConcurrentModificationException.builder(), "ConcurrentModificationException", 400,
          "Update table failed due to concurrent modifications.");
    }
    String next = String.valueOf(Integer.parseInt(current.versionId()) + 1);
    tablesOf(request.databaseName()).put(lower(input.name()),
        stored(request.databaseName(), input, current.createTime(), next));
    return UpdateTableResponse.builder().build();
  }

  @Override
  public synchronized DeleteTableResponse deleteTable(DeleteTableRequest request) {
    call("DeleteTable", request.databaseName(), request.name());
    existing(request.databaseName(), request.name());
    tablesOf(request.databaseName()).remove(lower(request.name()));
    partitions.remove(lower(request.databaseName()) + "." + lower(request.name()));
    return DeleteTableResponse.builder().build();
  }

  // ---- partitions ----

  /** All partitions, or a Segment's share of them; Glue's Expression is not read here (refused). */
  @Override
  public synchronized GetPartitionsResponse getPartitions(GetPartitionsRequest request) {
    call("GetPartitions", request.databaseName(), request.tableName());
    if (request.expression() != null) {
      throw new UnsupportedOperationException("InMemoryGlue does not evaluate GetPartitions expressions");
    }
    existing(request.databaseName(), request.tableName());
    List<Partition> all = new ArrayList<>(partitionsOf(request.databaseName(), request.tableName()).values());
    if (request.segment() != null && request.segment().totalSegments() > 1) {
      List<Partition> share = new ArrayList<>();
      for (int i = request.segment().segmentNumber(); i < all.size(); i += request.segment().totalSegments()) {
        share.add(all.get(i));
      }
      all = share;
    }
    return GetPartitionsResponse.builder().partitions(all).build();
  }

  @Override
  public synchronized BatchCreatePartitionResponse batchCreatePartition(BatchCreatePartitionRequest request) {
    call("BatchCreatePartition", request.databaseName(), request.tableName());
    existing(request.databaseName(), request.tableName());
    Map<List<String>, Partition> held = partitionsOf(request.databaseName(), request.tableName());
    List<PartitionError> errors = new ArrayList<>();
    for (PartitionInput p : request.partitionInputList()) {
      if (held.containsKey(p.values())) {
        errors.add(partitionError(p.values(), "AlreadyExistsException", "Partition already exists."));
        continue;
      }
      held.put(p.values(), Partition.builder().databaseName(lower(request.databaseName()))
          .tableName(lower(request.tableName())).values(p.values()).storageDescriptor(p.storageDescriptor())
          .parameters(p.parameters()).creationTime(Instant.now()).build());
    }
    return BatchCreatePartitionResponse.builder().errors(errors).build();
  }

  @Override
  public synchronized BatchDeletePartitionResponse batchDeletePartition(BatchDeletePartitionRequest request) {
    call("BatchDeletePartition", request.databaseName(), request.tableName());
    existing(request.databaseName(), request.tableName());
    Map<List<String>, Partition> held = partitionsOf(request.databaseName(), request.tableName());
    List<PartitionError> errors = new ArrayList<>();
    for (PartitionValueList v : request.partitionsToDelete()) {
      if (held.remove(v.values()) == null) {
        errors.add(partitionError(v.values(), "EntityNotFoundException", "Partition not found."));
      }
    }
    return BatchDeletePartitionResponse.builder().errors(errors).build();
  }

  // ---- the client itself ----

  /** GlueErrors reads the region from here. */
  @Override
  public GlueServiceClientConfiguration serviceClientConfiguration() {
    return GlueServiceClientConfiguration.builder().region(Region.US_EAST_1).build();
  }

  @Override
  public String serviceName() {
    return SERVICE_NAME;
  }

  @Override
  public void close() {
  }

  // ---- helpers ----

  /** Records the call, then throws the fault armed for this call of the operation, if any. */
  private void call(String operation, String database, String table) {
    calls.add(new Call(operation, database == null ? null : lower(database), table == null ? null : lower(table)));
    int n = seen.merge(operation, 1, Integer::sum);
    SdkException fault = faults.getOrDefault(operation, Map.of()).get(n);
    if (fault != null) {
      throw fault;
    }
  }

  private Map<String, Table> tablesOf(String database) {
    Map<String, Table> held = tables.get(lower(database));
    if (held == null) {
      throw notFound("Database " + database + " not found.");
    }
    return held;
  }

  private Table existing(String database, String name) {
    Table table = tablesOf(database).get(lower(name));
    if (table == null) {
      throw notFound("Table " + name + " not found.");
    }
    return table;
  }

  private Map<List<String>, Partition> partitionsOf(String database, String table) {
    return partitions.computeIfAbsent(lower(database) + "." + lower(table), k -> new LinkedHashMap<>());
  }

  /** The entry Glue stores for {@code input}: what the input names, nothing kept from before but its creation. */
  private static Table stored(String database, TableInput input, Instant created, String versionId) {
    return Table.builder().name(lower(input.name())).databaseName(lower(database)).description(input.description())
        .owner(input.owner()).retention(input.retention()).storageDescriptor(input.storageDescriptor())
        .partitionKeys(input.partitionKeys()).viewOriginalText(input.viewOriginalText())
        .viewExpandedText(input.viewExpandedText()).tableType(input.tableType()).parameters(input.parameters())
        .targetTable(input.targetTable()).createTime(created == null ? Instant.now() : created)
        .updateTime(Instant.now()).versionId(versionId).build();
  }

  private static EntityNotFoundException notFound(String message) {
    return (EntityNotFoundException) withDetails(EntityNotFoundException.builder(), "EntityNotFoundException", 400,
        message);
  }

  private static PartitionError partitionError(List<String> values, String code, String message) {
    return PartitionError.builder().partitionValues(values)
        .errorDetail(ErrorDetail.builder().errorCode(code).errorMessage(message).build()).build();
  }

  /** The exception with the error details the SDK unmarshals from Glue's answer (GlueErrors reads them). */
  private static SdkException withDetails(AwsServiceException.Builder builder, String code, int status,
      String message) {
    return builder.message(message).statusCode(status).requestId("in-memory-glue")
        .awsErrorDetails(AwsErrorDetails.builder().errorCode(code).errorMessage(message).serviceName("Glue").build())
        .build();
  }

  private static String lower(String name) {
    return name.toLowerCase(Locale.ROOT);
  }
}
