package io.gluecat.entry;

import io.gluecat.InvalidGlueEntryException;
import org.apache.spark.sql.catalyst.util.CharVarcharUtils;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * A view's Glue entry, both ways (docs/entry-format.md, "Views"): the entry Spark's Hive path writes for a
 * view (HiveExternalCatalog plus HiveClientImpl.toHiveTable), so that the Hive path reads gluecat's views
 * and gluecat reads the Hive path's. Pure functions; the keys are Spark's {@code CatalogTable} view keys.
 */
public final class ViewFormat {
  private ViewFormat() {}

  public static final String VIEW_PREFIX = "view.";
  public static final String CATALOG_AND_NAMESPACE_NUM_PARTS = "view.catalogAndNamespace.numParts";
  public static final String CATALOG_AND_NAMESPACE_PART = "view.catalogAndNamespace.part.";
  /** Spark 2's form of the namespace: a database of the session catalog. */
  public static final String DEFAULT_DATABASE = "view.default.database";
  public static final String SQL_CONFIG_PREFIX = "view.sqlConfig.";
  public static final String QUERY_OUT_NUM_COLS = "view.query.out.numCols";
  public static final String QUERY_OUT_COL = "view.query.out.col.";
  public static final String SCHEMA_MODE = "view.schemaMode";
  /** Spark's name for the schema mode of a view that has none; never stored. */
  public static final String SCHEMA_MODE_UNSUPPORTED = "UNSUPPORTED";
  /** Where HiveClientImpl stores a view's default collation. */
  public static final String COLLATION = "collation";
  public static final String SESSION_CATALOG = "spark_catalog";

  /** Trino (and Athena, which writes Trino's form) marks its views with this parameter. */
  public static final String PRESTO_VIEW = "presto_view";
  public static final String PRESTO_VIEW_TEXT_PREFIX = "/* Presto View: ";

  /** The Spark view properties' reserved names ({@code TableCatalog.PROP_*}), typed fields of a ViewEntry. */
  public static final String PROP_COMMENT = "comment";
  public static final String PROP_OWNER = "owner";
  public static final String PROP_COLLATION = "collation";
  public static final String PROP_TABLE_TYPE = "table_type";

  /** Glue entries of every kind of view: Spark's, Hive's, Trino's, Athena's, Glue's. */
  public static boolean isView(Table table) {
    return EntryReader.isView(table);
  }

  /** {@link #isView(Table)} of an entry read whole. */
  public static boolean isView(StoredTable entry) {
    return isView(entry.sdkTable());
  }

  /** {@link #isTrinoView(Table)} of an entry read whole. */
  public static boolean isTrinoView(StoredTable entry) {
    return isTrinoView(entry.sdkTable());
  }

  /** {@link #read(String, String, Table)} of an entry read whole. */
  public static ViewEntry read(String catalog, String database, StoredTable entry) {
    return read(catalog, database, entry.sdkTable());
  }

  /** {@link #removedProperties(Table, ViewEntry)} of an entry read whole. */
  public static Set<String> removedProperties(StoredTable existing, ViewEntry view) {
    return removedProperties(existing.sdkTable(), view);
  }

  /** A view Trino or Athena wrote: its text is Trino SQL, which Spark cannot run. */
  public static boolean isTrinoView(Table table) {
    Map<String, String> parameters = table.hasParameters() ? table.parameters() : Map.of();
    String original = table.viewOriginalText();
    return "true".equalsIgnoreCase(parameters.get(PRESTO_VIEW))
        || (original != null && original.startsWith(PRESTO_VIEW_TEXT_PREFIX));
  }

  /**
   * Reads a view entry. Spark's entries give back every field they were written with; a view Hive wrote
   * (no Spark properties) gets its schema from the Glue columns; a Trino view comes back with its dialect
   * and no schema, for listing and a clear error on read.
   *
   * @param catalog the reading catalog's name: messages name it, and a recorded {@code spark_catalog} is read
   *     as this catalog ({@link #recordedIn})
   */
  public static ViewEntry read(String catalog, String database, Table table) {
    String qualified = catalog + "." + database + "." + table.name();
    Map<String, String> parameters = new LinkedHashMap<>();
    if (table.hasParameters()) {
      table.parameters().forEach((k, v) -> {
        if (k != null && v != null) {
          parameters.put(k, v);
        }
      });
    }
    if (isTrinoView(table)) {
      return ViewEntry.builder(database, table.name(), nonNull(table.viewOriginalText()))
          .owner(table.owner()).comment(table.description()).dialect(ViewEntry.Dialect.TRINO)
          .properties(userProperties(parameters)).build();
    }
    // Spark's Hive path runs the expanded text (the same as the original for Spark's views; Hive's own
    // views store their expansion there).
    String sql = Optional.ofNullable(table.viewExpandedText()).filter(t -> !t.isBlank())
        .orElse(nonNull(table.viewOriginalText()));
    if (sql.isBlank()) {
      throw new InvalidGlueEntryException(String.format("View %s has no query text: its Glue entry has neither "
          + "ViewExpandedText nor ViewOriginalText", qualified));
    }
    StructType schema = EntryReader.storedSchema(qualified, parameters).map(CharVarcharUtils::getRawSchema)
        .orElseGet(() -> columnsSchema(qualified, table.storageDescriptor()));

    List<String> catalogAndNamespace = catalogAndNamespace(qualified, parameters);
    Map<String, String> sqlConfigs = new LinkedHashMap<>();
    parameters.forEach((k, v) -> {
      if (k.startsWith(SQL_CONFIG_PREFIX)) {
        sqlConfigs.put(k.substring(SQL_CONFIG_PREFIX.length()), v);
      }
    });
    return ViewEntry.builder(database, table.name(), sql)
        .schema(schema)
        .comment(Optional.ofNullable(parameters.get(EntryFormat.COMMENT)).orElse(table.description()))
        .owner(table.owner())
        .collation(parameters.get(COLLATION))
        .currentCatalog(catalogAndNamespace.isEmpty() ? null : fromStored(catalogAndNamespace.get(0), catalog))
        .currentNamespace(catalogAndNamespace.isEmpty() ? List.of()
            : catalogAndNamespace.subList(1, catalogAndNamespace.size()))
        .sqlConfigs(sqlConfigs)
        .schemaMode(parameters.get(SCHEMA_MODE))
        .queryColumnNames(queryColumnNames(qualified, parameters))
        .properties(userProperties(parameters))
        .createVersion(parameters.getOrDefault(EntryFormat.CREATE_VERSION, ""))
        .createTimeMillis(table.createTime() == null ? 0L : table.createTime().toEpochMilli())
        .build();
  }

  /** A new entry for {@code view}, created by {@code sparkVersion}. */
  public static TableInput newEntry(ViewEntry view, String sparkVersion, int schemaThreshold) {
    requireSpark(view);
    Map<String, String> parameters = new LinkedHashMap<>();
    putOwned(parameters, view, sparkVersion, schemaThreshold);
    return build(view, parameters, view.owner());
  }

  /**
   * {@code existing} rewritten to define {@code view}: the keys this format owns are replaced, the view's user
   * properties are set and those in {@code removedProperties} removed; every other parameter, another tool's
   * or Hive's bookkeeping included, stays, as do the owner and the creating Spark version.
   */
  public static TableInput updatedEntry(Table existing, ViewEntry view, Set<String> removedProperties,
      int schemaThreshold) {
    requireSpark(view);
    Map<String, String> old = existing.hasParameters() ? existing.parameters() : Map.of();
    Map<String, String> parameters = new LinkedHashMap<>();
    old.forEach((k, v) -> {
      if (!isOwned(k) && !removedProperties.contains(k)) {
        parameters.put(k, v);
      }
    });
    String createVersion = old.getOrDefault(EntryFormat.CREATE_VERSION, "");
    putOwned(parameters, view, createVersion, schemaThreshold);
    return build(view, parameters, view.owner().or(() -> Optional.ofNullable(existing.owner())));
  }

  /** The user properties of {@code existing} that {@code view} no longer has (what an ALTER VIEW removed). */
  public static Set<String> removedProperties(Table existing, ViewEntry view) {
    Set<String> removed = new java.util.HashSet<>(userProperties(existing.hasParameters() ? existing.parameters()
        : Map.of()).keySet());
    removed.removeAll(view.properties().keySet());
    return removed;
  }

  /**
   * A view from what Spark's view API hands over: its properties carry the comment, owner, collation and
   * table type under Spark's reserved names; these become typed fields and leave the user properties.
   * A user property in a key this format owns is refused, naming it.
   */
  public static ViewEntry fromSpark(String catalog, String database, String name, String sql, StructType schema,
      Map<String, String> sparkProperties, String currentCatalog, List<String> currentNamespace,
      Map<String, String> sqlConfigs, String schemaMode, List<String> queryColumnNames) {
    Map<String, String> properties = new LinkedHashMap<>(sparkProperties);
    String comment = properties.remove(PROP_COMMENT);
    String owner = properties.remove(PROP_OWNER);
    String collation = properties.remove(PROP_COLLATION);
    properties.remove(PROP_TABLE_TYPE);
    for (String key : properties.keySet()) {
      if (isOwned(key) || key.startsWith("spark.sql.")) {
        throw new IllegalArgumentException(String.format("view %s.%s.%s: property '%s' is reserved for the Glue "
            + "entry format and cannot be set", catalog, database, name, key));
      }
    }
    return ViewEntry.builder(database, name, sql)
        .schema(schema).comment(comment).owner(owner).collation(collation)
        .currentCatalog(currentCatalog).currentNamespace(currentNamespace).sqlConfigs(sqlConfigs)
        .schemaMode(SCHEMA_MODE_UNSUPPORTED.equals(schemaMode) ? null : schemaMode)
        .queryColumnNames(queryColumnNames).properties(properties).build();
  }

  /** The properties Spark shows for the view: the user's plus comment, owner and collation. */
  public static Map<String, String> sparkProperties(ViewEntry view) {
    Map<String, String> properties = new LinkedHashMap<>(view.properties());
    view.comment().ifPresent(c -> properties.put(PROP_COMMENT, c));
    view.owner().ifPresent(o -> properties.put(PROP_OWNER, o));
    view.collation().ifPresent(c -> properties.put(PROP_COLLATION, c));
    return properties;
  }

  /**
   * The view as its entry records it. In Glue, a view's catalog {@code spark_catalog} is the Glue catalog that
   * holds the view: Spark's Hive path on the Glue client records it so, and so does gluecat as spark_catalog.
   * A named gluecat catalog writes its own name that way too, so that the Hive path, session mode and any
   * other name the catalog has elsewhere resolve the view's unqualified table names in the same Glue catalog.
   */
  public static ViewEntry recordedIn(ViewEntry view, String homeCatalog) {
    return view.currentCatalog().filter(c -> c.equalsIgnoreCase(homeCatalog) && !c.equals(SESSION_CATALOG))
        .map(c -> view.toBuilder().currentCatalog(SESSION_CATALOG).build()).orElse(view);
  }

  /** A recorded catalog as the reading catalog resolves it: {@code spark_catalog} is the catalog itself. */
  private static String fromStored(String recorded, String homeCatalog) {
    return recorded.equalsIgnoreCase(SESSION_CATALOG) ? homeCatalog : recorded;
  }

  /** Parameters this format writes for a view: an update rewrites these and keeps every other key. */
  public static boolean isOwned(String key) {
    return key.startsWith(VIEW_PREFIX) || key.startsWith(EntryFormat.SCHEMA) || key.equals(EntryFormat.CREATE_VERSION)
        || key.equals(EntryFormat.COMMENT) || key.equals(COLLATION);
  }

  private static void requireSpark(ViewEntry view) {
    if (view.dialect() != ViewEntry.Dialect.SPARK) {
      throw new IllegalArgumentException("only Spark views are written: " + view.qualifiedName() + " is "
          + view.dialect().label());
    }
  }

  private static void putOwned(Map<String, String> parameters, ViewEntry view, String createVersion,
      int schemaThreshold) {
    parameters.putAll(view.properties());
    parameters.put(EntryFormat.CREATE_VERSION, createVersion);
    new EntryWriter(createVersion, schemaThreshold).putSchema(parameters, view.schema());
    putContext(parameters, view);
    view.comment().ifPresent(c -> parameters.put(EntryFormat.COMMENT, c));
    view.collation().ifPresent(c -> parameters.put(COLLATION, c));
  }

  /**
   * The properties of the view as Spark's own catalog holds them in a CatalogTable: the user's and the
   * view.* keys that tell Spark where and how to resolve the query.
   */
  public static Map<String, String> catalogTableProperties(ViewEntry view) {
    Map<String, String> properties = new LinkedHashMap<>(view.properties());
    putContext(properties, view);
    view.collation().ifPresent(c -> properties.put(COLLATION, c));
    return properties;
  }

  private static void putContext(Map<String, String> parameters, ViewEntry view) {
    List<String> catalogAndNamespace = new ArrayList<>();
    view.currentCatalog().ifPresent(catalogAndNamespace::add);
    if (!catalogAndNamespace.isEmpty()) {
      catalogAndNamespace.addAll(view.currentNamespace());
      parameters.put(CATALOG_AND_NAMESPACE_NUM_PARTS, Integer.toString(catalogAndNamespace.size()));
      for (int i = 0; i < catalogAndNamespace.size(); i++) {
        parameters.put(CATALOG_AND_NAMESPACE_PART + i, catalogAndNamespace.get(i));
      }
    }
    view.sqlConfigs().forEach((k, v) -> parameters.put(SQL_CONFIG_PREFIX + k, v));
    if (!view.queryColumnNames().isEmpty()) {
      parameters.put(QUERY_OUT_NUM_COLS, Integer.toString(view.queryColumnNames().size()));
      for (int i = 0; i < view.queryColumnNames().size(); i++) {
        parameters.put(QUERY_OUT_COL + i, view.queryColumnNames().get(i));
      }
    }
    view.schemaMode().ifPresent(m -> parameters.put(SCHEMA_MODE, m));
  }

  private static TableInput build(ViewEntry view, Map<String, String> parameters, Optional<String> owner) {
    List<Column> columns = new ArrayList<>();
    for (StructField field : view.schema().fields()) {
      columns.add(EntryWriter.column(field));
    }
    StorageDescriptor sd = EntryWriter.storage(columns, SerDeInfo.builder()
        .serializationLibrary(EntryFormat.LAZY_SIMPLE_SERDE)
        .parameters(Map.of(EntryFormat.SERIALIZATION_FORMAT, "1")).build());
    return TableInput.builder()
        .name(view.name())
        .description(view.comment().map(c -> EntryWriter.cutUtf8(c, EntryFormat.MAX_DESCRIPTION_BYTES)).orElse(null))
        .owner(owner.orElse(null))
        .retention(0)
        .storageDescriptor(sd)
        .partitionKeys(List.of())
        .viewOriginalText(view.sql())
        .viewExpandedText(view.sql())
        .tableType(EntryFormat.GLUE_VIRTUAL_VIEW)
        .parameters(parameters)
        .build();
  }

  /** Parameters a user set: neither the format's keys nor Spark's or Hive's bookkeeping. */
  private static Map<String, String> userProperties(Map<String, String> parameters) {
    Map<String, String> properties = new LinkedHashMap<>();
    parameters.forEach((k, v) -> {
      if (!isOwned(k) && !EntryReader.isHiveGenerated(k) && !k.equals(PRESTO_VIEW)) {
        properties.put(k, v);
      }
    });
    return properties;
  }

  private static List<String> catalogAndNamespace(String qualified, Map<String, String> parameters) {
    String declared = parameters.get(CATALOG_AND_NAMESPACE_NUM_PARTS);
    if (declared == null) {
      String database = parameters.get(DEFAULT_DATABASE);
      return database == null ? List.of() : List.of(SESSION_CATALOG, database);
    }
    return EntryReader.numberedValues("View " + qualified, parameters, CATALOG_AND_NAMESPACE_NUM_PARTS,
        CATALOG_AND_NAMESPACE_PART, "catalog or namespace part");
  }

  private static List<String> queryColumnNames(String qualified, Map<String, String> parameters) {
    return EntryReader.numberedValues("View " + qualified, parameters, QUERY_OUT_NUM_COLS, QUERY_OUT_COL,
        "query column");
  }


  /** A view Hive wrote has no Spark schema: its Glue columns are Hive types, which Spark's parser reads. */
  private static StructType columnsSchema(String qualified, StorageDescriptor sd) {
    StructType schema = new StructType();
    if (sd == null || !sd.hasColumns()) {
      return schema;
    }
    for (Column c : sd.columns()) {
      try {
        StructField field = new StructField(c.name(), DataType.fromDDL(c.type()), true,
            Metadata.empty());
        schema = schema.add(c.comment() == null ? field : field.withComment(c.comment()));
      } catch (RuntimeException e) {
        throw new InvalidGlueEntryException(String.format("View %s has column %s of type '%s', which Spark cannot "
            + "read", qualified, c.name(), c.type()), e);
      }
    }
    return schema;
  }

  private static String nonNull(String s) {
    return s == null ? "" : s;
  }
}
