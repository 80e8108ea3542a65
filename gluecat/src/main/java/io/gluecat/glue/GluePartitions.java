package io.gluecat.glue;

import io.gluecat.entry.NewPartition;
import io.gluecat.entry.StoredPartition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueErrors.Call;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.glue.model.BatchCreatePartitionResponse;
import software.amazon.awssdk.services.glue.model.BatchDeletePartitionResponse;
import software.amazon.awssdk.services.glue.model.BatchUpdatePartitionFailureEntry;
import software.amazon.awssdk.services.glue.model.BatchUpdatePartitionRequestEntry;
import software.amazon.awssdk.services.glue.model.BatchUpdatePartitionResponse;
import software.amazon.awssdk.services.glue.model.ErrorDetail;
import software.amazon.awssdk.services.glue.model.GetPartitionsResponse;
import software.amazon.awssdk.services.glue.model.InvalidInputException;
import software.amazon.awssdk.services.glue.model.PartitionError;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.PartitionValueList;
import software.amazon.awssdk.services.glue.model.Segment;

/**
 * A catalog's Glue partition calls: listing over every page, batch creates, updates and deletes within Glue's
 * per-call limits. Part of the catalog's {@link GlueGateway} (same client, catalog id, location map and error mapping).
 */
public final class GluePartitions {
  private final GlueGateway gateway;
  /** Set once an endpoint answered segments with overlapping partitions: it ignores Segment. */
  private volatile boolean segmentsIgnored;
  private java.util.concurrent.ExecutorService pool;

  GluePartitions(GlueGateway gateway) {
    this.gateway = gateway;
  }

  /** BatchCreatePartition takes at most this many partitions per call (Glue's limit). */
  public static final int CREATE_PARTITIONS_PER_CALL = 100;
  /** BatchDeletePartition takes at most this many partitions per call (Glue's limit). */
  public static final int DELETE_PARTITIONS_PER_CALL = 25;

  /** Every partition object of a table, over all of Glue's pages; empty when the table has none. */
  public List<StoredPartition> list(TableName name) throws NoSuchTableException {
    return list(name, Optional.empty());
  }

  /** Each partition object's location, over all of Glue's pages. */
  public List<String> locations(TableName name) throws NoSuchTableException {
    return list(name).stream().map(StoredPartition::location).toList();
  }

  /**
   * The values (in key order; none when a partition has none) of the partition objects {@link #list(TableName,
   * List)} returns for {@code expressions}, or of every partition ({@link #listAll}) when there are none.
   */
  public List<List<String>> values(TableName name, Optional<List<String>> expressions) throws NoSuchTableException {
    List<StoredPartition> found = expressions.isPresent() ? list(name, expressions.get()) : listAll(name);
    return found.stream().map(StoredPartition::values).toList();
  }

  /**
   * The partition objects GetPartitions returns for {@code expression} (Glue's expression grammar), over
   * every page; all of them when there is no expression.
   */
  public List<StoredPartition> list(TableName name, Optional<String> expression) throws NoSuchTableException {
    try {
      return pages(name, expression, null);
    } catch (ExpressionRefused e) {
      // the expression only narrows the listing: without it every partition is read, and the scan prunes them
      return listAll(name);
    }
  }

  /**
   * The partition objects any of {@code expressions} selects, one GetPartitions listing (over its pages) per
   * expression, each partition once. If Glue refuses one of them, every partition is read instead (once), as
   * {@link #list(TableName, Optional)} does: the expressions only narrow the answer, the caller keeps what it
   * asked for.
   */
  public List<StoredPartition> list(TableName name, List<String> expressions) throws NoSuchTableException {
    List<StoredPartition> all = new ArrayList<>();
    java.util.Set<List<String>> seen = new java.util.HashSet<>();
    for (String expression : expressions) {
      List<StoredPartition> answer;
      try {
        answer = pages(name, Optional.of(expression), null);
      } catch (ExpressionRefused e) {
        return listAll(name);
      }
      for (StoredPartition p : answer) {
        if (seen.add(p.values())) {
          all.add(p);
        }
      }
    }
    return all;
  }

  /** Glue refused an expression as input (a value not of its key's type, a construct it does not parse). */
  private static final class ExpressionRefused extends RuntimeException {
    ExpressionRefused(Throwable cause) {
      super(null, cause, false, false);
    }
  }

  /**
   * Every partition object of a table, read in the catalog's {@code glue.partition-segments} segments at once
   * (GetPartitions' Segment of TotalSegments), each over all its pages. Glue's segments are disjoint and
   * together hold every partition; an endpoint that ignores Segment answers each with all partitions, which is
   * seen as a partition in two segments: the answer is then deduplicated, and this catalog's later listings
   * are made in one piece.
   */
  public List<StoredPartition> listAll(TableName name) throws NoSuchTableException {
    int total = gateway.options().partitionSegments();
    if (total < 2 || segmentsIgnored) {
      return list(name, Optional.empty());
    }
    List<java.util.concurrent.CompletableFuture<List<StoredPartition>>> segments = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      Segment segment = Segment.builder().segmentNumber(i).totalSegments(total).build();
      segments.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
        try {
          return pages(name, Optional.empty(), segment);
        } catch (NoSuchTableException e) {
          throw new java.util.concurrent.CompletionException(e);
        }
      }, pool()));
    }
    List<StoredPartition> all = new ArrayList<>();
    java.util.Set<List<String>> seen = new java.util.HashSet<>();
    boolean overlap = false;
    for (java.util.concurrent.CompletableFuture<List<StoredPartition>> segment : segments) {
      List<StoredPartition> partitions;
      try {
        partitions = segment.join();
      } catch (java.util.concurrent.CompletionException e) {
        segments.forEach(f -> f.cancel(false));
        if (e.getCause() instanceof NoSuchTableException n) {
          throw n;
        }
        throw e.getCause() instanceof RuntimeException r ? r : e;
      }
      for (StoredPartition p : partitions) {
        if (seen.add(p.values())) {
          all.add(p);
        } else {
          overlap = true;
        }
      }
    }
    if (overlap) {
      segmentsIgnored = true;
    }
    return all;
  }

  private List<StoredPartition> pages(TableName name, Optional<String> expression, Segment segment)
      throws NoSuchTableException {
    List<StoredPartition> all = new ArrayList<>();
    String token = null;
    do {
      String next = token;
      GetPartitionsResponse page;
      try {
        page = gateway.client().getPartitions(r -> r.catalogId(gateway.catalogId()).databaseName(name.database())
            .tableName(name.table()).expression(expression.orElse(null)).segment(segment).nextToken(next));
      } catch (InvalidInputException e) {
        if (expression.isPresent()) {
          throw new ExpressionRefused(e);
        }
        throw GlueGateway.rethrow(gateway.errors().translate(Call.GET_PARTITIONS, name.database(), name.table(), e),
            NoSuchTableException.class);
      } catch (SdkException e) {
        throw GlueGateway.rethrow(gateway.errors().translate(Call.GET_PARTITIONS, name.database(), name.table(), e),
            NoSuchTableException.class);
      }
      page.partitions().forEach(p -> all.add(new StoredPartition(gateway.locations().read(p))));
      token = page.nextToken();
    } while (token != null && !token.isEmpty());
    return all;
  }

  private synchronized java.util.concurrent.ExecutorService pool() {
    if (pool == null) {
      int threads = gateway.options().partitionSegments();
      java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
      // idle threads end after a while: a catalog that lists a table an hour keeps none
      java.util.concurrent.ThreadPoolExecutor executor = new java.util.concurrent.ThreadPoolExecutor(threads, threads,
          30, java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, "gluecat-" + gateway.options().catalogName() + "-partitions-"
                + count.incrementAndGet());
            t.setDaemon(true);
            return t;
          });
      executor.allowCoreThreadTimeOut(true);
      pool = executor;
    }
    return pool;
  }

  synchronized void close() {
    if (pool != null) {
      pool.shutdown();
    }
  }

  /**
   * Creates partition objects, {@value #CREATE_PARTITIONS_PER_CALL} per call. A partition that already
   * exists is not an error (the wanted state holds, e.g. after a retried call whose answer was lost); any
   * other per-partition error fails the whole, naming the table and the partitions, after every page was sent.
   */
  public void create(TableName name, List<NewPartition> partitions) {
    List<String> failed = new ArrayList<>();
    for (int from = 0; from < partitions.size(); from += CREATE_PARTITIONS_PER_CALL) {
      List<PartitionInput> page = new ArrayList<>();
      for (NewPartition p : partitions.subList(from, Math.min(partitions.size(), from + CREATE_PARTITIONS_PER_CALL))) {
        page.add(gateway.locations().write(p.sdkInput()));
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

  /**
   * Replaces one partition object (found by {@code values}) with {@code partition}, in one
   * {@code BatchUpdatePartition} (MiniStack has no {@code UpdatePartition}; Glue answers both). Any
   * per-partition error, a partition gone since it was read too, fails the statement, naming the table and the
   * partition.
   */
  public void update(TableName name, List<String> values, NewPartition partition) {
    BatchUpdatePartitionRequestEntry entry = BatchUpdatePartitionRequestEntry.builder().partitionValueList(values)
        .partitionInput(gateway.locations().write(partition.sdkInput())).build();
    BatchUpdatePartitionResponse answer = gateway.unchecked(Call.BATCH_UPDATE_PARTITION, name.database(), name.table(),
        () -> gateway.client().batchUpdatePartition(r -> r.catalogId(gateway.catalogId()).databaseName(name.database())
            .tableName(name.table()).entries(entry)));
    List<String> failed = new ArrayList<>();
    for (BatchUpdatePartitionFailureEntry e : answer.errors()) {
      failed.add(describe(e.partitionValueList(), e.errorDetail()));
    }
    if (!failed.isEmpty()) {
      throw gateway.errors().partitionErrors(Call.BATCH_UPDATE_PARTITION, name.database(), name.table(), failed);
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
