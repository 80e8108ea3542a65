package io.gluecat.extensions;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * The extensions' parsers: Spark's (or the next extension's) parser, whose parsed statements pass through a
 * function of gluecat's before analysis (view statements, and on Spark 3.5 the planning prefetch's table
 * names; see GlueCatalogExtensions). A proxy rather than a class, because ParserInterface has different
 * methods on every Spark line; only the methods that parse a statement are looked at.
 */
final class GlueSqlParser {
  /** Spark 4's ParserInterface method for a SQL function's parameters, which Iceberg's parser refuses. */
  private static final String ROUTINE_PARAMS = "parseRoutineParam";

  private GlueSqlParser() {}

  /** What happens to a parsed statement; {@code parseStart} is when its parse began (epoch milliseconds). */
  interface ParsedStatement {
    LogicalPlan apply(LogicalPlan plan, long parseStart);
  }

  static ParserInterface wrap(ParserInterface delegate, ParsedStatement parsed) {
    return (ParserInterface) Proxy.newProxyInstance(GlueSqlParser.class.getClassLoader(),
        new Class<?>[] {ParserInterface.class}, (proxy, method, args) -> {
          Object result;
          long start = System.currentTimeMillis();
          try {
            result = method.invoke(delegate, args);
          } catch (InvocationTargetException e) {
            if (e.getCause() instanceof UnsupportedOperationException && method.getName().equals(ROUTINE_PARAMS)) {
              // Iceberg's extension parser (1.11, 1.12) refuses the parameter lists of SQL functions on Spark 4
              // (CREATE FUNCTION f(x INT) RETURNS ...), whatever the catalog; Spark's own parser reads them
              return method.invoke(new org.apache.spark.sql.execution.SparkSqlParser(), args);
            }
            throw e.getCause();
          }
          if (method.getName().startsWith("parsePlan") && result instanceof LogicalPlan plan) {
            return parsed.apply(plan, start);
          }
          return result;
        });
  }
}
