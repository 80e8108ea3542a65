package io.gluecat.glue;

import io.gluecat.cache.MetadataCache;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.function.Consumer;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.AccessDeniedException;
import software.amazon.awssdk.services.glue.model.CreateTableRequest;
import software.amazon.awssdk.services.glue.model.DeleteTableRequest;
import software.amazon.awssdk.services.glue.model.GetTableRequest;
import software.amazon.awssdk.services.glue.model.GetTableResponse;
import software.amazon.awssdk.services.glue.model.GlueRequest;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;
import software.amazon.awssdk.services.glue.model.UpdateTableRequest;
import software.amazon.awssdk.utils.builder.SdkBuilder;

/**
 * The catalog's own Glue client as it lends it to the Iceberg catalog behind its Iceberg tables, so that Iceberg's
 * calls go to Glue with the catalog's credentials and role, endpoint, retries and metrics, as its own calls do.
 *
 * <p>Three things differ from the client itself. Iceberg's catalog closes the client it was given when it closes;
 * the lent one ignores that, as the gateway closes the client. A load of an Iceberg table would read the entry the
 * catalog has just read to tell the table's kind: within {@link #handingOver}, the first GetTable of that table on
 * the calling thread is answered with the catalog's read instead of a second call (nothing else is: Iceberg's
 * commits read the entry from Glue and compare its metadata location, as with its own client). And Iceberg's
 * changes of an entry (its commits, creates, renames and drops) are reported to the catalog's cache, as the
 * catalog's own writes are, so that no later read of the statement, nor a load handed that read, sees the entry
 * as it was before. A refusal by IAM comes back as Glue's AccessDeniedException, which Iceberg reports as such,
 * with the message of the catalog's own refusals ({@link GlueErrors}: the catalog, the table, the action, the role).
 */
public final class LentGlueClient {
  /** What the load in progress on this thread may take instead of its GetTable; one per thread, taken once. */
  private final ThreadLocal<HandedOver> handedOver = new ThreadLocal<>();
  private final GlueClient client;
  private final MetadataCache cache;
  private final GlueErrors errors;
  private final GlueClient lent;

  LentGlueClient(GlueClient client, MetadataCache cache, GlueErrors errors) {
    this.client = client;
    this.cache = cache;
    this.errors = errors;
    this.lent = (GlueClient) Proxy.newProxyInstance(GlueClient.class.getClassLoader(),
        new Class<?>[] {GlueClient.class}, (proxy, method, arguments) -> invoke(proxy, method, arguments));
  }

  /** The Glue client of the catalog whose gateway is {@code gateway}, to lend. */
  public static LentGlueClient of(GlueGateway gateway) {
    return new LentGlueClient(gateway.client(), gateway.cache(), gateway.errors());
  }

  /** A load through the lent client. */
  @FunctionalInterface
  public interface Load<T, E extends Exception> {
    T run() throws E;
  }

  /** The client to lend. */
  public GlueClient client() {
    return lent;
  }

  /** Runs {@code load}, whose first GetTable of {@code table} on this thread is answered with {@code entry}. */
  public <T, E extends Exception> T handingOver(TableName table, StoredTable entry, Load<T, E> load) throws E {
    handedOver.set(new HandedOver(table, entry.sdkTable()));
    try {
      return load.run();
    } finally {
      handedOver.remove();
    }
  }

  private record HandedOver(TableName name, Table entry) {
    boolean answers(GetTableRequest request) {
      return name.database().equalsIgnoreCase(request.databaseName()) && name.table().equalsIgnoreCase(request.name());
    }
  }

  private Object invoke(Object proxy, Method method, Object[] arguments) throws Throwable {
    switch (method.getName()) {
      case "close":
        return null; // the gateway's client, closed with the gateway
      case "equals":
        return proxy == arguments[0];
      case "hashCode":
        return System.identityHashCode(proxy);
      case "toString":
        return "the catalog's Glue client, lent";
      default:
        break;
    }
    GlueRequest request = glueRequest(method.getName(), arguments);
    HandedOver read = handedOver.get();
    if (read != null && request instanceof GetTableRequest get && read.answers(get)) {
      handedOver.remove();
      return GetTableResponse.builder().table(read.entry()).build();
    }
    String changed = request instanceof UpdateTableRequest update ? key(update.databaseName(), update.tableInput())
        : request instanceof CreateTableRequest create ? key(create.databaseName(), create.tableInput())
        : request instanceof DeleteTableRequest delete ? key(delete.databaseName(), delete.name())
        : null; // the cache key of the entry the call changes, if it changes one
    try {
      return method.invoke(client, arguments);
    } catch (InvocationTargetException e) {
      throw e.getCause() instanceof SdkException refused && GlueErrors.isAccessDenied(refused)
          ? accessDenied(method.getName(), request, refused) : e.getCause();
    } finally {
      if (changed != null) {
        cache.forget(changed); // whatever the outcome: a failed call may have been applied
      }
    }
  }

  /** A refused call as Glue's AccessDeniedException, with the message gluecat gives its own refused calls. */
  private Throwable accessDenied(String operation, GlueRequest glueRequest, SdkException refused) {
    GlueErrors.Call call = java.util.Arrays.stream(GlueErrors.Call.values())
        .filter(c -> c.operation().equalsIgnoreCase(operation)).findFirst().orElse(null);
    if (call == null || glueRequest == null) {
      return refused;
    }
    String database = field(glueRequest, "DatabaseName");
    String table = field(glueRequest, "Name");
    if (database == null) { // a database call: its name is the database's
      database = table;
      table = null;
    } else if (table == null) {
      table = field(glueRequest, "TableName");
      if (table == null && glueRequest.getValueForField("TableInput", TableInput.class).isPresent()) {
        table = glueRequest.getValueForField("TableInput", TableInput.class).get().name();
      }
    }
    Exception translated = errors.translate(call, database, table, refused);
    return AccessDeniedException.builder().message(translated.getMessage()).cause(refused)
        .statusCode(refused instanceof AwsServiceException aws ? aws.statusCode() : 403).build();
  }

  /** The request of a call that passed it, or the consumer of its builder (GlueClient's other form). */
  @SuppressWarnings("unchecked")
  private static GlueRequest glueRequest(String operation, Object[] arguments) {
    Object given = arguments != null && arguments.length == 1 ? arguments[0] : null;
    if (given instanceof GlueRequest request) {
      return request;
    }
    if (!(given instanceof Consumer<?> mutation)) {
      return null;
    }
    for (Method m : GlueClient.class.getMethods()) {
      if (m.getName().equals(operation) && m.getParameterCount() == 1
          && GlueRequest.class.isAssignableFrom(m.getParameterTypes()[0])) {
        try {
          Object builder = m.getParameterTypes()[0].getMethod("builder").invoke(null);
          ((Consumer<Object>) mutation).accept(builder);
          return (GlueRequest) ((SdkBuilder<?, ?>) builder).build();
        } catch (ReflectiveOperationException e) {
          return null;
        }
      }
    }
    return null;
  }

  private static String field(GlueRequest request, String name) {
    return request.getValueForField(name, String.class).orElse(null);
  }

  private static String key(String database, String table) {
    TableName name = new TableName(database, table);
    return MetadataCache.tableKey(name.database(), name.table());
  }

  private static String key(String database, TableInput table) {
    return table == null ? null : key(database, table.name());
  }
}
