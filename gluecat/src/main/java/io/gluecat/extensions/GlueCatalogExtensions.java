package io.gluecat.extensions;

import io.gluecat.extensions.delta.RewriteGlueStatements;
import io.gluecat.extensions.describe.RewriteDescribeTable;
import io.gluecat.extensions.describe.RewriteShowTableExtended;
import io.gluecat.extensions.iceberg.PlanIcebergStatements;
import io.gluecat.extensions.partitions.RewriteRepairTable;
import io.gluecat.extensions.partitions.RewriteShowPartitions;
import io.gluecat.extensions.partitions.RewriteTableStorage;
import io.gluecat.extensions.planning.PrefetchTables;
import io.gluecat.extensions.statistics.RewriteAnalyzeTable;
import io.gluecat.extensions.views.RewriteViewCommands;
import io.gluecat.extensions.views.SyncEvolvedViewSchema;

import io.gluecat.compat.SparkCompat;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.SparkSessionExtensions;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.catalyst.rules.Rule;
import scala.runtime.AbstractFunction1;
import scala.runtime.BoxedUnit;

/**
 * gluecat's Spark session extension: the statements that Spark or Delta send to Spark's built-in session catalog
 * (or to Delta's own code by path) even when the table is a gluecat table are run by gluecat instead. Configure it
 * before Delta's:
 * <pre>spark.sql.extensions=io.gluecat.extensions.GlueCatalogExtensions,io.delta.sql.DeltaSparkSessionExtension</pre>
 * Spark applies the resolution rules of extensions in the order they are listed, and Delta's analyzer would
 * otherwise claim CLONE and CREATE TABLE LIKE in session mode first (see docs/extensions.md).
 */
public final class GlueCatalogExtensions extends AbstractFunction1<SparkSessionExtensions, BoxedUnit> {
  static final String DELTA_EXTENSIONS = "io.delta.sql.DeltaSparkSessionExtension";

  @Override
  @SuppressWarnings({"unchecked", "rawtypes"})
  public BoxedUnit apply(SparkSessionExtensions extensions) {
    // Raw: the builder's session type is org.apache.spark.sql.SparkSession up to 3.5 and its classic subclass on 4.
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        SparkSession spark = (SparkSession) session;
        checkOrder(spark);
        return new RewriteGlueStatements(spark);
      }
    });
    // planning prefetch (docs/performance.md, "Planning many tables"): before Spark resolves the tables; where
    // Spark has no rule for that (3.5), the parser hands the parsed names on instead, so only one of them runs
    boolean earlyRule = SparkCompat.injectEarlyAnalyzerRule(extensions, PrefetchTables.BUILDER);
    // view DDL on gluecat names (docs/extensions.md, "Views"): a parser pass for named catalogs, a rule for both modes
    extensions.injectParser((scala.Function2) new scala.runtime.AbstractFunction2<Object, Object, Object>() {
      @Override
      public Object apply(Object session, Object delegate) {
        SparkSession spark = (SparkSession) session;
        return GlueSqlParser.wrap((org.apache.spark.sql.catalyst.parser.ParserInterface) delegate,
            (plan, parseStart) -> {
              // Spark 3.5's CALL on a gluecat catalog, parsed by Iceberg's parser where gluecat's wraps it
              // (Iceberg's extension listed first); the analyzer rule below routes it in the other order
              LogicalPlan parsed = RewriteViewCommands.parsed(spark,
                  new PlanIcebergStatements(spark).routedCall(plan));
              if (!earlyRule) { // Spark 3.5: the prefetch's table names, for the statement's first read
                PrefetchTables.parsed(spark, parsed, parseStart, System.currentTimeMillis());
              }
              return parsed;
            });
      }
    });
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        return new RewriteViewCommands((SparkSession) session);
      }
    });
    // the evolved schema of a gluecat view WITH SCHEMA (TYPE) EVOLUTION, written back to Glue on read
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        return new SyncEvolvedViewSchema((SparkSession) session);
      }
    });
    // SHOW PARTITIONS of file source and Hive-format tables, from Glue (docs/extensions.md, "SHOW PARTITIONS")
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        return new RewriteShowPartitions((SparkSession) session);
      }
    });
    // RECOVER PARTITIONS and [MSCK] REPAIR TABLE of file source tables, from their directories into Glue
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        return new RewriteRepairTable((SparkSession) session);
      }
    });
    // SET SERDEPROPERTIES (the options) and PARTITION (..) SET LOCATION of file source tables, in Glue
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        return new RewriteTableStorage((SparkSession) session);
      }
    });
    // ANALYZE TABLE and DESCRIBE EXTENDED t col of file source tables: statistics in the Glue entry
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        return new RewriteAnalyzeTable();
      }
    });
    // DESCRIBE [EXTENDED] t of file source tables: the rows of Spark's V1 command for its own catalog's tables
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        return new RewriteDescribeTable();
      }
    });
    // SHOW TABLE EXTENDED of file source tables: the text of Spark's V1 command for its own catalog's tables
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        return new RewriteShowTableExtended((SparkSession) session);
      }
    });
    // Iceberg's DDL (partition evolution, write order, identifier fields, branches and tags) on Iceberg tables by
    // gluecat's names, which Iceberg's own strategy plans only for its catalog classes (docs/configuration.md):
    // the table checked while the statement is analysed, then planned into Iceberg's commands
    extensions.injectResolutionRule((scala.Function1) new AbstractFunction1<Object, Rule<LogicalPlan>>() {
      @Override
      public Rule<LogicalPlan> apply(Object session) {
        return new PlanIcebergStatements((SparkSession) session).rule();
      }
    });
    extensions.injectPlannerStrategy((scala.Function1) new AbstractFunction1<Object, Object>() {
      @Override
      public Object apply(Object session) {
        return SparkCompat.strategy(new PlanIcebergStatements((SparkSession) session)::plan);
      }
    });
    return BoxedUnit.UNIT;
  }

  /**
   * In session mode, Delta's rules must come after gluecat's; a session listing them the other way round would
   * have CLONE and CREATE TABLE LIKE fail with Spark's SCHEMA_NOT_FOUND, so it is refused with the fix.
   */
  static void checkOrder(SparkSession spark) {
    String problem = orderProblem(spark.conf().get("spark.sql.extensions", ""),
        spark.conf().get("spark.sql.catalog.spark_catalog", ""));
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
  }

  /** The class names a {@code spark.sql.extensions} value lists, in order. */
  static List<String> listed(String extensions) {
    return Arrays.stream(extensions.split(",")).map(String::trim).toList();
  }

  /** What is wrong with the order of {@code extensions} when spark_catalog is {@code sessionCatalog}; null if nothing. */
  static String orderProblem(String extensions, String sessionCatalog) {
    List<String> listed = listed(extensions);
    int gluecat = listed.indexOf(GlueCatalogExtensions.class.getName());
    int delta = listed.indexOf(DELTA_EXTENSIONS);
    if (gluecat < 0 || delta < 0 || gluecat < delta || !sessionCatalog.trim().startsWith("io.gluecat.")) {
      return null;
    }
    return String.format("spark.sql.extensions lists %s before %s, but spark_catalog is a gluecat catalog: list "
        + "gluecat's extension first (spark.sql.extensions=%s,%s), or Delta's analyzer sends CLONE and CREATE TABLE "
        + "LIKE to Spark's built-in catalog instead of Glue.", DELTA_EXTENSIONS,
        GlueCatalogExtensions.class.getName(), GlueCatalogExtensions.class.getName(), DELTA_EXTENSIONS);
  }
}
