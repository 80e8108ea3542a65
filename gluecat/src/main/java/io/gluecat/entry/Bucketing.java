package io.gluecat.entry;

import static io.gluecat.entry.EntryFormat.SCHEMA_BUCKET_COL_PREFIX;
import static io.gluecat.entry.EntryFormat.SCHEMA_NUM_BUCKETS;
import static io.gluecat.entry.EntryFormat.SCHEMA_NUM_BUCKET_COLS;
import static io.gluecat.entry.EntryFormat.SCHEMA_NUM_SORT_COLS;
import static io.gluecat.entry.EntryFormat.SCHEMA_SORT_COL_PREFIX;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.compat.Scala;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.catalyst.catalog.BucketSpec;
import org.apache.spark.sql.connector.expressions.BucketTransform;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.connector.expressions.LogicalExpressions;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.SortedBucketTransform;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A file source table's bucketing ({@code CLUSTERED BY (..) [SORTED BY (..)] INTO n BUCKETS}), kept as Spark's Hive
 * path keeps a data source table's: in the entry's parameters only ({@code spark.sql.sources.schema.numBuckets},
 * {@code numBucketCols}, {@code bucketCol.<n>}, {@code numSortCols}, {@code sortCol.<n>}), never in Hive's own
 * bucket fields, because Spark's bucket hash is not Hive's: Hive-path readers (Trino, Athena) read the files as an
 * unbucketed table, which is correct data. Column names are the table's, as Spark's writer matches them exactly.
 */
public record Bucketing(int numBuckets, List<String> bucketColumns, List<String> sortColumns) {
  public Bucketing {
    bucketColumns = List.copyOf(bucketColumns);
    sortColumns = List.copyOf(sortColumns);
  }

  /**
   * The bucketing a create's transforms give ({@code bucket} or {@code sorted_bucket}, as Spark turns
   * {@code CLUSTERED BY} and {@code bucketBy} into them), checked as Spark's own catalog checks it: the columns are
   * the table's (named in its case), none is a partition column; else a refusal naming {@code qualified}.
   */
  public static Optional<Bucketing> of(String qualified, Transform[] transforms, StructType schema,
      List<String> partitionColumns) {
    Bucketing found = null;
    for (Transform t : transforms) {
      Bucketing b;
      if (t instanceof SortedBucketTransform sorted) {
        b = new Bucketing((Integer) sorted.numBuckets().value(), names(sorted.columns()),
            names(sorted.sortedColumns()));
      } else if (t instanceof BucketTransform bucket) {
        b = new Bucketing((Integer) bucket.numBuckets().value(), names(bucket.columns()), List.of());
      } else {
        continue;
      }
      if (found != null) {
        throw new IllegalArgumentException(String.format("Table %s: a table has one CLUSTERED BY, not two",
            qualified));
      }
      found = new Bucketing(b.numBuckets, columns(qualified, "bucket", b.bucketColumns, schema, partitionColumns),
          columns(qualified, "sort", b.sortColumns, schema, partitionColumns));
      found.toSpark(); // Spark's own check of the number of buckets (spark.sql.sources.bucketing.maxBuckets)
    }
    return Optional.ofNullable(found);
  }

  private static List<String> names(scala.collection.Seq<NamedReference> references) {
    return Scala.javaList(references).stream().map(r -> String.join(".", r.fieldNames())).toList();
  }

  private static List<String> columns(String qualified, String kind, List<String> given, StructType schema,
      List<String> partitionColumns) {
    List<String> named = new ArrayList<>();
    for (String column : given) {
      String name = Arrays.stream(schema.fields()).map(StructField::name).filter(column::equalsIgnoreCase)
          .findFirst().orElseThrow(() -> new IllegalArgumentException(String.format("Table %s: %s column %s is not "
              + "one of its columns (%s)", qualified, kind, column, String.join(", ", schema.fieldNames()))));
      if (partitionColumns.stream().anyMatch(name::equalsIgnoreCase)) {
        throw new IllegalArgumentException(String.format("Table %s: %s column %s is a partition column; a table's "
            + "bucket and sort columns must be data columns, as in Spark's own catalog", qualified, kind, name));
      }
      named.add(name);
    }
    return named;
  }

  /** The bucketing an entry's parameters hold, as Spark's Hive path reads it; a broken one names the table. */
  static Optional<Bucketing> read(String qualified, Map<String, String> parameters, StructType schema) {
    String declared = parameters.get(SCHEMA_NUM_BUCKETS);
    if (declared == null) {
      return Optional.empty();
    }
    String subject = "Table " + qualified;
    int buckets = EntryReader.declaredCount(subject, SCHEMA_NUM_BUCKETS, declared, 1);
    List<String> bucket = EntryReader.numberedValues(subject, parameters, SCHEMA_NUM_BUCKET_COLS,
        SCHEMA_BUCKET_COL_PREFIX, "bucket column");
    if (bucket.isEmpty()) {
      throw new InvalidGlueEntryException(String.format("%s has %s but no bucket columns (%s)", subject,
          SCHEMA_NUM_BUCKETS, SCHEMA_NUM_BUCKET_COLS));
    }
    List<String> sort = EntryReader.numberedValues(subject, parameters, SCHEMA_NUM_SORT_COLS, SCHEMA_SORT_COL_PREFIX,
        "sort column");
    try {
      return Optional.of(new Bucketing(buckets, columns(qualified, "bucket", bucket, schema, List.of()),
          columns(qualified, "sort", sort, schema, List.of())));
    } catch (IllegalArgumentException e) {
      throw new InvalidGlueEntryException(e.getMessage().replace("Table " + qualified + ":", subject + "'s entry:"),
          e);
    }
  }

  /** The parameters Spark's Hive path writes for it; no sort keys without sort columns, as there. */
  void putInto(Map<String, String> parameters) {
    parameters.put(SCHEMA_NUM_BUCKETS, Integer.toString(numBuckets));
    parameters.put(SCHEMA_NUM_BUCKET_COLS, Integer.toString(bucketColumns.size()));
    for (int i = 0; i < bucketColumns.size(); i++) {
      parameters.put(SCHEMA_BUCKET_COL_PREFIX + i, bucketColumns.get(i));
    }
    if (!sortColumns.isEmpty()) {
      parameters.put(SCHEMA_NUM_SORT_COLS, Integer.toString(sortColumns.size()));
      for (int i = 0; i < sortColumns.size(); i++) {
        parameters.put(SCHEMA_SORT_COL_PREFIX + i, sortColumns.get(i));
      }
    }
  }

  /** Spark's BucketSpec, whose constructor checks the number against the session's maximum. */
  public BucketSpec toSpark() {
    return new BucketSpec(numBuckets, Scala.list(bucketColumns), Scala.list(sortColumns));
  }

  /** As a create states it: {@code CLUSTERED BY (a) [SORTED BY (b)] INTO n BUCKETS}. */
  public String sql() {
    return "CLUSTERED BY (" + String.join(", ", bucketColumns) + ")" + (sortColumns.isEmpty() ? ""
        : " SORTED BY (" + String.join(", ", sortColumns) + ")") + " INTO " + numBuckets + " BUCKETS";
  }

  /** The transform Spark makes of it, for the partitioning a table shows (saveAsTable compares it). */
  public Transform transform() {
    NamedReference[] bucket = bucketColumns.stream().map(Expressions::column).toArray(NamedReference[]::new);
    return sortColumns.isEmpty() ? LogicalExpressions.bucket(numBuckets, bucket) : LogicalExpressions.bucket(
        numBuckets, bucket, sortColumns.stream().map(Expressions::column).toArray(NamedReference[]::new));
  }
}
