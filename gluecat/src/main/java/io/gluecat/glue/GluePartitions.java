package io.gluecat.glue;

import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueErrors.Call;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.glue.model.BatchCreatePartitionResponse;
import software.amazon.awssdk.services.glue.model.BatchDeletePartitionResponse;
import software.amazon.awssdk.services.glue.model.ErrorDetail;
import software.amazon.awssdk.services.glue.model.GetPartitionsResponse;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.PartitionError;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.PartitionValueList;

/**
 * A catalog's Glue partition calls: listing over every page, batch creates and deletes within Glue's per-call
 * limits. Part of the catalog's {@link GlueGateway} (same client, catalog id, location map and error mapping).
 */
public final class GluePartitions {
  private final GlueGateway gateway;

  GluePartitions(GlueGateway gateway) {
    this.gateway = gateway;
  }

  /** BatchCreatePartition takes at most this many partitions per call (Glue's limit). */
  public static final int CREATE_PARTITIONS_PER_CALL = 100;
  /** BatchDeletePartition takes at most this many partitions per call (Glue's limit). */
  public static final int DELETE_PARTITIONS_PER_CALL = 25;

  /** Every partition object of a table, over all of Glue's pages; empty when the table has none. */
  public List<Partition> list(TableName name) throws NoSuchTableException {
    List<Partition> all = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      GetPartitionsResponse page;
      try {
        page = gateway.client().getPartitions(r -> r.catalogId(gateway.catalogId()).databaseName(name.database())
            .tableName(name.table()).nextToken(next));
      } catch (SdkException e) {
        throw GlueGateway.rethrow(gateway.errors().translate(Call.GET_PARTITIONS, name.database(), name.table(), e),
            NoSuchTableException.class);
      }
      page.partitions().forEach(p -> all.add(gateway.locations().read(p)));
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return all;
  }

  /**
   * Creates partition objects, {@value #CREATE_PARTITIONS_PER_CALL} per call. A partition that already
   * exists is not an error (the wanted state holds, e.g. after a retried call whose answer was lost); any
   * other per-partition error fails the whole, naming the table and the partitions, after every page was sent.
   */
  public void create(TableName name, List<PartitionInput> partitions) {
    List<String> failed = new ArrayList<>();
    for (int from = 0; from < partitions.size(); from += CREATE_PARTITIONS_PER_CALL) {
      List<PartitionInput> page = new ArrayList<>();
      for (PartitionInput p : partitions.subList(from, Math.min(partitions.size(), from + CREATE_PARTITIONS_PER_CALL))) {
        page.add(gateway.locations().write(p));
      }
      BatchCreatePartitionResponse answer = gateway.unchecked(Call.BATCH_CREATE_PARTITION, name.database(), name.table(),
          () -> gateway.client().batchCreatePartition(r -> r.catalogId(gateway.catalogId()).databaseName(name.database())
              .tableName(name.table()).partitionInputList(page)));
      for (PartitionError e : answer.errors()) {
        if (!isCode(e.errorDetail(), "AlreadyExistsException")) {
          failed.add(describe(e.partitionValues(), e.errorDetail()));
        }
      }
    }
    if (!failed.isEmpty()) {
      throw gateway.errors().partitionErrors(Call.BATCH_CREATE_PARTITION, name.database(), name.table(), failed);
    }
  }

  /**
   * Deletes partition objects (never data) by their values, {@value #DELETE_PARTITIONS_PER_CALL} per call.
   * A partition already gone is not an error; any other per-partition error fails the whole, naming them.
   */
  public void delete(TableName name, List<List<String>> values) {
    List<String> failed = new ArrayList<>();
    for (int from = 0; from < values.size(); from += DELETE_PARTITIONS_PER_CALL) {
      List<PartitionValueList> page = new ArrayList<>();
      for (List<String> v : values.subList(from, Math.min(values.size(), from + DELETE_PARTITIONS_PER_CALL))) {
        page.add(PartitionValueList.builder().values(v).build());
      }
      BatchDeletePartitionResponse answer = gateway.unchecked(Call.BATCH_DELETE_PARTITION, name.database(), name.table(),
          () -> gateway.client().batchDeletePartition(r -> r.catalogId(gateway.catalogId()).databaseName(name.database())
              .tableName(name.table()).partitionsToDelete(page)));
      for (PartitionError e : answer.errors()) {
        if (!isCode(e.errorDetail(), "EntityNotFoundException")) {
          failed.add(describe(e.partitionValues(), e.errorDetail()));
        }
      }
    }
    if (!failed.isEmpty()) {
      throw gateway.errors().partitionErrors(Call.BATCH_DELETE_PARTITION, name.database(), name.table(), failed);
    }
  }

  private static boolean isCode(ErrorDetail detail, String code) {
    return detail != null && detail.errorCode() != null
        && (detail.errorCode().equals(code) || (detail.errorCode() + "Exception").equals(code));
  }

  private static String describe(List<String> values, ErrorDetail detail) {
    return values + ": " + (detail == null ? "unknown error"
        : detail.errorCode() + (detail.errorMessage() == null ? "" : " (" + detail.errorMessage() + ")"));
  }
}
