package io.gluecat.entry;

import java.util.List;
import software.amazon.awssdk.services.glue.model.Column;

/**
 * A Glue column as stored (a StorageDescriptor column or a partition key), in gluecat's terms, for code outside
 * {@code glue} and {@code entry} (issue #42): its name, its Hive type string and its comment, each as Glue
 * holds it (null when unset).
 */
public record StoredColumn(String name, String type, String comment) {

  /** Glue's columns, in their order; an empty list for none. */
  static List<StoredColumn> of(List<Column> columns) {
    return columns == null ? List.of()
        : columns.stream().map(c -> new StoredColumn(c.name(), c.type(), c.comment())).toList();
  }
}
