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
 * The few calls whose signatures differ between Spark lines; this copy is shared by the Spark 4 / Scala 2.13 lines
 * (4.1 and 4.2), whose own differences are in {@code LineSignatures} (one per compat module). compat-spark35 has a
 * class of this name with the same methods.
 */
@SuppressWarnings("deprecation")
public final class SparkCompat {
  private SparkCompat() {}

  /**
   * The Glue type of a partition column Hive cannot hold, in the Spark-specific form; null when the
   * column keeps its type. Spark 4.1 and 4.2 write this type for such a column (HiveClientImpl.INCOMPATIBLE_PARTITION_TYPE_PLACEHOLDER).
   */
  public static final String INCOMPATIBLE_PARTITION_TYPE = "<derived from deserializer>";

  /** The class whose saveAsTable and insertInto load their target table themselves (see WriterCall). */
  public static final String DATAFRAME_WRITER_CLASS = "org.apache.spark.sql.classic.DataFrameWriter";

  /** Spark's implementation of {@code spark.catalog}: its listTables resolves every listed table (CatalogListingCall). */
  public static final String SPARK_CATALOG_CLASS = "org.apache.spark.sql.classic.Catalog";

  /** Spark 4.1 and 4.2 write structs whose field names need quoting in the Spark-specific form. */
  public static final boolean HIVE_NEEDS_PLAIN_STRUCT_FIELD_NAMES = true;

  /** Spark 4's own session catalog qualifies a missing or existing database or table with its name. */
  public static final boolean SESSION_CATALOG_QUALIFIES_NAMES = true;

  /** Whether the session catalog's refusal of {@code db.a.t} names the table too (4.2) or the namespace only. */
  public static final boolean NESTED_NAME_ERROR_NAMES_TABLE = LineSignatures.NESTED_NAME_ERROR_NAMES_TABLE;

  /** The Spark 4 lines declare column defaults for Delta tables as Delta's own catalog would (CatalogTables). */
  public static final boolean DECLARES_COLUMN_DEFAULTS = true;

  /** An immutable Scala map (Scala 2.12 and 2.13 build it differently). */
  public static <K, V> scala.collection.immutable.Map<K, V> scalaMap(Map<K, V> map) {
    return JavaConverters.mapAsScalaMap(map).toMap(scala.$less$colon$less$.MODULE$.refl());
  }

  /**
   * The storage of a data source table: its location and its options, no Hive input/output format or serde
   * (the constructor has six arguments up to Spark 4.1; Spark 4.2 adds the serde's name, none here).
   */
  public static CatalogStorageFormat storageFormat(java.net.URI location, Map<String, String> properties) {
    return LineSignatures.storageFormat(scala.Option.apply(location), scalaMap(properties));
  }

  /**
   * A CatalogTable as Spark's own catalog gives one: an external data source table ({@code viewText} null), with
   * its statistics if it has any, or a view ({@code CatalogTableType.VIEW()}: its text, its context in
   * {@code properties} (view.*), empty storage, no provider) (the constructor gained a collation in Spark 4.1 and a
   * multi-part identifier in Spark 4.2: none here, as gluecat's namespaces have one part); a file source table with
   * its bucketing.
   */
  public static CatalogTable catalogTable(CatalogTableType type, String viewText, TableIdentifier identifier,
      CatalogStorageFormat storage, StructType schema, String provider, List<String> partitionColumns, String owner,
      long createTimeMillis, String createVersion, Map<String, String> properties, java.util.Optional<String> comment,
      java.util.Optional<org.apache.spark.sql.catalyst.catalog.CatalogStatistics> statistics,
      java.util.Optional<org.apache.spark.sql.catalyst.catalog.BucketSpec> bucketSpec) {
    scala.Option<org.apache.spark.sql.catalyst.catalog.CatalogStatistics> stats =
        scala.Option.apply(statistics.orElse(null));
    scala.collection.immutable.Seq<String> partitions = Scala.list(partitionColumns);
    // A table's default collation is the "collation" parameter, as Spark 4.1's and 4.2's Hive client keep it.
    Map<String, String> tableProperties = new java.util.LinkedHashMap<>(properties);
    String collation = tableProperties.remove("collation");
    return LineSignatures.catalogTable(identifier, type, storage, schema, scala.Option.apply(provider), partitions,
        owner, createTimeMillis, createVersion, scalaMap(tableProperties), stats, scala.Option.apply(viewText),
        scala.Option.apply(comment.orElse(null)), scala.Option.apply(collation),
        scala.Option.apply(bucketSpec.orElse(null)));
  }

  /** Drops Spark's cached relation of a file source table (its file listing), after its entry changed. */
  public static void invalidateCachedRelation(TableIdentifier table) {
    ((org.apache.spark.sql.classic.SparkSession) SparkSession.active()).sessionState().catalog().invalidateCachedTable(table);
  }

  /** The active session's Hadoop configuration (SparkContext's, plus the session's SQL settings), a new copy. */
  public static org.apache.hadoop.conf.Configuration newHadoopConf() {
    return ((org.apache.spark.sql.classic.SparkSession) SparkSession.active()).sessionState().newHadoopConf();
  }

  /**
   * {@code type} with each string that names the default collation ({@code STRING COLLATE UTF8_BINARY}) as a plain
   * string: Spark prints such a string's type with its collation, which Hive's type grammar (Trino, Athena, Spark's
   * Hive path) cannot read, while the strings are the same. Other collations, CHAR and VARCHAR are kept.
   */
  public static org.apache.spark.sql.types.DataType withoutDefaultCollation(org.apache.spark.sql.types.DataType type) {
    if (type instanceof org.apache.spark.sql.types.CharType || type instanceof org.apache.spark.sql.types.VarcharType) {
      return type;
    }
    if (type instanceof org.apache.spark.sql.types.StringType string) {
      return string.isUTF8BinaryCollation() ? org.apache.spark.sql.types.DataTypes.StringType : string;
    }
    if (type instanceof org.apache.spark.sql.types.ArrayType array) {
      return new org.apache.spark.sql.types.ArrayType(withoutDefaultCollation(array.elementType()), array.containsNull());
    }
    if (type instanceof org.apache.spark.sql.types.MapType map) {
      return new org.apache.spark.sql.types.MapType(withoutDefaultCollation(map.keyType()),
          withoutDefaultCollation(map.valueType()), map.valueContainsNull());
    }
    if (type instanceof StructType struct) {
      return new StructType(java.util.Arrays.stream(struct.fields()).map(f -> new StructField(f.name(),
          withoutDefaultCollation(f.dataType()), f.nullable(), f.metadata())).toArray(StructField[]::new));
    }
    return type;
  }

  /** Whether Hive can hold this string type: only with the default (UTF8_BINARY) collation, as Spark 4.1 and 4.2 decide. */
  public static boolean isHiveCompatibleString(org.apache.spark.sql.types.DataType type) {
    return !(type instanceof org.apache.spark.sql.types.StringType)
        || ((org.apache.spark.sql.types.StringType) type).isUTF8BinaryCollation();
  }

  /**
   * Delta's table at {@code location}, its log opened with these file-system options (Delta's own catalog
   * opens tables by path without any). The constructor's arguments differ between Delta lines.
   */
  public static org.apache.spark.sql.connector.catalog.Table deltaTableAt(SparkSession spark, String location,
      Map<String, String> options) {
    return org.apache.spark.sql.delta.catalog.DeltaTableV2$.MODULE$.apply(spark, new org.apache.hadoop.fs.Path(location),
        scala.Option.empty(), scala.Option.empty(), scalaMap(options), scala.Option.empty());
  }

  /**
   * The active session's functions as Spark's own session catalog serves them (its V2SessionCatalog over the
   * built-in SessionCatalog): persistent functions in the built-in catalog's databases.
   */
  public static org.apache.spark.sql.connector.catalog.FunctionCatalog sessionFunctions() {
    return new org.apache.spark.sql.execution.datasources.v2.V2SessionCatalog(
        ((org.apache.spark.sql.classic.SparkSession) SparkSession.active()).sessionState().catalog());
  }

  /** The active session's catalog of this name (as configured with spark.sql.catalog.<name>). */
  public static org.apache.spark.sql.connector.catalog.CatalogPlugin catalog(String name) {
    return ((org.apache.spark.sql.classic.SparkSession) SparkSession.active()).sessionState().catalogManager().catalog(name);
  }

  /** Whether a column is an identity column (GENERATED ... AS IDENTITY), which Spark 4 keeps outside its metadata. */
  public static boolean isIdentity(org.apache.spark.sql.connector.catalog.Column column) {
    return column.identityColumnSpec() != null;
  }

  /**
   * Writes {@code data} at {@code location} as DataFrameWriter's {@code save} does, with a bucketing, which
   * {@code save} refuses: Spark's V1 file source write (InsertIntoHadoopFsRelationCommand), given the table's bucket
   * spec, as Spark's own catalog writes a bucketed table.
   */
  public static void writeBucketed(org.apache.spark.sql.Dataset<org.apache.spark.sql.Row> data, String provider,
      String location, List<String> partitionColumns, org.apache.spark.sql.catalyst.catalog.BucketSpec bucketSpec,
      Map<String, String> options, org.apache.spark.sql.SaveMode mode) {
    org.apache.spark.sql.classic.Dataset<org.apache.spark.sql.Row> classic =
        (org.apache.spark.sql.classic.Dataset<org.apache.spark.sql.Row>) data;
    org.apache.spark.sql.execution.datasources.DataSource source = LineSignatures.dataSource(classic.sparkSession(),
        provider, Scala.list(location), Scala.list(partitionColumns), scala.Option.apply(bucketSpec),
        scalaMap(options));
    run(classic.sparkSession(), source.planForWriting(mode, classic.logicalPlan()));
  }

  /** Analyzes and runs {@code plan} in {@code spark}, as a statement of its own would be, and returns its rows. */
  public static List<org.apache.spark.sql.Row> run(SparkSession spark,
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    return org.apache.spark.sql.classic.Dataset.ofRows((org.apache.spark.sql.classic.SparkSession) spark, plan)
        .collectAsList();
  }

  /**
   * Spark's own column statistics of {@code columns} of {@code relation} (what its ANALYZE ... FOR COLUMNS runs):
   * the row count and each column's statistics (the session type differs between the lines).
   */
  public static scala.Tuple2<Object, scala.collection.immutable.Map<org.apache.spark.sql.catalyst.expressions.Attribute,
      org.apache.spark.sql.catalyst.plans.logical.ColumnStat>> columnStatistics(SparkSession spark,
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan relation,
      List<org.apache.spark.sql.catalyst.expressions.Attribute> columns) {
    return org.apache.spark.sql.execution.command.CommandUtils$.MODULE$.computeColumnStats((org.apache.spark.sql.classic.SparkSession) spark, relation,
        Scala.list(columns));
  }

  /** The SQL settings a new view captures (keys without Spark's view.sqlConfig. prefix), as Spark's own CREATE VIEW. */
  public static Map<String, String> viewSqlConfigs(SparkSession spark) {
    return ViewSqlConfigs.of(spark);
  }

  /**
   * Spark's own checks of a permanent view's query: no temporary view or variable, no generated alias; and, when
   * an existing view is redefined, no reference back to it.
   */
  public static void checkViewQuery(TableIdentifier name, org.apache.spark.sql.catalyst.plans.logical.LogicalPlan query,
      boolean redefining) {
    LineSignatures.checkViewQuery(name, query, redefining);
  }

  /** The schema binding a CREATE VIEW statement asks for (Spark's name: BINDING, COMPENSATION, ..); else null. */
  public static String viewSchemaMode(org.apache.spark.sql.catalyst.plans.logical.LogicalPlan createView) {
    if (createView instanceof org.apache.spark.sql.catalyst.plans.logical.CreateView c) {
      return c.viewSchemaMode().toString();
    }
    if (createView instanceof org.apache.spark.sql.execution.command.CreateViewCommand c) {
      return c.viewSchemaMode().toString();
    }
    return null;
  }

  /** The default collation a CREATE VIEW statement gives (DEFAULT COLLATION ..); else null. */
  public static String viewCollation(org.apache.spark.sql.catalyst.plans.logical.LogicalPlan createView) {
    if (createView instanceof org.apache.spark.sql.catalyst.plans.logical.CreateView c) {
      return c.collation().isDefined() ? c.collation().get() : null;
    }
    if (createView instanceof org.apache.spark.sql.execution.command.CreateViewCommand c) {
      return c.collation().isDefined() ? c.collation().get() : null;
    }
    return null;
  }

  /**
   * ALTER VIEW .. WITH SCHEMA's view name and mode, parsed (a name to resolve) or as Spark's v1 command (session
   * mode); null for any other plan.
   */
  public static scala.Tuple2<scala.collection.Seq<String>, String> viewSchemaBinding(
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    if (plan instanceof org.apache.spark.sql.catalyst.plans.logical.AlterViewSchemaBinding a
        && a.child() instanceof org.apache.spark.sql.catalyst.analysis.UnresolvedView v) {
      return new scala.Tuple2<>(v.multipartIdentifier(), a.viewSchemaMode().toString());
    }
    if (plan instanceof org.apache.spark.sql.execution.command.AlterViewSchemaBindingCommand c) {
      return new scala.Tuple2<>(c.name().nameParts(), c.viewSchemaMode().toString());
    }
    return null;
  }

  /**
   * Adds an analyzer rule that runs before Spark resolves a statement's tables (the hint batch, open to
   * extensions since Spark 4.0), and says whether it did.
   */
  @SuppressWarnings({"unchecked", "rawtypes"})
  public static boolean injectEarlyAnalyzerRule(org.apache.spark.sql.SparkSessionExtensions extensions,
      scala.Function1<Object, org.apache.spark.sql.catalyst.rules.Rule<org.apache.spark.sql.catalyst.plans.logical.LogicalPlan>> builder) {
    extensions.injectHintResolutionRule((scala.Function1) builder); // raw: the builder takes the classic session
    return true;
  }

  /**
   * The catalog class under which Iceberg's session extension finds a gluecat catalog's Iceberg procedures, where
   * Spark has no procedure catalogs of its own (3.5); null where it has (Spark 4: GlueCatalog is one).
   */
  public static final String ICEBERG_PROCEDURE_CATALOG = null;

  /**
   * A planner strategy that plans a statement as {@code planner} says (at most one physical plan), or leaves it to
   * Spark's other strategies (empty). The strategy's collection type is the line's Scala's.
   */
  public static org.apache.spark.sql.execution.SparkStrategy strategy(java.util.function.Function<
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan,
      java.util.Optional<org.apache.spark.sql.execution.SparkPlan>> planner) {
    return new org.apache.spark.sql.execution.SparkStrategy() {
      @Override
      public scala.collection.immutable.Seq<org.apache.spark.sql.execution.SparkPlan> apply(
          org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
        return Scala.list(planner.apply(plan).map(List::of).orElse(List.of()));
      }
    };
  }

  /**
   * Whether a data source table's column may take this new type: on Spark 4 only a string's collation may change
   * (AlterTableChangeColumnCommand's check).
   */
  public static boolean columnTypeChangeAllowed(org.apache.spark.sql.types.DataType from,
      org.apache.spark.sql.types.DataType to) {
    return org.apache.spark.sql.types.DataType$.MODULE$.equalsIgnoreCompatibleCollation(from, to, false);
  }

  /**
   * Spark's refusal of {@code ALTER TABLE t SET SERDE 'class'} on a data source table
   * (AlterTableSerDePropertiesCommand):
   * Spark 4's names the table.
   */
  public static Throwable alterTableSetSerdeError(String qualifiedName) {
    return QueryCompilationErrors.alterTableSetSerdeNotSupportedError(qualifiedName);
  }

  /**
   * Spark's refusal of ALTER COLUMN .. SET/DROP NOT NULL on a data source table (its ResolveSessionCatalog): Spark 4
   * names the operation SET NOT NULL whichever way the statement changes the column.
   */
  public static Throwable nullabilityChangeError(org.apache.spark.sql.catalyst.TableIdentifier table) {
    return QueryCompilationErrors.unsupportedTableOperationError(table, "ALTER COLUMN ... SET NOT NULL");
  }

  /**
   * Spark's refusal of a column's new type on a data source table (AlterTableChangeColumnCommand): Spark 4 names a
   * partition column (CANNOT_ALTER_PARTITION_COLUMN); any other is NOT_SUPPORTED_CHANGE_COLUMN, at the statement.
   */
  public static Throwable columnTypeChangeError(List<String> table, StructField from, StructField to,
      boolean partitionColumn, String[] dataColumns) {
    return partitionColumn ? QueryCompilationErrors.cannotAlterPartitionColumn(String.join(".", table), from.name())
        : QueryCompilationErrors.alterTableChangeColumnNotSupportedForColumnTypeError(
            QueryCompilationErrors.toSQLId(Scala.list(table)), from, to,
            org.apache.spark.sql.catalyst.trees.CurrentOrigin.get());
  }

  /** The table with other storage properties (withNewStorage gained the serde's name in Spark 4.2). */
  public static CatalogTable withStorageProperties(CatalogTable table, Map<String, String> properties) {
    return LineSignatures.withStorageProperties(table, scalaMap(properties));
  }

  /** Whether a DESCRIBE names a partition (Spark 4.2 parses that into a plan of its own). */
  public static boolean describesPartition(org.apache.spark.sql.catalyst.plans.logical.DescribeRelation describe) {
    return LineSignatures.describesPartition(describe);
  }

  /** A DESCRIBE of a partition (Spark 4.2 parses it into a plan of its own); empty for any other plan. */
  public static java.util.Optional<DescribedPartition> describedPartition(
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    return LineSignatures.describedPartition(plan);
  }

  /** A SHOW TABLE EXTENDED without a partition (Spark 4's ShowTablesExtended); empty for any other plan. */
  public static java.util.Optional<ShownTables> shownTables(org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    if (plan instanceof org.apache.spark.sql.catalyst.plans.logical.ShowTablesExtended show) {
      return java.util.Optional.of(new ShownTables(show.namespace(), show.pattern(), Scala.javaList(show.output())));
    }
    return java.util.Optional.empty();
  }

  /** A SHOW TABLE EXTENDED of a partition (Spark 4's ShowTablePartition); empty for any other plan. */
  public static java.util.Optional<ShownPartition> shownPartition(
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan plan) {
    if (plan instanceof org.apache.spark.sql.catalyst.plans.logical.ShowTablePartition show) {
      return spec(show.partitionSpec(), show.table()).map(spec -> new ShownPartition(show.table(), null, spec,
          Scala.javaList(show.output())));
    }
    return java.util.Optional.empty();
  }

  /**
   * A partition spec as text: as written, or once resolved (cast to the partition columns' types, which the
   * resolved table names) its values as text; empty where neither.
   */
  static java.util.Optional<Map<String, String>> spec(org.apache.spark.sql.catalyst.analysis.PartitionSpec partition,
      org.apache.spark.sql.catalyst.plans.logical.LogicalPlan relation) {
    if (partition instanceof org.apache.spark.sql.catalyst.analysis.UnresolvedPartitionSpec u) {
      return java.util.Optional.of(Scala.javaMap(u.spec()));
    }
    if (partition instanceof org.apache.spark.sql.catalyst.analysis.ResolvedPartitionSpec r
        && relation instanceof org.apache.spark.sql.catalyst.analysis.ResolvedTable t
        && t.table() instanceof org.apache.spark.sql.connector.catalog.SupportsPartitionManagement table) {
      Map<String, String> spec = new java.util.LinkedHashMap<>();
      List<String> names = Scala.javaList(r.names());
      for (int i = 0; i < names.size(); i++) {
        org.apache.spark.sql.types.DataType type = table.partitionSchema().apply(names.get(i)).dataType();
        spec.put(names.get(i), r.ident().isNullAt(i) ? null : String.valueOf(
            org.apache.spark.sql.catalyst.CatalystTypeConverters.convertToScala(r.ident().get(i, type), type)));
      }
      return java.util.Optional.of(spec);
    }
    return java.util.Optional.empty();
  }
}
