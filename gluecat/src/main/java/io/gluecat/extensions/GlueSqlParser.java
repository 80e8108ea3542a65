package io.gluecat.extensions;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.function.UnaryOperator;
import org.apache.spark.sql.catalyst.parser.ParserInterface;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;

/**
 * The extensions' parsers: Spark's (or the next extension's) parser, whose parsed statements pass through a
 * function of gluecat's before analysis. A proxy rather than a class, because ParserInterface has different
 * methods on every Spark line; only the methods that parse a statement are looked at.
 */
final class GlueSqlParser {
  private GlueSqlParser() {}

  static ParserInterface wrap(ParserInterface delegate, UnaryOperator<LogicalPlan> parsed) {
    return (ParserInterface) Proxy.newProxyInstance(GlueSqlParser.class.getClassLoader(),
        new Class<?>[] {ParserInterface.class}, (proxy, method, args) -> {
          Object result;
          try {
            result = method.invoke(delegate, args);
          } catch (InvocationTargetException e) {
            throw e.getCause();
          }
          if (method.getName().startsWith("parsePlan") && result instanceof LogicalPlan plan) {
            return parsed.apply(plan);
          }
          return result;
        });
  }
}
