package io.gluecat.catalog;

import io.gluecat.GlueCatalogException;
import io.gluecat.InvalidGlueEntryException;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.config.CatalogOptions;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.GlueEntry;
import io.gluecat.entry.TableName;
import io.gluecat.files.FileTables;
import io.gluecat.glue.GlueGateway;
import io.gluecat.hive.HiveTable;
import io.gluecat.storage.CatalogHadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.catalog.CatalogStorageFormat;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.catalog.CatalogUtils;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.V1Table;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * Serves every Glue entry of one catalog as Spark's V1Table. It is the delegate of the DeltaCatalog that
 * gluecat builds: Delta turns Delta entries into its own tables and passes the others through. It only
 * loads; namespace calls go back to the catalog, and it never writes.
 */
public final class EntryCatalog implements TableCatalog, SupportsNamespaces {
  private final AbstractGlueCatalog catalog;
  private final CatalogNames names;
  private final GlueGateway glue;
  private final CatalogHadoopConf hadoop;

  EntryCatalog(AbstractGlueCatalog catalog, CatalogNames names, GlueGateway glue, CatalogHadoopConf hadoop) {
    this.catalog = catalog;
    this.names = names;
    this.glue = glue;
    this.hadoop = hadoop;
  }

  @Override
  public void initialize(String name, CaseInsensitiveStringMap options) {
    // built by AbstractGlueCatalog, already configured
  }

  @Override
  public String name() {
    return catalog.name();
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    TableName name = names.tableName(ident);
    if (name == null) {
      // Delta asks about path identifiers (delta.`/path`) while it creates tables: they are never in Glue.
      throw new NoSuchTableException(ident);
    }
    software.amazon.awssdk.services.glue.model.Table raw = glue.getTable(name);
    if (EntryReader.isHiveFormat(raw)) {
      return hiveTable(name, raw);
    }
    GlueEntry entry = entry(name, raw);
    return new V1Table(entry.isDelta() ? toCatalogTable(entry, new StructType(), List.of()) : toCatalogTable(entry));
  }

  /**
   * A Hive-format entry as a read-only table over Spark's file source of its format, its partitions read
   * from Glue when a scan lists its files (HiveTable says why it is not a V1Table).
   */
  /**
   * A crawler that finds a Delta table catalogs its files as a plain parquet table. Its files include the ones
   * Delta has removed, so reading them as parquet would return deleted rows: such an entry is refused.
   */
  private void refuseDeltaLocation(String qualified, EntryReader.HiveEntry entry, FileSystem fs) {
    Path log = new Path(entry.location(), "_delta_log");
    boolean delta;
    try {
      delta = fs.exists(log);
    } catch (IOException e) {
      throw new UncheckedIOException(String.format("Cannot read the location of %s, %s: %s", qualified,
          entry.location(), e.getMessage()), e);
    }
    if (delta) {
      throw new InvalidGlueEntryException(String.format("Table %s is a Hive-format entry (SerDe %s, no "
          + "spark.sql.sources.provider), but its location %s holds a Delta table (%s): read as plain files it "
          + "would return rows Delta has removed. Drop the entry (the data stays) and register the table as a "
          + "Delta table with gluecat's 'register' tool.", qualified, entry.serde(), entry.location(), log));
    }
  }

  private Table hiveTable(TableName name, software.amazon.awssdk.services.glue.model.Table raw) {
    String qualified = name() + "." + name;
    EntryReader.HiveEntry entry = EntryReader.readHive(name(), name.database(), raw, HiveTable.avroAvailable());
    refuseDeltaLocation(qualified, entry, hadoop.open(qualified, entry.location()));
    return new HiveTable(qualified, entry.serde(), entry.source(), entry.location(),
        hadoop.storageProperties(qualified, entry.source().options()), entry.properties(), raw.storageDescriptor(),
        new io.gluecat.hive.HivePartitions() {
          @Override
          public List<software.amazon.awssdk.services.glue.model.Partition> partitions(Optional<String> expression) {
            try {
              // a listing no filter narrows reads every partition: in parallel segments
              return expression.isPresent() ? glue.partitions().list(name, expression) : glue.partitions().listAll(name);
            } catch (NoSuchTableException e) {
              throw new GlueCatalogException(String.format("Table %s was dropped while it was read", qualified), e);
            }
          }

          @Override
          public void create(List<software.amazon.awssdk.services.glue.model.PartitionInput> partitions) {
            glue.partitions().create(name, partitions);
          }

          @Override
          public void delete(List<List<String>> values) {
            glue.partitions().delete(name, values);
          }
        });
  }

  /** A table's entry, read and checked; views are not tables here. */
  GlueEntry entry(TableName name) throws NoSuchTableException {
    return entry(name, glue.getTable(name));
  }

  /** {@link #entry(TableName)} of an entry already read. */
  GlueEntry entry(TableName name, software.amazon.awssdk.services.glue.model.Table table) throws NoSuchTableException {
    if (EntryReader.isView(table)) {
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
        && !catalog.options().extraProviders().contains(provider)) {
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
    return SparkCompat.catalogTable(identifier, storage, schema, entry.provider(),
        partitionColumns, entry.owner().orElse(""), entry.createTimeMillis(), entry.createVersion(),
        entry.properties(), entry.comment());
  }

  // ---- everything else belongs to the catalog ----

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    return catalog.listTables(namespace);
  }

  @Override
  public boolean tableExists(Identifier ident) {
    return catalog.tableExists(ident);
  }

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
  public String[][] listNamespaces() {
    return catalog.listNamespaces();
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    return catalog.listNamespaces(namespace);
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    return catalog.namespaceExists(namespace);
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    return catalog.loadNamespaceMetadata(namespace);
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

  /** Writes go through AbstractGlueCatalog, which decides the order of Delta and Glue; never through here. */
  private IllegalStateException internalOnly(String method) {
    return new IllegalStateException("gluecat internal error: " + method + " reached the entry catalog of '"
        + name() + "'; writes must go through the catalog itself");
  }
}
