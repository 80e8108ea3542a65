package io.gluecat.it.trino;

import java.util.ArrayList;
import java.util.List;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.glue.model.TableInput;
import software.amazon.awssdk.services.glue.model.UpdateTableRequest;

/**
 * Keeps the {@code TableInput} of every Glue UpdateTable request sent from this JVM (registered for every SDK
 * client through the SDK's global interceptor list). MiniStack merges an UpdateTable into the stored entry, where
 * AWS Glue replaces the entry; so "a parameter survives an update" is shown on what gluecat sent, not on what
 * MiniStack kept.
 */
public final class SentTableInputs implements ExecutionInterceptor {
  private static final List<UpdateTableRequest> UPDATES = new ArrayList<>();
  /** Per request of {@link #UPDATES}: the sending thread and gluecat's frames of its stack. */
  private static final List<String> SENDERS = new ArrayList<>();

  @Override
  public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
    if (context.request() instanceof UpdateTableRequest) {
      synchronized (UPDATES) {
        UPDATES.add((UpdateTableRequest) context.request());
        SENDERS.add(Thread.currentThread().getName() + " " + java.util.Arrays.stream(new Throwable().getStackTrace())
            .filter(f -> f.getClassName().startsWith("io.gluecat.") && !f.getClassName().startsWith("io.gluecat.it."))
            .map(f -> f.getClassName().substring(f.getClassName().lastIndexOf('.') + 1) + "." + f.getMethodName())
            .limit(8).toList());
      }
    }
  }

  /** Where each UpdateTable request for {@code database.table} was sent from (thread, gluecat's frames). */
  public static List<String> sendersOf(String database, String table) {
    synchronized (UPDATES) {
      List<String> found = new ArrayList<>();
      for (int i = 0; i < UPDATES.size(); i++) {
        UpdateTableRequest request = UPDATES.get(i);
        if (database.equals(request.databaseName()) && table.equals(request.tableInput().name())) {
          found.add(SENDERS.get(i));
        }
      }
      return found;
    }
  }

  /** The TableInputs of the UpdateTable requests sent so far for {@code database.table}, in order. */
  public static List<TableInput> updatesOf(String database, String table) {
    synchronized (UPDATES) {
      List<TableInput> found = new ArrayList<>();
      for (UpdateTableRequest request : UPDATES) {
        if (database.equals(request.databaseName()) && table.equals(request.tableInput().name())) {
          found.add(request.tableInput());
        }
      }
      return found;
    }
  }
}
