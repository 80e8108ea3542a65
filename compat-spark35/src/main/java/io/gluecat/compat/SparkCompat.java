package io.gluecat.compat;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.catalog.CatalogStorageFormat;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.catalog.CatalogTableType;
import org.apache.spark.sql.errors.QueryCompilationErrors;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import scala.collection.JavaConverters;

/**
 * The few calls whose signatures differ between Spark lines; this copy is for Spark 3.5 / Scala 2.12.
 * Every Spark line has a class of this name with the same methods (the Spark 4 lines share compat-spark4's).
 */
@SuppressWarnings("deprecation")
public final class SparkCompat {
  private SparkCompat() {}

  /**
   * The Glue type of a partition column Hive cannot hold, in the Spark-specific form; null when the
   * column keeps its type. Spark 3.5 writes such a column with its own type string.
   */
  public static final String INCOMPATIBLE_PARTITION_TYPE = null;

  /** The class whose saveAsTable and insertInto load their target table themselves (see WriterCall). */
  public static final String DATAFRAME_WRITER_CLASS = "org.apache.spark.sql.DataFrameWriter";

  /** Spark's implementation of {@code spark.catalog}: its listTables resolves every listed table (CatalogListingCall). */
  public static final String SPARK_CATALOG_CLASS = "org.apache.spark.sql.internal.CatalogImpl";

  /** Spark 3.5 does not check struct field names for the Hive form. */
  public static final boolean HIVE_NEEDS_PLAIN_STRUCT_FIELD_NAMES = false;

  /**
   * Spark 3.5's own session catalog names a missing or existing database or table without the catalog's name
   * ({@code `db`}, not {@code `spark_catalog`.`db`}); gluecat as spark_catalog words its errors the same.
   */
  public static final boolean SESSION_CATALOG_QUALIFIES_NAMES = false;

  /** Spark 3.5's session catalog names only the namespace ({@code `db`.`a`}) when it refuses {@code db.a.t}. */
  public static final boolean NESTED_NAME_ERROR_NAMES_TABLE = false;

  /**
   * Whether the catalog declares column defaults for Delta tables itself (CatalogTables.capabilities): not on
   * Spark 3.5, whose row keeps refusing them at create (how-it-works.md, "Limits").
   */
  public static final boolean DECLARES_COLUMN_DEFAULTS = false;

  /** An immutable Scala map (Scala 2.12 and 2.13 build it differently). */
  public static <K, V> scala.collection.immutable.Map<K, V> scalaMap(Map<K, V> map) {
    return JavaConverters.mapAsScalaMap(map).toMap(scala.Predef.<scala.Tuple2<K, V>>$conforms());
  }

  /**
   * The storage of a data source table: its location and its options, no Hive input/output format or serde
   * (the constructor has six arguments up to Spark 4.1).
   */
  public static CatalogStorageFormat storageFormat(java.net.URI location, Map<String, String> properties) {
    return new CatalogStorageFormat(scala.Option.apply(location), scala.Option.empty(), scala.Option.empty(),
        scala.Option.empty(), false, scalaMap(properties));
  }

  /**
   * A CatalogTable as Spark's own catalog gives one: an external data source table ({@code viewText} null), with
   * its statistics if it has any, or a view ({@code CatalogTableType.VIEW()}: its text, its context in
   * {@code properties} (view.*), empty storage, no provider) (the constructor gained a collation in Spark 4); a file
   * source table with its bucketing.
   */
  public static CatalogTable catalogTable(CatalogTableType type, String viewText, TableIdentifier identifier,
      CatalogStorageFormat storage, StructType schema, String provider, List<String> partitionColumns, String owner,
      long createTimeMillis, String createVersion, Map<String, String> properties, java.util.Optional<String> comment,
      java.util.Optional<org.apache.spark.sql.catalyst.catalog.CatalogStatistics> statistics,
      java.util.Optional<org.apache.spark.sql.catalyst.catalog.BucketSpec> bucketSpec) {
    scala.Option<org.apache.spark.sql.catalyst.catalog.CatalogStatistics> stats =
        scala.Option.apply(statistics.orElse(null));
    scala.collection.Seq<String> partitions = Scala.list(partitionColumns);
    return new CatalogTable(identifier, type, storage, schema,
        scala.Option.apply(provider), partitions, scala.Option.apply(bucketSpec.orElse(null)), owner, createTimeMillis, -1L,
        createVersion, scalaMap(properties), stats, scala.Option.apply(viewText),
        scala.Option.apply(comment.orElse(null)),
        Scala.<String>list(), false, true, scalaMap(Map.of()), scala.Option.empty());
  }

  /** Drops Spark's cached relation of a file source table (its file listing), after its entry changed. */
  public static void invalidateCachedRelation(TableIdentifier table) {
    SparkSession.active().sessionState().catalog().invalidateCachedTable(table);
  }

  /** The active session's Hadoop configuration (SparkContext's, plus the session's SQL settings), a new copy. */
  public static org.apache.hadoop.conf.Configuration newHadoopConf() {
    return SparkSession.active().sessionState().newHadoopConf();
  }

  /** {@code type} as it is: Spark 3.5 has no collations. */
  public static org.apache.spark.sql.types.DataType withoutDefaultCollation(org.apache.spark.sql.types.DataType type) {
    return type;
  }

  /** Whether Hive can hold this string type: Spark 3.5 strings have no collation, so always. */
  public static boolean isHiveCompatibleString(org.apache.spark.sql.types.DataType type) {
    return true;
  }

  /**
   * Delta's table at {@code location}, its log opened with these file-system options (Delta's own catalog
   * opens tables by path without any). The constructor's arguments differ between Delta lines.
   */
  public static org.apache.spark.sql.connector.catalog.Table deltaTableAt(SparkSession spark, String location,
      Map<String, String> options) {
    return new org.apache.spark.sql.delta.catalog.DeltaTableV2(spark, new org.apache.hadoop.fs.Path(location),
        scala.Option.empty(), scala.Option.empty(), scala.Option.empty(), scalaMap(options));
  }

  /**
   * The active session's functions as Spark's own session catalog serves them (its V2SessionCatalog over the
   * built-in SessionCatalog): persistent functions in the built-in catalog's databases.
   */
  public static org.apache.spark.sql.connector.catalog.FunctionCatalog sessionFunctions() {
    return new org.apache.spark.sql.execution.datasources.v2.V2SessionCatalog(
        SparkSession.active().sessionState().catalog());
  }

  /** The active session's catalog of this name (as configured with spark.sql.catalog.<name>). */
  public static org.apache.spark.sql.connector.catalog.CatalogPlugin catalog(String name) {
    return SparkSession.active().sessionState().catalogManager().catalog(name);
  }

  /** Whether a column is an identity column: Spark 3.5's columns have no identity (Delta's builder keeps it in metadata). */
  public static boolean isIdentity(org.apache.spark.sql.connector.catalog.Column column) {
    return false;
  }

  /**
   * Writes {@code data} at {@code location} as DataFrameWriter's {@code save} does, with a bucketing, which
   * {@code save} refuses: Spark's V1 file source write (InsertIntoHadoopFsRelationCommand), given the table's bucket
   * spec, as Spark's own catalog writes a bucketed table.
   */
  public static void writeBucketed(org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> data, String provider,
      String location, List<String> partitionColumns, org.apache.spark.sql.catalyst.catalog.BucketSpec bucketSpec,
      Map<String, String> options, org.apache.spark.sql.SaveMode mode) {
    org.apache.spark.sql.execution.datasources.DataSource source = new org.apache.spark.sql.execution.datasources
        .DataSource(data.sparkSession(), provider, Scala.list(location), scala.Option.empty(),
        Scala.list(partitionColumns), scala.Option.apply(bucketSpec), scalaMap(options), scala.Option.empty());
    run(data.sparkSession(), source.planForWriting(mode, data.logicalPlan()));
  }

  /** Analyzes and runs {@code plan} in {@code spark}, as a statement of its own would be, and returns its rows. */
  public static List<org.apache.spark.sql.Row> run(SparkSession spark,
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    return org.apache.spark.sql.Dataset.ofRows(spark, plan).collectAsList();
  }

  /**
   * Spark's own column statistics of {@code columns} of {@code relation} (what its ANALYZE ... FOR COLUMNS runs):
   * the row count and each column's statistics (the session type differs between the lines).
   */
  public static scala.Tuple2<Object, scala.collection.immutable.Map<org.apache.spark.sql.catalyst.expressions.Attribute,
      org.apache.spark.sql.catalyst.plans.logical.ColumnStat>> columnStatistics(SparkSession spark,
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan relation,
      List<org.apache.spark.sql.catalyst.expressions.Attribute> columns) {
    return org.apache.spark.sql.execution.command.CommandUtils$.MODULE$.computeColumnStats(spark, relation,
        Scala.list(columns));
  }

  /** The SQL settings a new view captures (keys without Spark's view.sqlConfig. prefix), as Spark's own CREATE VIEW. */
  public static Map<String, String> viewSqlConfigs(SparkSession spark) {
    // 3.5 keeps the capture private; its view properties carry it under the prefix
    Map<String, String> properties = scala.collection.JavaConverters.mapAsJavaMap(
        org.apache.spark.sql.execution.command.ViewHelper$.MODULE$.generateViewProperties(scalaMap(Map.of()), spark,
            new org.apache.spark.sql.catalyst.plans.logical.OneRowRelation(), new String[0],
            Scala.<scala.collection.Seq<String>>list(), Scala.<String>list()));
    Map<String, String> configs = new java.util.LinkedHashMap<>();
    properties.forEach((k, v) -> {
      if (k.startsWith("view.sqlConfig.")) {
        configs.put(k.substring("view.sqlConfig.".length()), v);
      }
    });
    return configs;
  }

  /**
   * Spark's own checks of a permanent view's query: no temporary view or variable, no generated alias; and, when
   * an existing view is redefined, no reference back to it.
   */
  public static void checkViewQuery(TableIdentifier name, org.apache.spark.sql.catalyst.plans.logical.LogicalPlan query,
      boolean redefining) {
    org.apache.spark.sql.execution.command.ViewHelper$ views = org.apache.spark.sql.execution.command.ViewHelper$.MODULE$;
    views.verifyTemporaryObjectsNotExists(false, name, query, Scala.<String>list());
    views.verifyAutoGeneratedAliasesNotExists(query, false, name);
    if (redefining) {
      views.checkCyclicViewReference(query, Scala.list(name), name);
    }
  }

  /** The schema binding a CREATE VIEW statement asks for; Spark 3.5 has none (null). */
  public static String viewSchemaMode(org.apache.spark.sql.catalyst.plans.logical.LogicalPlan createView) {
    return null;
  }

  /** The default collation a CREATE VIEW statement gives; Spark 3.5 has none (null). */
  public static String viewCollation(org.apache.spark.sql.catalyst.plans.logical.LogicalPlan createView) {
    return null;
  }

  /** ALTER VIEW .. WITH SCHEMA's view name and mode; Spark 3.5 has no such statement (null). */
  public static scala.Tuple2<scala.collection.Seq<String>, String> viewSchemaBinding(
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    return null;
  }

  /**
   * Adds an analyzer rule that runs before Spark resolves a statement's tables, and says whether it did: not on
   * Spark 3.5, which has no such place for extensions (their resolution rules all run after Spark's table
   * resolution).
   */
  public static boolean injectEarlyAnalyzerRule(org.apache.spark.sql.SparkSessionExtensions extensions,
      scala.Function1<Object, org.apache.spark.sql.catalyst.rules.Rule<org.apache.spark.sql.catalyst.plans.logical.LogicalPlan>> builder) {
    return false;
  }

  /**
   * The catalog class under which Iceberg's session extension finds a gluecat catalog's Iceberg procedures, where
   * Spark has no procedure catalogs of its own (3.5); null where it has (Spark 4: GlueCatalog is one).
   */
  public static final String ICEBERG_PROCEDURE_CATALOG = "io.gluecat.GlueCatalog$IcebergProcedures";

  /**
   * A planner strategy that plans a statement as {@code planner} says (at most one physical plan), or leaves it to
   * Spark's other strategies (empty). The strategy's collection type is the line's Scala's.
   */
  public static org.apache.spark.sql.execution.SparkStrategy strategy(java.util.function.Function<
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan,
      java.util.Optional<org.apache.spark.sql.execution.SparkPlan>> planner) {
    return new org.apache.spark.sql.execution.SparkStrategy() {
      @Override
      public scala.collection.Seq<org.apache.spark.sql.execution.SparkPlan> apply(
          org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
        return Scala.list(planner.apply(plan).map(List::of).orElse(List.of()));
      }
    };
  }

  /** Whether a data source table's column may take this new type: never on Spark 3.5, which has no collations. */
  public static boolean columnTypeChangeAllowed(org.apache.spark.sql.types.DataType from,
      org.apache.spark.sql.types.DataType to) {
    return false;
  }

  /**
   * Spark's refusal of {@code ALTER TABLE t SET SERDE 'class'} on a data source table
   * (AlterTableSerDePropertiesCommand):
   * Spark 3.5's names no table.
   */
  public static Throwable alterTableSetSerdeError(String qualifiedName) {
    return QueryCompilationErrors.alterTableSetSerdeNotSupportedError();
  }

  /**
   * Spark's refusal of ALTER COLUMN .. SET/DROP NOT NULL on a data source table (its ResolveSessionCatalog): Spark 3.5
   * refuses either with a message that names no table.
   */
  public static Throwable nullabilityChangeError(org.apache.spark.sql.catalyst.TableIdentifier table) {
    return QueryCompilationErrors.alterColumnWithV1TableCannotSpecifyNotNullError();
  }

  /**
   * Spark's refusal of a column's new type on a data source table (AlterTableChangeColumnCommand): a partition
   * column is not among the data columns Spark 3.5 looks in; any other is NOT_SUPPORTED_CHANGE_COLUMN.
   */
  public static Throwable columnTypeChangeError(List<String> table, StructField from, StructField to,
      boolean partitionColumn, String[] dataColumns) {
    return partitionColumn ? QueryCompilationErrors.cannotFindColumnError(from.name(), dataColumns)
        : QueryCompilationErrors.alterTableChangeColumnNotSupportedForColumnTypeError(
            QueryCompilationErrors.toSQLId(Scala.list(table)), from, to);
  }

  /** The table with other storage properties (withNewStorage has six arguments up to Spark 4.1). */
  public static CatalogTable withStorageProperties(CatalogTable table, Map<String, String> properties) {
    CatalogStorageFormat s = table.storage();
    return table.withNewStorage(s.locationUri(), s.inputFormat(), s.outputFormat(), s.compressed(), s.serde(),
        scalaMap(properties));
  }

  /** Whether a DESCRIBE names a partition (up to Spark 4.1 the spec is the statement's). */
  public static boolean describesPartition(org.apache.spark.sql.catalyst.plans.logical.DescribeRelation describe) {
    return !describe.partitionSpec().isEmpty();
  }

  /** A DESCRIBE of a partition (a DescribeRelation with a spec); empty for any other plan. */
  public static java.util.Optional<DescribedPartition> describedPartition(
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    if (plan instanceof org.apache.spark.sql.catalyst.plans.logical.DescribeRelation d
        && !d.partitionSpec().isEmpty()) {
      return java.util.Optional.of(new DescribedPartition(d.relation(), Scala.javaMap(d.partitionSpec()),
          d.isExtended(), Scala.javaList(d.output())));
    }
    return java.util.Optional.empty();
  }

  /** A SHOW TABLE EXTENDED without a partition (Spark 3.5's ShowTableExtended); empty for any other plan. */
  public static java.util.Optional<ShownTables> shownTables(org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    if (plan instanceof org.apache.spark.sql.catalyst.plans.logical.ShowTableExtended show
        && show.partitionSpec().isEmpty()) {
      return java.util.Optional.of(new ShownTables(show.namespace(), show.pattern(), Scala.javaList(show.output())));
    }
    return java.util.Optional.empty();
  }

  /** A SHOW TABLE EXTENDED of a partition (Spark 3.5's ShowTableExtended with a spec); empty otherwise. */
  public static java.util.Optional<ShownPartition> shownPartition(
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    if (plan instanceof org.apache.spark.sql.catalyst.plans.logical.ShowTableExtended show
        && show.partitionSpec().isDefined()
        && show.partitionSpec().get() instanceof org.apache.spark.sql.catalyst.analysis.UnresolvedPartitionSpec spec) {
      return java.util.Optional.of(new ShownPartition(show.namespace(), show.pattern(), Scala.javaMap(spec.spec()),
          Scala.javaList(show.output())));
    }
    return java.util.Optional.empty();
  }
}
