package io.gluecat.catalog;

import io.gluecat.config.CatalogOptions;
import io.gluecat.delta.DeltaSupport;
import io.gluecat.delta.SessionChecks;
import io.gluecat.glue.GlueGateway;
import io.gluecat.partitions.PartitionSync;
import io.gluecat.partitions.PartitionSyncOwner;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.SupportsNamespaces;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableWritePrivilege;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * The catalog Spark calls, shared by every Spark line. Spark loads {@code io.gluecat.GlueCatalog}, which each
 * compat module defines as this class plus the methods only its Spark line has.
 *
 * <p>It only routes: table calls to {@link CatalogTables}, namespace calls to {@link CatalogNamespaces}. It
 * wires a catalog's parts together once, in {@link #initialize}, from its options.
 */
public abstract class AbstractGlueCatalog implements StagingTableCatalog, SupportsNamespaces, PartitionSyncOwner {

  private String name;
  private CatalogOptions options;
  private GlueGateway glue;
  private CatalogHadoopConf hadoop;
  private PartitionSync partitions;
  private CatalogTables tables;
  private CatalogNamespaces namespaces;

  @Override
  public void initialize(String name, CaseInsensitiveStringMap sparkOptions) {
    this.name = name;
    this.options = CatalogOptions.parse(name, sparkOptions.asCaseSensitiveMap());
    this.glue = new GlueGateway(options);
    this.hadoop = new CatalogHadoopConf(options);
    this.partitions = new PartitionSync(name, glue, hadoop);
    CatalogNames names = new CatalogNames(name);
    this.tables = new CatalogTables(name, options, glue, hadoop, new EntryCatalog(this, names, glue, hadoop), partitions,
        names);
    this.namespaces = new CatalogNamespaces(name, options, glue, names);
    SessionChecks.requireUpdateCatalogHookOff(name);
  }

  @Override
  public String name() {
    return name;
  }

  /** This catalog's sync of Glue partition objects (see {@link PartitionSync#sync(String, String)}). */
  @Override
  public PartitionSync partitionSync() {
    return partitions;
  }

  /** This catalog's parsed options. */
  public CatalogOptions options() {
    return options;
  }

  /** The catalog's Glue gateway, Hadoop settings and Delta reader, for gluecat's command-line tools. */
  public CatalogParts parts() {
    return new CatalogParts(options, glue, hadoop, tables.deltaTables(), partitions);
  }

  @Override
  public String[] defaultNamespace() {
    return new String[] {"default"};
  }

  // ---- tables ----

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    return tables.listTables(namespace);
  }

  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    return tables.loadTable(ident);
  }

  @Override
  public Table loadTable(Identifier ident, Set<TableWritePrivilege> writePrivileges) throws NoSuchTableException {
    return tables.loadTable(ident, writePrivileges);
  }

  @Override
  public Table loadTable(Identifier ident, String version) throws NoSuchTableException {
    return DeltaSupport.AVAILABLE ? tables.loadTable(ident, version)
        : StagingTableCatalog.super.loadTable(ident, version);
  }

  @Override
  public Table loadTable(Identifier ident, long timestamp) throws NoSuchTableException {
    return DeltaSupport.AVAILABLE ? tables.loadTable(ident, timestamp)
        : StagingTableCatalog.super.loadTable(ident, timestamp);
  }

  @Override
  public boolean tableExists(Identifier ident) {
    return tables.tableExists(ident);
  }

  @Override
  public void invalidateTable(Identifier ident) {
    tables.invalidateTable(ident);
  }

  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    return tables.createTable(ident, schema, partitions, properties);
  }

  /** CREATE TABLE LIKE, which Spark 4.2 sends to the catalog; the GlueCatalog of that line calls this. */
  protected Table createTableLike(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties, Table source) throws TableAlreadyExistsException, NoSuchNamespaceException {
    return tables.createTableLike(ident, schema, partitions, properties, source);
  }

  @Override
  public StagedTable stageCreate(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    return tables.stageCreate(ident, schema, partitions, properties);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException, NoSuchTableException {
    return tables.stageReplace(ident, schema, partitions, properties);
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException {
    return tables.stageCreateOrReplace(ident, schema, partitions, properties);
  }

  @Override
  public Table alterTable(Identifier ident, TableChange... changes) throws NoSuchTableException {
    return tables.alterTable(ident, changes);
  }

  @Override
  public void renameTable(Identifier from, Identifier to) throws NoSuchTableException, TableAlreadyExistsException {
    tables.renameTable(from, to);
  }

  @Override
  public boolean dropTable(Identifier ident) {
    return tables.dropTable(ident);
  }

  @Override
  public boolean purgeTable(Identifier ident) {
    return tables.purgeTable(ident);
  }

  // ---- namespaces ----

  @Override
  public String[][] listNamespaces() {
    return namespaces.list();
  }

  @Override
  public String[][] listNamespaces(String[] namespace) throws NoSuchNamespaceException {
    return namespaces.list(namespace);
  }

  @Override
  public boolean namespaceExists(String[] namespace) {
    return namespaces.exists(namespace);
  }

  @Override
  public Map<String, String> loadNamespaceMetadata(String[] namespace) throws NoSuchNamespaceException {
    return namespaces.metadata(namespace);
  }

  @Override
  public void createNamespace(String[] namespace, Map<String, String> metadata)
      throws NamespaceAlreadyExistsException {
    namespaces.create(namespace, metadata);
  }

  @Override
  public void alterNamespace(String[] namespace, NamespaceChange... changes) throws NoSuchNamespaceException {
    namespaces.alter(namespace, changes);
  }

  @Override
  public boolean dropNamespace(String[] namespace, boolean cascade) throws NonEmptyNamespaceException {
    return namespaces.drop(namespace, cascade);
  }
}
