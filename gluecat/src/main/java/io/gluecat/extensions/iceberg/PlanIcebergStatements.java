package io.gluecat.extensions.iceberg;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import java.lang.reflect.Constructor;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.execution.SparkPlan;

/**
 * Iceberg's own DDL statements ({@code ALTER TABLE t ADD|DROP|REPLACE PARTITION FIELD}, {@code WRITE ORDERED BY},
 * {@code SET|DROP IDENTIFIER FIELDS}, {@code CREATE|REPLACE|DROP BRANCH|TAG}) on an Iceberg table by a gluecat name,
 * planned as Iceberg plans them for its own catalogs.
 *
 * <p>Iceberg's session extension parses these statements into plans that hold the table's name, and its planner
 * strategy runs them only when that name resolves to one of Iceberg's catalog classes; by a gluecat name no strategy
 * would plan them ("No plan for AddPartitionField"). Iceberg's strategy turns each such plan {@code P(table,
 * rest...)} into its command {@code PExec(catalog, identifier, rest...)}, which loads the table from the catalog
 * and changes it through Iceberg's API; this strategy does the same with the gluecat catalog, whose load hands the
 * table to the Iceberg catalog behind it. The classes are looked up by name, so a session without Iceberg's
 * extension never meets them.
 */
public final class PlanIcebergStatements {
  private static final String PLANS = "org.apache.spark.sql.catalyst.plans.logical.";
  private static final String COMMANDS = "org.apache.spark.sql.execution.datasources.v2.";
  private static final String ICEBERG_TABLE = "org.apache.iceberg.spark.source.SparkTable";
  /** The prefix of the catalog names under which Spark 3.5 finds gluecat catalogs' Iceberg procedures. */
  static final String PROCEDURES = "gluecat_iceberg_procedures_of_";
  /** Iceberg's DDL plans, each with the statement users write, for errors. */
  static final Map<String, String> STATEMENTS = Map.of(
      "AddPartitionField", "ALTER TABLE ... ADD PARTITION FIELD",
      "DropPartitionField", "ALTER TABLE ... DROP PARTITION FIELD",
      "ReplacePartitionField", "ALTER TABLE ... REPLACE PARTITION FIELD",
      "SetWriteDistributionAndOrdering", "ALTER TABLE ... WRITE ORDERED BY / DISTRIBUTED BY",
      "SetIdentifierFields", "ALTER TABLE ... SET IDENTIFIER FIELDS",
      "DropIdentifierFields", "ALTER TABLE ... DROP IDENTIFIER FIELDS",
      "CreateOrReplaceBranch", "ALTER TABLE ... CREATE OR REPLACE BRANCH",
      "CreateOrReplaceTag", "ALTER TABLE ... CREATE OR REPLACE TAG",
      "DropBranch", "ALTER TABLE ... DROP BRANCH",
      "DropTag", "ALTER TABLE ... DROP TAG");

  private final SparkSession spark;

  public PlanIcebergStatements(SparkSession spark) {
    this.spark = spark;
  }

  /**
   * The gluecat table a plan names in its first field (Iceberg's DDL plans and {@code CallStatement} keep the name
   * there, unresolved); empty when the plan has no such name, or it is not a gluecat catalog's.
   */
  @SuppressWarnings("unchecked")
  private Optional<GlueTarget> named(LogicalPlan plan) {
    return plan.productArity() > 0 && plan.productElement(0) instanceof scala.collection.Seq<?> name
        ? GlueTarget.of(spark, (scala.collection.Seq<String>) name) : Optional.empty();
  }

  /** The simple class name of one of Iceberg's DDL plans; null for any other plan. */
  private static String kind(LogicalPlan plan) {
    String className = plan.getClass().getName();
    String kind = className.substring(className.lastIndexOf('.') + 1);
    return className.startsWith(PLANS) && STATEMENTS.containsKey(kind) ? kind : null;
  }

  /**
   * An analyzer rule that checks the table of Iceberg's DDL on a gluecat name while the statement is analysed (it
   * must be an Iceberg table; its read of the entry is the statement's, which the command then loads with), and,
   * on Spark 3.5, routes {@code CALL} on a gluecat catalog to its Iceberg procedures ({@link #routedCall}).
   */
  public org.apache.spark.sql.catalyst.rules.Rule<LogicalPlan> rule() {
    return new org.apache.spark.sql.catalyst.rules.Rule<>() {
      @Override
      public LogicalPlan apply(LogicalPlan plan) {
        String kind = kind(plan);
        if (kind != null) { // an Iceberg table, or refused naming the table; its read of the entry is the statement's
          named(plan).ifPresent(table -> refuseOtherKinds(table, kind));
        }
        return routedCall(plan);
      }
    };
  }

  /**
   * Spark 3.5's {@code CALL <gluecat catalog>.system.<procedure>(...)}, as Iceberg's extension parses it
   * ({@code CallStatement}), named instead in the catalog that holds the gluecat catalog's Iceberg procedures
   * ({@code SparkCompat.ICEBERG_PROCEDURE_CATALOG}, registered here for the session under {@value #PROCEDURES} and
   * the catalog's name), so that Iceberg's analyzer, which takes procedures only from such catalogs, finds them.
   * gluecat's parser does this where it wraps Iceberg's (Iceberg's extension listed first), and gluecat's analyzer
   * rule where gluecat's extension is listed first, before Iceberg's rule would refuse the name. Any other plan is
   * returned as it is.
   */
  public LogicalPlan routedCall(LogicalPlan plan) {
    String procedures = SparkCompat.ICEBERG_PROCEDURE_CATALOG;
    if (procedures == null || !plan.getClass().getName().equals(PLANS + "CallStatement")) {
      return plan;
    }
    Optional<GlueTarget> target = named(plan);
    if (target.isEmpty()) {
      return plan;
    }
    String catalog = PROCEDURES + target.get().catalog().name().toLowerCase(java.util.Locale.ROOT);
    String key = "spark.sql.catalog." + catalog;
    if (!spark.conf().contains(key)) {
      spark.conf().set(key + "." + "gluecat-catalog", target.get().catalog().name());
      spark.conf().set(key, procedures);
    }
    java.util.List<String> routed = new java.util.ArrayList<>();
    routed.add(catalog);
    routed.addAll(java.util.Arrays.asList(target.get().ident().namespace()));
    routed.add(target.get().ident().name());
    try {
      return (LogicalPlan) plan.getClass().getConstructors()[0].newInstance(Scala.list(routed),
          plan.productElement(1));
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("gluecat cannot route CALL " + String.join(".", routed) + " to the Iceberg "
          + "procedures of catalog " + target.get().catalog().name() + " with this Iceberg extension", e);
    }
  }

  /**
   * Iceberg's command for one of its DDL plans on a gluecat name; empty for any other plan. The table's kind was
   * checked while the statement was analysed ({@link #rule}); the command loads the table itself.
   */
  public Optional<SparkPlan> plan(LogicalPlan plan) {
    String kind = kind(plan);
    Optional<GlueTarget> target = kind == null ? Optional.empty() : named(plan);
    if (target.isEmpty()) {
      return Optional.empty(); // Iceberg's own catalogs: Iceberg's strategy; anything else: Spark's "No plan"
    }
    GlueTarget table = target.get();
    Object[] arguments = new Object[plan.productArity() + 1];
    arguments[0] = table.catalog();
    arguments[1] = table.ident();
    for (int i = 1; i < plan.productArity(); i++) {
      arguments[i + 1] = plan.productElement(i);
    }
    try {
      Class<?> command = Class.forName(COMMANDS + kind + "Exec", true, plan.getClass().getClassLoader());
      for (Constructor<?> constructor : command.getConstructors()) {
        if (constructor.getParameterCount() == arguments.length) {
          return Optional.of((SparkPlan) constructor.newInstance(arguments));
        }
      }
      throw new IllegalStateException("no constructor of " + arguments.length + " arguments");
    } catch (ReflectiveOperationException | RuntimeException e) {
      Throwable cause = e instanceof java.lang.reflect.InvocationTargetException i ? i.getCause() : e;
      throw new UnsupportedOperationException(String.format("%s on %s: gluecat cannot plan this Iceberg statement "
          + "with the Iceberg extension of this session (%s: %s); run it through an Iceberg catalog of your own",
          STATEMENTS.get(kind), table.qualified(), kind, cause), cause);
    }
  }

  /** Iceberg's statements change Iceberg tables only: another table of the catalog is refused by its name. */
  private static void refuseOtherKinds(GlueTarget target, String kind) {
    Table loaded;
    try {
      loaded = target.catalog().loadTable(target.ident());
    } catch (Exception e) {
      throw Scala.rethrow(e); // no such table: Spark's own error
    }
    if (!loaded.getClass().getName().equals(ICEBERG_TABLE)) {
      throw new UnsupportedOperationException(String.format("Table %s is not an Apache Iceberg table: %s is one of "
          + "Iceberg's statements, for Iceberg tables only", target.qualified(), STATEMENTS.get(kind)));
    }
  }
}
