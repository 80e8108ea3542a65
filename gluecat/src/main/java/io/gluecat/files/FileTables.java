package io.gluecat.files;

import io.gluecat.GlueCatalogException;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.config.CatalogOptions;
import io.gluecat.config.SparkEnvironment;
import io.gluecat.create.CreateArguments;
import io.gluecat.entry.Bucketing;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.EntryUpdate;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.GlueEntry;
import io.gluecat.entry.NewEntry;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueEntries;
import io.gluecat.glue.GlueGateway;
import io.gluecat.partitions.PartitionSync;
import io.gluecat.storage.CatalogHadoopConf;
import io.gluecat.storage.NewDirectory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Tables of Spark's file sources (parquet, orc, csv, json, avro, text) in Glue: gluecat writes their entry
 * as Spark's Hive path would and Spark reads and writes their files; partitions live in the file system.
 */
public final class FileTables {
  public static final Set<String> PROVIDERS = EntryFormat.FILE_FORMATS;
  /** Whether a stored provider is one of the file formats gluecat serves, by short or class-like name. */
  public static boolean isFileProvider(String provider) {
    return EntryFormat.fileFormat(provider).isPresent();
  }

  private final String catalog;
  private final CatalogOptions options;
  private final GlueGateway glue;
  private final GlueEntries entries;
  private final CatalogHadoopConf hadoop;
  private final PartitionSync partitions;
  private final CreateLocations locations;

  public FileTables(String catalog, CatalogOptions options, GlueGateway glue, CatalogHadoopConf hadoop,
      PartitionSync partitions) {
    this.catalog = catalog;
    this.options = options;
    this.glue = glue;
    this.entries = new GlueEntries(glue);
    this.hadoop = hadoop;
    this.partitions = partitions;
    this.locations = new CreateLocations(catalog, glue, hadoop);
  }

  /**
   * CREATE TABLE without a query: the entry is written, and a managed table's new directory created.
   * Everything that could be refused is checked first, so a refused statement writes nothing.
   */
  public void create(TableName name, StructType schema, Transform[] partitions, Map<String, String> properties)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    String provider = checkProvider(name, properties);
    List<String> partitionColumns = partitionColumns(name, partitions);
    Optional<String> databaseLocation = newTableDatabaseLocation(name);
    CreateArguments arguments = new CreateArguments(properties);
    String location = arguments.location(catalog, options, name, databaseLocation);
    TableDefinition definition = new TableDefinition(name, provider, schema, partitionColumns, location,
        arguments.comment(), arguments.userProperties(), arguments.options(),
        bucketing(name, partitions, schema, partitionColumns));
    NewDirectory made = null;
    if (arguments.explicitLocation().isEmpty()) {
      made = locations.make(name, location); // first, so that the entry never points at nothing
    }
    NewEntry entry = NewEntry.of(EntryWriter.forRunningSpark(), definition, arguments.owner(), databaseLocation);
    try {
      entries.create(name.database(), entry);
    } catch (RuntimeException e) {
      if (made != null) {
        Optional<GlueCatalogException> removed = locations.afterRefusal(e, made, false, location);
        if (removed.isPresent()) {
          throw removed.get();
        }
      }
      throw e;
    }
    if (arguments.explicitLocation().isPresent()) {
      syncAfterWrite(name, entry.written(), true); // a LOCATION may already hold partition directories
    }
  }

  /** The partition sync after a write, when the catalog's partitions.sync asks for it (see PartitionSync). */
  private void syncAfterWrite(TableName name, StoredTable written, boolean newEntry) {
    if (options.syncPartitionsAfterWrite()) {
      partitions.afterWrite(name, written, newEntry);
    }
  }

  /**
   * CTAS: the query's files are written at the table's location through Spark's own file source, then
   * the entry is created. A location that already holds files is refused, as Spark refuses it.
   */
  public FileStagedTable stageCreate(TableName name, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    String provider = checkProvider(name, properties);
    List<String> partitionColumns = partitionColumns(name, partitions);
    Optional<String> databaseLocation = newTableDatabaseLocation(name);
    return stagedCreate(name, provider, schema, partitionColumns, partitions, properties, databaseLocation);
  }

  /** The staged CTAS once its database was read and the table found missing. */
  private FileStagedTable stagedCreate(TableName name, String provider, StructType schema,
      List<String> partitionColumns, Transform[] partitions, Map<String, String> properties,
      Optional<String> databaseLocation) {
    CreateArguments arguments = new CreateArguments(properties);
    TableDefinition definition = stagedDefinition(name, provider, schema, partitionColumns, partitions, arguments,
        databaseLocation);
    NewDirectory before = locations.requireEmpty(name, definition.location());
    return new FileStagedTable(catalog + "." + name, definition, partitions, hadoop, () -> registerStaged(definition,
        before, () -> {
          NewEntry entry = NewEntry.of(EntryWriter.forRunningSpark(), definition, arguments.owner(), databaseLocation);
          entries.create(name.database(), entry);
          return entry.written();
        }, true));
  }

  /**
   * REPLACE [AS SELECT], CREATE OR REPLACE and saveAsTable in Overwrite mode. Like Spark's V1 overwrite
   * (drop, then create), the new table gets a new location: a new managed directory unless a LOCATION or
   * path is given, which must be empty. The old files stay where they are (gluecat never deletes data);
   * the entry is switched to the new definition, at its VersionId, only after the new files are written.
   */
  public FileStagedTable stageReplace(TableName name, StructType schema, Transform[] partitions,
      Map<String, String> properties, boolean orCreate, Runnable afterReplace)
      throws NoSuchNamespaceException, NoSuchTableException {
    String provider = checkProvider(name, properties);
    List<String> partitionColumns = partitionColumns(name, partitions);
    Optional<String> databaseLocation = glue.existingDatabaseLocation(name.database());
    Optional<StoredTable> existing = entries.find(name);
    if (existing.isPresent() && existing.get().isView()) {
      throw new IllegalArgumentException(String.format("%s.%s is a Glue view; gluecat does not replace views",
          catalog, name));
    }
    if (existing.isEmpty()) {
      if (!orCreate) {
        throw new NoSuchTableException(Scala.list(catalog, name.database(), name.table()));
      }
      return stagedCreate(name, provider, schema, partitionColumns, partitions, properties, databaseLocation);
    }
    StoredTable entry = existing.get();
    if (entry.isDelta()) {
      throw new UnsupportedOperationException(String.format("Table %s.%s is a Delta table; gluecat does not "
          + "replace it with a %s table. Drop it first (DROP TABLE never deletes data) or write it as Delta.",
          catalog, name, provider));
    }
    CreateArguments arguments = new CreateArguments(properties);
    TableDefinition definition = stagedDefinition(name, provider, schema, partitionColumns, partitions, arguments,
        databaseLocation);
    NewDirectory before = locations.requireEmpty(name, definition.location());
    return new FileStagedTable(catalog + "." + name, definition, partitions, hadoop, () -> {
      registerStaged(definition, before, () -> {
        EntryUpdate update = EntryUpdate.rewritten(EntryWriter.forRunningSpark(), entry.withoutStatistics(), definition,
            Set.of(), databaseLocation);
        entries.update(name.database(), update, entry.versionId());
        return update.written();
      }, false);
      afterReplace.run();
    });
  }

  /** Builds an entry and writes it to Glue (with the checked exceptions Glue's calls declare), giving it as written. */
  private interface EntryWrite {
    StoredTable run() throws Exception;
  }

  /** The definition of a table created or replaced as select, at a location that must be empty. */
  private TableDefinition stagedDefinition(TableName name, String provider, StructType schema,
      List<String> partitionColumns, Transform[] partitions, CreateArguments arguments,
      Optional<String> databaseLocation) {
    String location = arguments.location(catalog, options, name, databaseLocation);
    return new TableDefinition(name, provider, schema, partitionColumns, location, arguments.comment(),
        arguments.userProperties(), arguments.options(), bucketing(name, partitions, schema, partitionColumns));
  }

  /** The bucketing of CLUSTERED BY or bucketBy, checked against the table's columns (Bucketing.of). */
  private Optional<Bucketing> bucketing(TableName name, Transform[] partitions, StructType schema,
      List<String> partitionColumns) {
    return Bucketing.of(catalog + "." + name, partitions, schema, partitionColumns);
  }

  /**
   * The Glue write that follows the files of a staged create or replace. A replace without a query wrote
   * no files, so the directory is made first: an entry never points at nothing.
   */
  private void registerStaged(TableDefinition definition, NewDirectory before, EntryWrite write, boolean newEntry) {
    List<String> partitionColumns = definition.partitionColumns();
    locations.make(definition.name(), definition.location());
    StoredTable written;
    try {
      written = write.run();
    } catch (Exception e) {
      Optional<GlueCatalogException> removed = locations.afterRefusal(e, before, true, definition.location());
      if (removed.isPresent()) {
        throw removed.get();
      }
      throw new GlueCatalogException(String.format("The files of table %s.%s were written at %s, but writing its "
          + "Glue entry failed: %s. Register them with CREATE TABLE %s.%s (<columns>) USING %s%s%s LOCATION '%s' "
          + "(after DROP TABLE %s.%s if it still exists; DROP never deletes data).", catalog, definition.name(),
          definition.location(), e.getMessage(), catalog, definition.name(), definition.provider(),
          partitionColumns.isEmpty() ? "" : " PARTITIONED BY (" + String.join(", ", partitionColumns) + ")",
          definition.bucketing().map(b -> " " + b.sql()).orElse(""), definition.location(), catalog,
          definition.name()), e);
    }
    syncAfterWrite(definition.name(), written, newEntry);
  }

  /** The location of the database of a table about to be created, which must exist while the table must not. */
  private Optional<String> newTableDatabaseLocation(TableName name)
      throws NoSuchNamespaceException, TableAlreadyExistsException {
    Optional<String> databaseLocation = glue.existingDatabaseLocation(name.database());
    if (entries.find(name).isPresent()) {
      throw new TableAlreadyExistsException(Scala.list(catalog, name.database(), name.table()));
    }
    return databaseLocation;
  }

  /**
   * ALTER TABLE on a file source table changes its Glue entry, at the VersionId it was read with: add
   * columns, column comments and defaults ({@link FileSchemaChanges}), table properties, SET LOCATION and data
   * source options (SERDEPROPERTIES).
   * Changes Spark's own catalog refuses for data source tables (dropping, renaming or retyping columns) are
   * refused here too, before anything is written, with Spark's errors (AlterRefusals).
   */
  public void alter(TableName name, StoredTable stored, TableChange... changes) throws NoSuchTableException {
    GlueEntry current = EntryReader.read(catalog, name.database(), stored);
    List<TableChange> columnChanges = new ArrayList<>();
    Map<String, String> properties = new LinkedHashMap<>(current.properties());
    Map<String, String> storage = new LinkedHashMap<>(current.storageProperties());
    Set<String> removed = new HashSet<>();
    String location = current.location();
    Optional<String> comment = current.comment();
    for (TableChange change : changes) {
      if (change instanceof TableChange.AddColumn) {
        TableChange.AddColumn add = (TableChange.AddColumn) change;
        if (add.fieldNames().length != 1) {
          throw AlterRefusals.operation(catalog, name, "ADD COLUMN with qualified column");
        } else if (add.position() != null) {
          throw AlterRefusals.operation(catalog, name, "ADD COLUMN ... FIRST | AFTER");
        }
        columnChanges.add(change);
      } else if (FileSchemaChanges.isColumnChange(change)) {
        String[] path = ((TableChange.ColumnChange) change).fieldNames();
        if (path.length != 1) {
          throw AlterRefusals.operation(catalog, name, "ALTER COLUMN with qualified column");
        }
        if (Arrays.stream(current.schema().fieldNames()).noneMatch(path[0]::equals)) {
          throw new IllegalArgumentException(String.format("Table %s.%s has no column %s", catalog, name, path[0]));
        }
        columnChanges.add(change);
      } else if (change instanceof TableChange.SetProperty) {
        TableChange.SetProperty set = (TableChange.SetProperty) change;
        if (TableCatalog.PROP_LOCATION.equals(set.property())) {
          location = SparkEnvironment.qualify(set.value(), "table " + catalog + "." + name);
        } else if (TableCatalog.PROP_COMMENT.equals(set.property())) {
          comment = Optional.of(set.value());
        } else if (set.property().startsWith(TableCatalog.OPTION_PREFIX)) {
          storage.put(set.property().substring(TableCatalog.OPTION_PREFIX.length()), set.value());
        } else {
          properties.put(set.property(), set.value());
          removed.remove(set.property());
        }
      } else if (change instanceof TableChange.RemoveProperty) {
        String property = ((TableChange.RemoveProperty) change).property();
        if (TableCatalog.PROP_COMMENT.equals(property)) {
          comment = Optional.empty();
        } else {
          properties.remove(property);
          removed.add(property);
        }
      } else if (change instanceof TableChange.UpdateColumnType) {
        checkTypeChange(name, current, (TableChange.UpdateColumnType) change);
        columnChanges.add(change);
      } else {
        throw AlterRefusals.change(catalog, name, change);
      }
    }
    StructType schema = columnChanges.isEmpty() ? current.schema() : FileSchemaChanges.apply(current.schema(),
        current.partitionColumns(), columnChanges, current.provider(), // Spark's V1 commands' names, for its errors
        columnChanges.stream().anyMatch(TableChange.AddColumn.class::isInstance) ? "ALTER TABLE ADD COLUMNS"
            : "ALTER TABLE ALTER COLUMN");
    TableDefinition definition = new TableDefinition(name, current.provider(), schema, current.partitionColumns(),
        location, comment, properties, storage, current.bucketing());
    // a new location holds other files, so the statistics go, as Spark's catalog drops them on SET LOCATION
    EntryUpdate updated = EntryUpdate.rewritten(EntryWriter.forRunningSpark(),
        location.equals(current.location()) ? stored : stored.withoutStatistics(), definition, removed,
        () -> stored.placeholderBase().or(() -> glue.databaseLocation(name.database())));
    entries.update(name.database(), updated, stored.versionId());
    if (!location.equals(current.location())) {
      syncAfterWrite(name, updated.written(), false); // SET LOCATION: the partition objects follow the new directories
    }
  }

  private String checkProvider(TableName name, Map<String, String> properties) {
    String provider = new CreateArguments(properties).provider().toLowerCase(Locale.ROOT);
    boolean hiveFormat = properties.keySet().stream().anyMatch(k -> k.startsWith("hive."));
    if (provider.equals("hive") || hiveFormat) {
      throw new UnsupportedOperationException(String.format("Table %s.%s: Hive SerDe tables (STORED AS, ROW FORMAT) "
          + "are not supported by gluecat. Create a data source table instead: USING parquet | orc | csv | json | "
          + "avro | text | delta.", catalog, name));
    }
    if (provider.equals("iceberg")) {
      throw new UnsupportedOperationException(String.format("Table %s.%s: Apache Iceberg tables are created through "
          + "Iceberg's own Glue catalog, not gluecat: configure spark.sql.catalog.<name>="
          + "org.apache.iceberg.spark.SparkCatalog with catalog-impl=org.apache.iceberg.aws.glue.GlueCatalog.",
          catalog, name));
    }
    if (!PROVIDERS.contains(provider)) {
      throw new UnsupportedOperationException(String.format("Table %s.%s: provider '%s' is not supported by "
          + "gluecat; it creates delta, %s tables.", catalog, name, provider, String.join(", ", new java.util.TreeSet<>(PROVIDERS))));
    }
    return provider;
  }

  private List<String> partitionColumns(TableName name, Transform[] partitions) {
    List<String> columns = new ArrayList<>();
    for (Transform t : partitions) {
      if ("bucket".equals(t.name()) || "sorted_bucket".equals(t.name())) {
        continue; // the bucketing, see bucketing()
      }
      if (!"identity".equals(t.name())) {
        throw new UnsupportedOperationException(String.format("Table %s.%s: %s-partitioned tables are not supported "
            + "by gluecat; partition by columns instead.", catalog, name, t.name()));
      }
      NamedReference[] refs = t.references();
      columns.add(String.join(".", refs[0].fieldNames()));
    }
    return columns;
  }

  /**
   * A column's new type, as Spark's own catalog takes it for a data source table: a data column's string may change
   * its collation (the files hold the same strings; comparisons follow it); any other new type is refused with
   * Spark's error.
   */
  private void checkTypeChange(TableName name, GlueEntry current, TableChange.UpdateColumnType change) {
    String[] path = change.fieldNames();
    if (path.length != 1) {
      throw AlterRefusals.operation(catalog, name, "ALTER COLUMN with qualified column");
    }
    List<String> partitionColumns = current.partitionColumns();
    StructField column = Arrays.stream(current.schema().fields()).filter(f -> f.name().equalsIgnoreCase(path[0]))
        .findFirst().orElseThrow(() -> new IllegalArgumentException(String.format("Table %s.%s has no column %s",
            catalog, name, path[0])));
    boolean partitionColumn = partitionColumns.contains(column.name());
    if (partitionColumn || !SparkCompat.columnTypeChangeAllowed(column.dataType(), change.newDataType())) {
      String[] dataColumns = Arrays.stream(current.schema().fieldNames()).filter(c -> !partitionColumns.contains(c))
          .toArray(String[]::new);
      throw AlterRefusals.columnType(catalog, name, column, change, partitionColumn, dataColumns);
    }
  }
}
