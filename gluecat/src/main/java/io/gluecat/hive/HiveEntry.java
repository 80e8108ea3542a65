package io.gluecat.hive;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * A Hive-format entry as gluecat reads it (docs/entry-format.md, "Hive-format entries"): its SerDe, its
 * location, the Spark source its SerDe maps to, and its table properties. The entry package tells such an
 * entry apart ({@link EntryReader#isHiveFormat}); reading it is this package's, beside the tables it becomes.
 */
public record HiveEntry(String serde, String location, HiveSource source, Map<String, String> properties) {

  /** {@link #read(String, String, Table, boolean)} of an entry read whole. */
  public static HiveEntry read(String catalog, String database, StoredTable entry, boolean avroAvailable) {
    return read(catalog, database, entry.sdkTable(), avroAvailable);
  }

  /**
   * Reads a Hive-format entry. Its location is checked as any entry's; Hive reads StorageDescriptor.Location,
   * never a SerDe {@code path}.
   *
   * @param catalog the catalog name, used only in error messages
   * @param avroAvailable whether spark-avro is on the classpath
   */
  public static HiveEntry read(String catalog, String database, Table table, boolean avroAvailable) {
    String qualified = catalog + "." + new TableName(database, table.name());
    HiveSource source = HiveFormats.source(qualified, table, avroAvailable);
    StorageDescriptor sd = table.storageDescriptor();
    String location = sd.location() == null ? "" : sd.location().trim();
    if (location.isEmpty()) {
      throw new InvalidGlueEntryException(String.format("Table %s has no location: its Glue entry has no "
          + "StorageDescriptor.Location", qualified));
    }
    EntryReader.checkLocation(qualified, location);
    Map<String, String> properties = new LinkedHashMap<>();
    EntryReader.withoutNullValues(table.hasParameters() ? table.parameters() : Map.of()).forEach((k, v) -> {
      if (!EntryReader.isHiveGenerated(k)) {
        properties.put(k, v);
      }
    });
    return new HiveEntry(sd.serdeInfo().serializationLibrary().trim(), location, source, properties);
  }
}
