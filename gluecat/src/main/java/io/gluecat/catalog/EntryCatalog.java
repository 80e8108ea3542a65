package io.gluecat.catalog;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.config.CatalogOptions;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.EntryV1Table;
import io.gluecat.entry.GlueEntry;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.files.FileTable;
import io.gluecat.files.FileTables;
import io.gluecat.glue.GlueEntries;
import io.gluecat.glue.GlueGateway;
import io.gluecat.hive.HiveTables;
import io.gluecat.partitions.PartitionCommands;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.catalog.CatalogStorageFormat;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.catalog.CatalogTableType;
import org.apache.spark.sql.catalyst.catalog.CatalogUtils;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A catalog's Glue entries as Spark tables: Delta and file source entries as V1Tables, Hive-format entries as
 * {@link io.gluecat.hive.HiveTable}s (which Spark reads and writes as V2 tables). It is the delegate of the
 * DeltaCatalog that gluecat builds: Delta turns Delta entries into its own tables and passes the others through.
 * It lists, loads and reads namespaces (through {@link CatalogNamespaces}); it never writes.
 */
public final class EntryCatalog extends NamespaceReads implements TableCatalog {
  private final String name;
  private final CatalogOptions options;
  private final CatalogNames names;
  private final GlueGateway glue;
  private final GlueEntries stored;
  private final CatalogHadoopConf hadoop;
  private final CatalogNamespaces namespaces;

  EntryCatalog(String name, CatalogOptions options, CatalogNames names, GlueGateway glue, CatalogHadoopConf hadoop,
      CatalogNamespaces namespaces) {
    this.name = name;
    this.options = options;
    this.names = names;
    this.glue = glue;
    this.stored = new GlueEntries(glue);
    this.hadoop = hadoop;
    this.namespaces = namespaces;
  }

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    // built by AbstractGlueCatalog, already configured
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    TableName name = names.tableName(ident);
    if (name == null) {
      names.requireSinglePartNamespace(ident);
      // Delta asks about path identifiers (delta.`/path`) while it creates tables: they are never in Glue.
      throw new NoSuchTableException(ident);
    }
    StoredTable raw = stored.get(name);
    if (raw.isIceberg()) {
      throw new IcebergEntryFound(name(), name, raw);
    }
    if (raw.isHiveFormat()) {
      return HiveTables.load(name(), name, raw, hadoop, glue.partitions());
    }
    GlueEntry entry = entry(name, raw);
    Set<String> catalogSettings = hadoop.addedSettings(entry.storageProperties());
    return entry.isDelta() ? new EntryV1Table(toCatalogTable(entry, new StructType(), List.of()), catalogSettings)
        : new FileTable(toCatalogTable(entry), catalogSettings, partitionCommands(name, raw, entry));
  }

  /** The partition DDL and TRUNCATE of a file source table (for each table a load of it returns). */
  PartitionCommands partitionCommands(TableName name, StoredTable raw, GlueEntry entry) {
    StructType keys = new StructType();
    for (String column : entry.partitionColumns()) {
      // Glue keeps names in lower case, so an entry's partition key may differ in case from its column.
      StructField field = java.util.Arrays.stream(entry.schema().fields())
          .filter(f -> f.name().equalsIgnoreCase(column)).findFirst()
          .orElseThrow(() -> new InvalidGlueEntryException(String.format("gluecat catalog '%s': the entry of %s names "
              + "the partition column '%s', which is not among its columns", name(), name, column)));
      keys = keys.add(field);
    }
    return new PartitionCommands(name(), name, raw, keys, glue, hadoop,
        () -> names.forgetCachedData(name, entry.location()));
  }

  /** A table's entry, read and checked; views are not tables here. */
  GlueEntry entry(TableName name) throws NoSuchTableException {
    return entry(name, stored.get(name));
  }

  /** {@link #entry(TableName)} of an entry already read. */
  GlueEntry entry(TableName name, StoredTable table) throws NoSuchTableException {
    if (table.isView()) {
      throw new NoSuchTableException(Scala.list(name(), name.database(), name.table()));
    }
    return servedProvider(EntryReader.read(name(), name.database(), table));
  }

  /**
   * An entry's provider decides what the reader's Spark runs and connects to (a jdbc entry carries the URL
   * Spark opens), so only Delta, the file formats and the providers the catalog's {@code providers.extra}
   * allows are served.
   */
  private GlueEntry servedProvider(GlueEntry entry) {
    String provider = entry.provider().toLowerCase(java.util.Locale.ROOT);
    String qualified = name() + "." + entry.name();
    if (provider.equals("hive")) {
      throw new InvalidGlueEntryException(String.format("Table %s is a Hive SerDe table (provider 'hive'), which "
          + "gluecat does not serve; read it through a Hive metastore client or recreate it with USING <format>.",
          qualified));
    }
    if (!entry.isDelta() && !FileTables.isFileProvider(provider)
        && !options.extraProviders().contains(provider)) {
      throw new InvalidGlueEntryException(String.format("Table %s has the provider '%s', which catalog '%s' does not "
          + "serve: it serves delta and %s. A Glue entry's provider and options decide what Spark connects to, so "
          + "other providers are served only when allowed deliberately with the catalog option %s (e.g. "
          + "spark.sql.catalog.%s.%s=%s).", qualified, entry.provider(), name(), String.join(", ",
          new java.util.TreeSet<>(FileTables.PROVIDERS)), CatalogOptions.PROVIDERS_EXTRA, name(),
          CatalogOptions.PROVIDERS_EXTRA, provider));
    }
    return entry;
  }

  /**
   * The entry as Spark's CatalogTable. Its storage properties carry the catalog's shareable Hadoop settings
   * under the table's own options: Spark applies them to the table's reads and writes, and Delta the fs.*
   * ones to its log. The location is opened with all of the catalog's settings first (see
   * CatalogHadoopConf.open), which also refuses a file system this catalog did not configure.
   */
  CatalogTable toCatalogTable(GlueEntry entry) {
    return toCatalogTable(entry, entry.schema(), entry.partitionColumns());
  }

  /**
   * {@link #toCatalogTable(GlueEntry)} with the given schema and partition columns. Delta's catalog gets a Delta
   * entry with neither, as from its own metastore, where Delta keeps them out (it reads them from the log): where
   * Spark falls back to Delta's V1 source (streaming reads by name on Spark 3.5), it passes this table's schema to
   * Delta as one given by the user, which Delta refuses.
   */
  private CatalogTable toCatalogTable(GlueEntry entry, StructType schema, List<String> partitionColumns) {
    String qualified = name() + "." + entry.name();
    hadoop.open(qualified, entry.location());
    TableIdentifier identifier = new TableIdentifier(entry.name().table(),
        scala.Option.apply(entry.name().database()), scala.Option.apply(name()));
    CatalogStorageFormat storage = SparkCompat.storageFormat(CatalogUtils.stringToURI(entry.location()),
        hadoop.storageProperties(qualified, entry.storageProperties()));
    return SparkCompat.catalogTable(CatalogTableType.EXTERNAL(), null, identifier, storage, schema, entry.provider(),
        partitionColumns, entry.owner().orElse(""), entry.createTimeMillis(), entry.createVersion(),
        entry.properties(), entry.comment(), entry.statistics(),
        entry.bucketing().map(io.gluecat.entry.Bucketing::toSpark));
  }

  /** The database's tables; its views are not tables here, as on every Spark line. */
  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    String database = names.existingDatabaseName(namespace);
    List<StoredTable> entries = stored.list(database);
    if (entries.isEmpty()) {
      glue.existingDatabaseLocation(database); // an empty listing must still report a missing database, as Glue does
    }
    List<Identifier> result = new ArrayList<>();
    for (StoredTable t : entries) {
      if (!t.isView()) {
        result.add(Identifier.of(new String[] {database}, t.name().toLowerCase(Locale.ROOT)));
      }
    }
    return result.toArray(new Identifier[0]);
  }

  @Override
  public boolean tableExists(Identifier ident) {
    TableName table = names.tableName(ident);
    return table != null && stored.find(table).filter(t -> !t.isView()).isPresent();
  }

  // ---- namespaces are read from the catalog's; every write goes through the catalog itself ----

  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions, Map<String, String> props) {
    throw internalOnly("createTable");
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) {
    throw internalOnly("alterTable");
  }

  @Override
  public boolean dropTable(Identifier ident) {
    throw internalOnly("dropTable");
  }

  @Override
  public void renameTable(Identifier from, Identifier to) {
    throw internalOnly("renameTable");
  }

  @Override
  CatalogNamespaces namespaces() {
    return namespaces;
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata) {
    throw internalOnly("createNamespace");
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) {
    throw internalOnly("alterNamespace");
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade) {
    throw internalOnly("dropNamespace");
  }

  /** Writes go through the catalog (AbstractGlueCatalog), which decides the order of Delta and Glue; never through here. */
  private IllegalStateException internalOnly(String method) {
    return new IllegalStateException("gluecat internal error: " + method + " reached the entry catalog of '"
        + name() + "'; writes must go through the catalog itself");
  }
}
