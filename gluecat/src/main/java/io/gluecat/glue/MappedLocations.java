package io.gluecat.glue;

import io.gluecat.config.LocationMap;
import java.util.Map;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.glue.model.Database;
import software.amazon.awssdk.services.glue.model.DatabaseInput;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.PartitionInput;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * The catalog's {@link LocationMap} applied to the Glue objects the gateway reads and writes: a table's or a
 * partition's StorageDescriptor.Location and SerDe {@code path}, and a database's LocationUri. Here rather than
 * in {@code config}, so that Glue's SDK model stays in {@code glue} and {@code entry}.
 */
final class MappedLocations {
  private static final String PATH = "path";

  private final LocationMap map;

  MappedLocations(LocationMap map) {
    this.map = map;
  }

  Table read(Table table) {
    if (map.isEmpty() || table.storageDescriptor() == null) {
      return table;
    }
    return table.toBuilder().storageDescriptor(map(table.storageDescriptor(), map::toHadoop)).build();
  }

  TableInput write(TableInput input) {
    if (map.isEmpty() || input.storageDescriptor() == null) {
      return input;
    }
    return input.toBuilder().storageDescriptor(map(input.storageDescriptor(), map::toStored)).build();
  }

  Partition read(Partition partition) {
    if (map.isEmpty() || partition.storageDescriptor() == null) {
      return partition;
    }
    return partition.toBuilder().storageDescriptor(map(partition.storageDescriptor(), map::toHadoop)).build();
  }

  PartitionInput write(PartitionInput input) {
    if (map.isEmpty() || input.storageDescriptor() == null) {
      return input;
    }
    return input.toBuilder().storageDescriptor(map(input.storageDescriptor(), map::toStored)).build();
  }

  Database read(Database database) {
    return map.isEmpty() || database.locationUri() == null ? database
        : database.toBuilder().locationUri(map.toHadoop(database.locationUri())).build();
  }

  DatabaseInput write(DatabaseInput input) {
    return map.isEmpty() || input.locationUri() == null ? input
        : input.toBuilder().locationUri(map.toStored(input.locationUri())).build();
  }

  private static StorageDescriptor map(StorageDescriptor sd, UnaryOperator<String> f) {
    StorageDescriptor.Builder b = sd.toBuilder().location(f.apply(sd.location()));
    SerDeInfo serde = sd.serdeInfo();
    if (serde != null && serde.hasParameters() && serde.parameters().containsKey(PATH)) {
      Map<String, String> parameters = new java.util.LinkedHashMap<>(serde.parameters());
      parameters.put(PATH, f.apply(parameters.get(PATH)));
      b.serdeInfo(serde.toBuilder().parameters(parameters).build());
    }
    return b.build();
  }
}
