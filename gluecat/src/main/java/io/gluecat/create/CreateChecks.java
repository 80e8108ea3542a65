package io.gluecat.create;

import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.TableName;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.spark.sql.connector.expressions.Transform;

/**
 * What a create, replace or rename is refused for before anything is written (no file, no Delta commit, no
 * Glue call that changes anything), each with the catalog and the table or database named: names Glue and
 * the engines reading it cannot use, a Delta table's bucketing, and table properties that the entry format reserves.
 */
public final class CreateChecks {
  /** Glue's limit for database and table names. */
  static final int MAX_NAME_LENGTH = 255;
  /**
   * Letters, digits and underscores: what Spark's own catalog accepts for table and database names, and
   * what Athena, Trino and Hive read without quoting. Glue itself would accept more (hyphens among them),
   * which those readers then mishandle.
   */
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_]+");

  private CreateChecks() {}

  /** {@code name} if it is a valid {@code kind} ("table" or "database") name; else a clear refusal. */
  public static String validName(String catalog, String kind, String name, String shown) {
    String problem = name.isEmpty() ? "is empty"
        : name.length() > MAX_NAME_LENGTH ? "is " + name.length() + " characters long; Glue allows " + MAX_NAME_LENGTH
        : !NAME.matcher(name).matches() ? "may only hold letters, digits and underscores (as in Spark's own catalog; "
            + "Athena, Trino and Hive do not read other names reliably)"
        : null;
    if (problem != null) {
      throw new IllegalArgumentException(String.format("gluecat catalog '%s': %s name '%s' (%s.%s) %s", catalog, kind,
          abbreviate(name), catalog, abbreviate(shown), problem));
    }
    return name;
  }

  /**
   * Data source options that only ROW FORMAT DELIMITED (a Hive SerDe table) gives: Spark hands such a create
   * to the catalog without a provider and without any hive.* key, just these as options.
   */
  private static final java.util.Set<String> ROW_FORMAT_OPTIONS = java.util.Set.of("field.delim", "line.delim",
      "collection.delim", "colelction.delim", "mapkey.delim", "escape.delim", "serialization.null.format");

  /** The checks of a create or replace that need only the statement. */
  public static void check(String catalog, TableName table, Transform[] partitions, CreateArguments arguments) {
    Map<String, String> properties = arguments.properties();
    boolean hiveFormat = properties.keySet().stream().anyMatch(k -> k.startsWith("hive."))
        || "hive".equalsIgnoreCase(properties.get(org.apache.spark.sql.connector.catalog.TableCatalog.PROP_PROVIDER))
        || (!properties.containsKey(org.apache.spark.sql.connector.catalog.TableCatalog.PROP_PROVIDER)
            && arguments.options().keySet().stream().anyMatch(ROW_FORMAT_OPTIONS::contains));
    if (hiveFormat) {
      throw new UnsupportedOperationException(String.format("Table %s.%s: Hive SerDe tables (STORED AS, ROW FORMAT) "
          + "are not supported by gluecat. Create a data source table instead: USING parquet | orc | csv | json | "
          + "avro | text | delta.", catalog, table));
    }
    for (Transform t : partitions) {
      boolean bucketing = t.name().equals("bucket") || t.name().equals("sorted_bucket");
      if (bucketing && EntryFormat.isDelta(arguments.provider())) {
        throw new UnsupportedOperationException(String.format("Table %s.%s: Delta tables cannot be bucketed "
            + "(CLUSTERED BY ... INTO n BUCKETS): Delta Lake has no bucketing. Partition by columns instead, or "
            + "create a bucketed table of a file format (USING parquet).", catalog, table));
      }
    }
    // OPTIONS would be stored in the entry, which never decides how storage is reached (see StorageTrust)
    java.util.Set<String> storageKeys = io.gluecat.storage.StorageTrust.storageKeys(arguments.options());
    if (!storageKeys.isEmpty()) {
      throw new IllegalArgumentException(String.format("Table %s.%s: the OPTIONS %s are Hadoop settings or class "
          + "names, which a table may not carry; set them for the catalog instead (spark.sql.catalog.%s.hadoop.<key>)",
          catalog, table, String.join(", ", storageKeys), catalog));
    }
    for (String key : arguments.userProperties().keySet()) {
      if (EntryFormat.isOwnedParameter(key, arguments.provider())) {
        throw new IllegalArgumentException(String.format("Table %s.%s: table property '%s' is reserved for the "
            + "Glue entry format and cannot be set", catalog, table, key));
      }
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 80 ? s : s.substring(0, 80) + "...";
  }

  /**
   * Generated and identity columns are Delta's: another provider would keep a plain column instead.
   *
   * @param column the statement's first generated or identity column, or null
   */
  public static void refuseDeltaOnlyColumn(String catalog, TableName table, String column,
      CreateArguments arguments) {
    if (column != null) {
      throw new IllegalArgumentException(String.format("Table %s.%s: column %s is a generated or identity column, "
          + "which only Delta tables have; provider %s would store it as a plain column. Create it USING delta.",
          catalog, table, column, arguments.provider()));
    }
  }
}
