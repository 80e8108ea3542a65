package io.gluecat.tools.doctor;

import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryReader;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;

/** What an entry is and where its data lives, from the entry's shape alone (no Glue or storage call). */
public final class EntryShape {
  private EntryShape() {
  }

  /** The kind of an entry, from its shape alone. */
  public static Kind kindOf(Table t) {
    Map<String, String> p = t.hasParameters() ? t.parameters() : Map.of();
    if (EntryReader.isView(t)) {
      return Kind.VIEW;
    }
    if (t.targetTable() != null) {
      return Kind.UNREADABLE;
    }
    if (EntryFormat.TABLE_TYPE_ICEBERG.equalsIgnoreCase(p.get(EntryFormat.TABLE_TYPE))) {
      return Kind.ICEBERG;
    }
    String provider = p.get(EntryFormat.PROVIDER);
    if (provider == null || provider.trim().isEmpty()) {
      StorageDescriptor sd = t.storageDescriptor();
      return sd != null && sd.serdeInfo() != null && sd.serdeInfo().serializationLibrary() != null
          ? Kind.HIVE_SERDE : Kind.UNREADABLE;
    }
    if (EntryFormat.isDelta(provider)) {
      if (provider.equals("DELTA") || p.containsKey("trino_query_id") || p.containsKey("trino_version")) {
        return Kind.TRINO_DELTA;
      }
      return EntryFormat.TABLE_TYPE_DELTA.equals(p.get(EntryFormat.TABLE_TYPE)) ? Kind.GLUECAT_DELTA
          : Kind.HIVE_PATH_DELTA;
    }
    return Kind.FILE_SOURCE;
  }

  /** The SerDe path, when set. */
  public static Optional<String> serdePath(Table t) {
    StorageDescriptor sd = t.storageDescriptor();
    if (sd == null || sd.serdeInfo() == null || !sd.serdeInfo().hasParameters()) {
      return Optional.empty();
    }
    return Optional.ofNullable(sd.serdeInfo().parameters().get(EntryFormat.PATH)).map(String::trim)
        .filter(s -> !s.isEmpty());
  }

  /** StorageDescriptor.Location, unless missing or a Spark placeholder. */
  public static Optional<String> realStorageLocation(Table t) {
    StorageDescriptor sd = t.storageDescriptor();
    return Optional.ofNullable(sd == null ? null : sd.location()).map(String::trim)
        .filter(s -> !s.isEmpty() && !s.endsWith(EntryFormat.PLACEHOLDER_SUFFIX));
  }

  /** The location gluecat (and Spark's Hive path) read: the SerDe path, else a real StorageDescriptor.Location. */
  public static Optional<String> readLocation(Table t) {
    return serdePath(t).or(() -> realStorageLocation(t));
  }
}
