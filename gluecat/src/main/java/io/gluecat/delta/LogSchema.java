package io.gluecat.delta;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import org.apache.spark.sql.delta.DeltaColumnMapping$;
import org.apache.spark.sql.delta.DeltaTableUtils$;
import org.apache.spark.sql.delta.Snapshot;
import org.apache.spark.sql.delta.actions.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * What of a Delta snapshot's table definition the Glue entry keeps: the schema with its columns' generation
 * expressions, identity settings and defaults (as Spark's Hive path keeps field metadata in the schema JSON),
 * without what only Delta's writers use (column mapping's physical names and ids, Spark's internal keys, and an
 * identity column's high-water mark, which moves with every insert); the partition columns; the comment.
 * It is a function of the log's metadata action alone (its schema string, partition columns and description),
 * which is what lets a caller holding the LogSchema of an earlier snapshot skip computing it again.
 */
final class LogSchema {
  /** Identity columns record the last value handed out here; Glue's copy would change on every insert. */
  static final String IDENTITY_HIGH_WATER_MARK = "delta.identity.highWaterMark";

  final StructType schema;
  final List<String> partitionColumns;
  final Optional<String> comment;
  /** The metadata action this was computed from. */
  private final Metadata source;

  private LogSchema(StructType schema, List<String> partitionColumns, Optional<String> comment, Metadata source) {
    this.schema = schema;
    this.partitionColumns = partitionColumns;
    this.comment = comment;
    this.source = source;
  }

  /**
   * {@link #of(SparkSession, Snapshot)}, or {@code previous} itself when the snapshot's metadata holds what
   * {@code previous} was computed from (a commit that left the schema, partitioning and comment alone): a
   * comparison of the metadata's strings, no schema parsed or rebuilt.
   */
  static LogSchema of(SparkSession spark, Snapshot snapshot, LogSchema previous) {
    Metadata m = snapshot.metadata();
    if (previous != null && (m == previous.source || Objects.equals(m.schemaString(), previous.source.schemaString())
        && Objects.equals(m.partitionColumns(), previous.source.partitionColumns())
        && Objects.equals(m.description(), previous.source.description()))) {
      return previous;
    }
    return of(spark, snapshot);
  }

  static LogSchema of(SparkSession spark, Snapshot snapshot) {
    StructType schema = DeltaTableUtils$.MODULE$.removeSparkInternalMetadata(spark, snapshot.schema());
    schema = DeltaColumnMapping$.MODULE$.dropColumnMappingMetadata(schema);
    List<StructField> fields = new ArrayList<>();
    for (StructField f : schema.fields()) {
      fields.add(f.metadata().contains(IDENTITY_HIGH_WATER_MARK) ? new StructField(f.name(), f.dataType(),
          f.nullable(), new MetadataBuilder().withMetadata(f.metadata()).remove(IDENTITY_HIGH_WATER_MARK).build()) : f);
    }
    List<String> partitions = new ArrayList<>();
    // the Scala collection type differs between Delta lines; iterating it does not
    scala.collection.Iterator<String> it = ((scala.collection.Iterable<String>) (Object) snapshot.metadata()
        .partitionColumns()).iterator();
    while (it.hasNext()) {
      partitions.add(it.next());
    }
    return new LogSchema(new StructType(fields.toArray(new StructField[0])), partitions,
        Optional.ofNullable(snapshot.metadata().description()), snapshot.metadata());
  }

  /** Whether an entry holding this schema, these partition columns and this comment says what this does. */
  boolean sameAs(StructType entrySchema, List<String> entryPartitions, Optional<String> entryComment) {
    return comparable(schema).equals(comparable(entrySchema)) && partitionColumns.equals(entryPartitions)
        && comment.filter(c -> !c.isEmpty()).equals(entryComment.filter(c -> !c.isEmpty()));
  }

  /** Whether Glue holding {@code other} needs no update to hold this. */
  boolean sameAs(LogSchema other) {
    return other == this || sameAs(other.schema, other.partitionColumns, other.comment);
  }

  private static StructType comparable(StructType schema) {
    return CharVarcharUtils.replaceCharVarcharWithStringInSchema(schema);
  }
}
