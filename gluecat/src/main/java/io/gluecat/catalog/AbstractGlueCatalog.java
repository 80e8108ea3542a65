package io.gluecat.catalog;

import io.gluecat.compat.SparkCompat;
import io.gluecat.config.CatalogOptions;
import io.gluecat.config.SparkLineCheck;
import io.gluecat.delta.DeltaColumns;
import io.gluecat.delta.DeltaSupport;
import io.gluecat.delta.SessionChecks;
import io.gluecat.glue.GlueGateway;
import io.gluecat.glue.LentGlueClient;
import io.gluecat.iceberg.IcebergTables;
import io.gluecat.partitions.PartitionSync;
import io.gluecat.partitions.PartitionSyncOwner;
import io.gluecat.storage.CatalogHadoopConf;
import io.gluecat.entry.TableName;
import io.gluecat.views.GlueViews;
import io.gluecat.logstore.DeltaLogStores;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.NonEmptyNamespaceException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchFunctionException;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.FunctionCatalog;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.NamespaceChange;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableCatalogCapability;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableWritePrivilege;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
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
public abstract class AbstractGlueCatalog extends NamespaceReads
    implements StagingTableCatalog, FunctionCatalog, PartitionSyncOwner {

  private String name;
  private CatalogOptions options;
  private GlueGateway glue;
  private CatalogHadoopConf hadoop;
  private PartitionSync partitions;
  private CatalogTables tables;
  private CatalogNamespaces namespaces;
  private CatalogNames names;
  private GlueViews views;
  private CreateLike like;
  private IcebergTables iceberg;

  @Override
  public void initialize(String name, CaseInsensitiveStringMap sparkOptions) {
    SparkLineCheck.requireBuiltLine(name); // before anything else: on another line any call could fail obscurely
    CatalogOptions parsed = CatalogOptions.parse(name, sparkOptions.asCaseSensitiveMap());
    wire(parsed, new GlueGateway(parsed));
    SessionChecks.requireUpdateCatalogHookOff(name);
    DeltaLogStores.log(name); // which log store Delta commits S3 tables with; warns on the single-driver one
    DeltaSupport.warnOfKnownBreaks(name, io.gluecat.config.SparkEnvironment.sparkVersion());
  }

  /**
   * Wires the catalog's parts around {@code glue}; apart from {@link #initialize} only so that unit tests can
   * hand the catalog a gateway over an in-memory Glue (issue #42). Nothing but initialize and tests calls it.
   */
  void wire(CatalogOptions options, GlueGateway glue) {
    this.name = options.catalogName();
    this.options = options;
    this.glue = glue;
    this.hadoop = new CatalogHadoopConf(options);
    this.partitions = new PartitionSync(name, glue, hadoop);
    this.names = new CatalogNames(name);
    this.views = new GlueViews(name, glue);
    this.namespaces = new CatalogNamespaces(name, options, glue, names);
    EntryCatalog entries = new EntryCatalog(name, options, names, glue, hadoop, namespaces);
    this.iceberg = new IcebergTables(options, hadoop.properties(), LentGlueClient.of(glue));
    this.tables = new CatalogTables(name, options, glue, hadoop, entries, partitions, names, iceberg);
    this.like = new CreateLike(name, entries);
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
    return new String[] {options.defaultDatabase()};
  }

  // ---- functions ----

  /*
   * Spark resolves every function name that is not a builtin or temporary one against the current catalog, and
   * asks a catalog that is no FunctionCatalog nothing: it fails (MISSING_CATALOG_ABILITY.FUNCTIONS), even for
   * a misspelt builtin. As spark_catalog, gluecat serves functions as Spark's own session catalog does, from
   * the built-in SessionCatalog, where Spark's function statements (CREATE/DROP/DESCRIBE/SHOW FUNCTIONS)
   * keep them in session mode too. A named gluecat catalog holds no functions (Glue keeps none for Spark).
   */

  @Override
  public Identifier[] listFunctions(String[] namespace) throws NoSuchNamespaceException {
    return names.sessionCatalog() ? SparkCompat.sessionFunctions().listFunctions(namespace)
        : new Identifier[0];
  }

  @Override
  public UnboundFunction loadFunction(Identifier ident) throws NoSuchFunctionException {
    // Iceberg's partition transforms (days, bucket..., unqualified or in system), which Spark looks up in the
    // catalog of an Iceberg table it writes, as it would in Iceberg's own catalog; no session function has them
    Optional<UnboundFunction> icebergs = iceberg.function(ident);
    if (icebergs.isPresent()) {
      return icebergs.get();
    }
    if (!names.sessionCatalog()) {
      throw new NoSuchFunctionException(ident);
    }
    return SparkCompat.sessionFunctions().loadFunction(ident);
  }

  @Override
  public boolean functionExists(Identifier ident) {
    return names.sessionCatalog() && SparkCompat.sessionFunctions().functionExists(ident);
  }

  // ---- tables ----

  /**
   * The tables the current statement is about to load: their Glue entries are read together now (up to the
   * {@code planning.prefetch-threads} option at once), and the loads find them (see
   * {@link GlueGateway#prefetchTables}). Names that are not tables of this catalog's form are left to the loads.
   */
  public void prefetchTables(java.util.Collection<Identifier> idents) {
    java.util.Set<TableName> tables = new java.util.LinkedHashSet<>();
    for (Identifier ident : idents) {
      TableName table = names.tableName(ident);
      if (table != null) {
        tables.add(table);
      }
    }
    glue.prefetchTables(tables);
  }

  @Override
  public Identifier[] listTables(String[] namespace) throws NoSuchNamespaceException {
    return tables.listTables(namespace);
  }

  /** A view, where {@link #viewsAsTables()}, else the table; a table loads as it always did. */
  @Override
  public Table loadTable(Identifier ident) throws NoSuchTableException {
    TableName name = viewsAsTables() ? names.tableName(ident) : null;
    Optional<Table> view = name == null ? Optional.empty() : views.v1View(name);
    return view.isPresent() ? view.get() : tables.loadTable(ident);
  }

  /**
   * Whether Glue views load as tables: Spark 3.5 and 4.1 read a view from a catalog plugin only as a V1Table of
   * type VIEW (which they expand as their own catalog's views). Spark 4.2 asks for views apart (its
   * RelationCatalog), and a table load must not return one there.
   */
  protected boolean viewsAsTables() {
    return true;
  }

  /** This catalog's views in Glue (also what gluecat's session extension runs view statements on). */
  public GlueViews views() {
    return views;
  }

  /** The Glue table or view an identifier names, or null for a path identifier or a nested namespace. */
  public TableName tableName(Identifier ident) {
    return names.tableName(ident);
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

  /** Generated, identity and default columns where Delta's own catalog takes them on this line. */
  @Override
  public Set<TableCatalogCapability> capabilities() {
    return tables.capabilities();
  }

  @Override
  public Table createTable(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    return tables.createTable(ident, DeltaColumns.of(schema), partitions, properties);
  }

  // Spark's creates with v2 columns, which carry generation expressions and identity settings outside the schema

  @Override
  public Table createTable(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    return tables.createTable(ident, DeltaColumns.of(columns), partitions, properties);
  }

  /**
   * CREATE TABLE LIKE, which Spark 4.2 sends to the catalog (the GlueCatalog of that line calls this) and gluecat's
   * session extension sends in session mode on the other lines.
   */
  public Table createTableLike(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties, Table source) throws TableAlreadyExistsException, NoSuchNamespaceException {
    return tables.createTable(ident, DeltaColumns.of(schema), partitions, like.properties(ident, properties, source));
  }

  // Delta statements that gluecat's session extension (io.gluecat.extensions) runs by name

  /** CONVERT TO DELTA of a parquet table of this catalog; false when it was a Delta table already. */
  public boolean convertToDelta(Identifier ident, java.util.Optional<StructType> partitions, boolean collectStats)
      throws NoSuchTableException, NoSuchNamespaceException {
    return tables.convertToDelta(ident, partitions, collectStats);
  }

  /**
   * A Delta statement that Delta runs by path only (CLONE in session mode): {@code write} gets the location that a
   * create or replace of {@code ident} in {@code mode} writes, then the entry is written from the log there.
   */
  public <T> T writeDeltaByPath(Identifier ident, io.gluecat.delta.DeltaCreates.Mode mode,
      Map<String, String> properties, java.util.function.Function<String, T> write)
      throws TableAlreadyExistsException, NoSuchTableException, NoSuchNamespaceException {
    return tables.writeDeltaByPath(ident, mode, properties, write);
  }

  @Override
  public StagedTable stageCreate(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    return tables.stageCreate(ident, DeltaColumns.of(schema), partitions, properties);
  }

  @Override
  public StagedTable stageCreate(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    return tables.stageCreate(ident, DeltaColumns.of(columns), partitions, properties);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException, NoSuchTableException {
    return tables.stageReplace(ident, DeltaColumns.of(schema), partitions, properties);
  }

  @Override
  public StagedTable stageReplace(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException, NoSuchTableException {
    return tables.stageReplace(ident, DeltaColumns.of(columns), partitions, properties);
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, StructType schema, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException {
    return tables.stageCreateOrReplace(ident, DeltaColumns.of(schema), partitions, properties);
  }

  @Override
  public StagedTable stageCreateOrReplace(Identifier ident, Column[] columns, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException {
    return tables.stageCreateOrReplace(ident, DeltaColumns.of(columns), partitions, properties);
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

  // ---- namespaces (the reads: NamespaceReads) ----

  @Override
  CatalogNamespaces namespaces() {
    return namespaces;
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

  /**
   * Iceberg's catalog behind this one, for Iceberg's procedures (the Spark 4 lines' GlueCatalog is a procedure
   * catalog that hands {@code CALL <catalog>.system.<name>} to it); the refusal naming why where it cannot be made.
   */
  protected final TableCatalog icebergProcedures(Identifier procedure) {
    return iceberg.procedureCatalog(name + "." + procedure);
  }
}
