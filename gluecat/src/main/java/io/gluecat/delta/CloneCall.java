package io.gluecat.delta;

/**
 * Whether Delta's analyzer is creating the target of a SHALLOW CLONE through this catalog.
 *
 * <p>For a target in a catalog other than spark_catalog, Delta resolves {@code CREATE TABLE c SHALLOW CLONE s}
 * by creating {@code c} through the catalog (the source's schema, partitioning and Delta properties, but no
 * provider), and then replacing the table the catalog returned, by its path, with the clone. The create must
 * therefore be a Delta create, which nothing in its arguments says: only the caller tells it apart from a
 * {@code CREATE TABLE} without {@code USING}, as {@code WriterCall} tells DataFrameWriter apart.
 */
public final class CloneCall {
  static final String DELTA_ANALYSIS = "org.apache.spark.sql.delta.DeltaAnalysis";
  private static final StackWalker STACK = StackWalker.getInstance();

  private CloneCall() {}

  /** True while Delta's analysis of a CLONE statement is the caller of this catalog's createTable. */
  public static boolean current() {
    return STACK.walk(frames -> frames
        // Spark 4's createTable(ident, Column[], ..) is a default method of TableCatalog that calls gluecat's
        .dropWhile(f -> f.getClassName().startsWith("io.gluecat.")
            || f.getClassName().startsWith("org.apache.spark.sql.connector.catalog."))
        .findFirst()
        .filter(f -> f.getClassName().equals(DELTA_ANALYSIS) && f.getMethodName().contains("resolveCloneCommand"))
        .isPresent());
  }
}
