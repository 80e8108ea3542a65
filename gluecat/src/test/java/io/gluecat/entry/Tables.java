package io.gluecat.entry;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;

/** Table definitions for the entry format tests. */
final class Tables {
  private Tables() {}

  static StructType schema(String ddl) {
    return StructType.fromDDL(ddl);
  }

  static TableDefinition table(String provider, String ddl, List<String> partitions, String location) {
    return new TableDefinition(new TableName("sales", "orders"), provider, schema(ddl), partitions, location,
        Optional.empty(), Map.of(), Map.of());
  }

  static TableDefinition withComment(TableDefinition t, String comment) {
    return new TableDefinition(t.name(), t.provider(), t.schema(), t.partitionColumns(), t.location(),
        Optional.of(comment), t.properties(), t.storageProperties());
  }

  static TableDefinition withProperties(TableDefinition t, Map<String, String> properties,
      Map<String, String> storage) {
    return new TableDefinition(t.name(), t.provider(), t.schema(), t.partitionColumns(), t.location(),
        t.comment(), properties, storage);
  }

  static DataType type(String ddl) {
    return DataType.fromDDL(ddl);
  }
}
