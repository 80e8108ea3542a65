package io.gluecat.hive;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.StructType;

/**
 * What a Hive-format Glue entry is to Spark: the file source that reads its files, that source's options,
 * and the columns as the entry declares them (data columns, then the partition keys).
 *
 * @param format a Spark file source: parquet, orc, csv, json or avro
 * @param options the source's read options, from the entry's SerDe and table parameters
 * @param schema data columns in stored order, then the partition keys in key order
 * @param partitionColumns the partition keys' names, in key order
 * @param projection the entry's partition projection (Athena's), which replaces its Glue partitions
 * @param jsonKeysIgnoreCase whether JSON keys match columns ignoring case (the OpenX SerDe's default)
 * @param writeOptions what the source's writer needs beyond {@code options} to write files the SerDe reads
 * @param writeRefusal why gluecat does not write this table, or empty when it does (parquet, orc, text)
 */
public record HiveSource(String format, Map<String, String> options, StructType schema,
    List<String> partitionColumns, java.util.Optional<PartitionProjection> projection, boolean jsonKeysIgnoreCase,
    Map<String, String> writeOptions, java.util.Optional<String> writeRefusal) {
  public HiveSource {
    options = Map.copyOf(options);
    partitionColumns = List.copyOf(partitionColumns);
    writeOptions = Map.copyOf(writeOptions);
  }
}
