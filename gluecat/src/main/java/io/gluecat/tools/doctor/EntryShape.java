package io.gluecat.tools.doctor;

import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.StoredTable;
import java.util.Map;

/**
 * What an entry is, from the entry's shape alone (no Glue or storage call). Where its data lives is the entry's
 * own to say: {@link StoredTable#serdePath}, {@link StoredTable#realStorageLocation}, {@link StoredTable#readLocation}.
 */
public final class EntryShape {
  private EntryShape() {
  }

  /** The kind of an entry, from its shape alone. */
  public static Kind kindOf(StoredTable t) {
    Map<String, String> p = t.parameters();
    if (t.isView()) {
      return Kind.VIEW;
    }
    if (t.isResourceLink()) {
      return Kind.UNREADABLE;
    }
    if (EntryFormat.TABLE_TYPE_ICEBERG.equalsIgnoreCase(p.get(EntryFormat.TABLE_TYPE))) {
      return Kind.ICEBERG;
    }
    String provider = p.get(EntryFormat.PROVIDER);
    if (provider == null || provider.trim().isEmpty()) {
      return t.serializationLibrary().isPresent() ? Kind.HIVE_SERDE : Kind.UNREADABLE;
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
}
