package io.gluecat.extensions;

import io.gluecat.extensions.planning.PrefetchTables;
import io.gluecat.extensions.views.RewriteViewCommands;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * The extension's parser: Spark's (or the next extension's) parser, whose parsed statements pass through
 * {@link RewriteViewCommands#parsed}, and on Spark 3.5 also {@link PrefetchTables#parsed} (4.x prefetches with an
 * analyzer rule instead). A proxy rather than a class, because ParserInterface has different methods on every
 * Spark line; only the methods that parse a statement are looked at.
 */
final class GlueSqlParser {
  private GlueSqlParser() {}

  static ParserInterface wrap(SparkSession spark, ParserInterface delegate, boolean prefetchParsed) {
    return (ParserInterface) Proxy.newProxyInstance(GlueSqlParser.class.getClassLoader(),
        new Class<?>[] {ParserInterface.class}, (proxy, method, args) -> {
          Object result;
          long start = System.currentTimeMillis();
          try {
            result = method.invoke(delegate, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().startsWith("parsePlan") && result instanceof LogicalPlan plan) {
            LogicalPlan parsed = RewriteViewCommands.parsed(spark, plan);
            if (prefetchParsed) {
              PrefetchTables.parsed(spark, parsed, start, System.currentTimeMillis());
            }
            return parsed;
          }
          return result;
        });
  }
}
