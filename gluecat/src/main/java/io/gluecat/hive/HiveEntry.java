package io.gluecat.hive;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A Hive-format entry as gluecat reads it (docs/entry-format.md, "Hive-format entries"): its SerDe, its
 * location, the Spark source its SerDe maps to, and its table properties. The entry package tells such an
 * entry apart ({@link EntryReader#isHiveFormat}); reading it is this package's, beside the tables it becomes.
 */
public record HiveEntry(String serde, String location, HiveSource source, Map<String, String> properties) {

  /**
   * Reads a Hive-format entry. Its location is checked as any entry's; Hive reads StorageDescriptor.Location,
   * never a SerDe {@code path}.
   *
   * @param catalog the catalog name, used only in error messages
   * @param avroAvailable whether spark-avro is on the classpath
   */
  public static HiveEntry read(String catalog, String database, StoredTable table, boolean avroAvailable) {
    String qualified = catalog + "." + new TableName(database, table.name());
    HiveSource source = HiveFormats.source(qualified, table, avroAvailable);
    String location = table.storageLocation().map(String::trim).orElse("");
    if (location.isEmpty()) {
      throw new InvalidGlueEntryException(String.format("Table %s has no location: its Glue entry has no "
          + "StorageDescriptor.Location", qualified));
    }
    EntryReader.checkLocation(qualified, location);
    Map<String, String> properties = new LinkedHashMap<>();
    EntryReader.withoutNullValues(table.parameters()).forEach((k, v) -> {
      if (!EntryReader.isHiveGenerated(k)) {
        properties.put(k, v);
      }
    });
    // HiveFormats.source has checked that there is a SerDe
    return new HiveEntry(table.serializationLibrary().orElseThrow().trim(), location, source, properties);
  }
}
