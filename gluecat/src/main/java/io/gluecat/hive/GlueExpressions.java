package io.gluecat.hive;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.BinaryComparison;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GreaterThan;
import org.apache.spark.sql.catalyst.expressions.GreaterThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.InSet;
import org.apache.spark.sql.catalyst.expressions.LessThan;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.types.ByteType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.IntegerType;
import org.apache.spark.sql.types.LongType;
import org.apache.spark.sql.types.ShortType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A query's partition filters as a GetPartitions {@code Expression} (Glue's grammar: comparisons, IN, AND,
 * OR over partition keys of string, integer and date types). The expression selects every partition the
 * filters can match and possibly more: what Glue cannot express (other types, timestamps, functions, NOT,
 * quotes in values, keys named like a word of Glue's parser, {@code PartitionsByValue.isReserved}) is left
 * out, and the scan prunes the partitions Glue returns with the filters themselves. (A write's lookup of the
 * partitions it wrote builds its expressions in {@code PartitionsByValue}.)
 */
public final class GlueExpressions {
  /** Glue's limit on an Expression, in bytes. */
  static final int MAX_BYTES = io.gluecat.partitions.PartitionsByValue.MAX_EXPRESSION_BYTES;

  private GlueExpressions() {}

  /** The expression of the filters' conjuncts Glue can evaluate; empty when none is. */
  public static Optional<String> of(List<Expression> filters, StructType partitionSchema) {
    List<String> parts = new ArrayList<>();
    for (Expression filter : filters) {
      for (Expression conjunct : conjuncts(filter)) {
        translate(conjunct, partitionSchema).ifPresent(parts::add);
      }
    }
    if (parts.isEmpty()) {
      return Optional.empty();
    }
    String expression = parts.size() == 1 ? parts.get(0) : "(" + String.join(") AND (", parts) + ")";
    // past Glue's limit, listing all partitions and pruning them here still reads the right ones
    return expression.getBytes(StandardCharsets.UTF_8).length <= MAX_BYTES ? Optional.of(expression)
        : Optional.empty();
  }

  /** The filter's parts joined by AND, flattened (shared with PartitionProjection's pruning). */
  static List<Expression> conjuncts(Expression e) {
    if (e instanceof And and) {
      List<Expression> all = new ArrayList<>(conjuncts(and.left()));
      all.addAll(conjuncts(and.right()));
      return all;
    }
    return List.of(e);
  }

  /** An exact translation of {@code e}, or empty: only exact parts may be combined under OR. */
  private static Optional<String> translate(Expression e, StructType schema) {
    if (e instanceof And and) {
      Optional<String> left = translate(and.left(), schema);
      Optional<String> right = translate(and.right(), schema);
      return left.isPresent() && right.isPresent()
          ? Optional.of("(" + left.get() + ") AND (" + right.get() + ")") : Optional.empty();
    }
    if (e instanceof Or or) {
      Optional<String> left = translate(or.left(), schema);
      Optional<String> right = translate(or.right(), schema);
      return left.isPresent() && right.isPresent()
          ? Optional.of("(" + left.get() + ") OR (" + right.get() + ")") : Optional.empty();
    }
    if (e instanceof BinaryComparison comparison && operator(comparison) != null) {
      Expression left = comparison.left();
      Expression right = comparison.right();
      if (left instanceof Attribute && right instanceof Literal) {
        return compare((Attribute) left, operator(comparison), (Literal) right, schema);
      }
      if (left instanceof Literal && right instanceof Attribute) {
        return compare((Attribute) right, flipped(operator(comparison)), (Literal) left, schema);
      }
      return Optional.empty();
    }
    if (e instanceof In in && in.value() instanceof Attribute attribute) {
      List<Object> values = new ArrayList<>();
      for (Expression item : io.gluecat.compat.Scala.javaList(in.list())) {
        if (!(item instanceof Literal)) {
          return Optional.empty();
        }
        values.add(((Literal) item).value());
      }
      return inList(attribute, values, schema);
    }
    if (e instanceof InSet inSet && inSet.child() instanceof Attribute attribute) {
      return inList(attribute, new ArrayList<>(io.gluecat.compat.Scala.javaList(inSet.hset().toList())), schema);
    }
    return Optional.empty();
  }

  private static Optional<String> inList(Attribute attribute, List<Object> values, StructType schema) {
    Optional<StructField> key = key(attribute, schema);
    if (key.isEmpty() || values.isEmpty()) {
      return Optional.empty();
    }
    List<String> literals = new ArrayList<>();
    for (Object value : values) {
      Optional<String> literal = literal(key.get().dataType(), value);
      if (literal.isEmpty()) {
        return Optional.empty();
      }
      literals.add(literal.get());
    }
    return Optional.of(key.get().name() + " IN (" + String.join(", ", literals) + ")");
  }

  private static Optional<String> compare(Attribute attribute, String operator, Literal value, StructType schema) {
    Optional<StructField> key = key(attribute, schema);
    return key.flatMap(k -> literal(k.dataType(), value.value()).map(l -> k.name() + " " + operator + " " + l));
  }

  private static Optional<StructField> key(Attribute attribute, StructType schema) {
    for (StructField f : schema.fields()) {
      if (f.name().equalsIgnoreCase(attribute.name())) {
        return isGlueComparable(f.dataType()) && isGlueComparable(attribute.dataType())
            && !io.gluecat.partitions.PartitionsByValue.isReserved(f.name()) ? Optional.of(f) : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /**
   * Partition key types Glue's expressions compare by value. Timestamps are left to the scan: a partition's
   * timestamp string is read in the session's time zone, which Glue does not know.
   */
  private static boolean isGlueComparable(DataType type) {
    return type instanceof StringType || type instanceof IntegerType || type instanceof LongType
        || type instanceof ShortType || type instanceof ByteType || type instanceof DateType;
  }

  /** A literal in Glue's grammar; null and strings with a quote have none (a null comparison matches nothing). */
  private static Optional<String> literal(DataType type, Object value) {
    if (value == null) {
      return Optional.empty();
    }
    if (type instanceof StringType) {
      String s = value.toString();
      return s.contains("'") || s.contains("\\") ? Optional.empty() : Optional.of("'" + s + "'");
    }
    if (type instanceof DateType) { // Spark's date is days since 1970-01-01; Glue compares 'yyyy-MM-dd'
      return value instanceof Integer days ? Optional.of("'" + java.time.LocalDate.ofEpochDay(days) + "'")
          : Optional.empty();
    }
    return value instanceof Number ? Optional.of(value.toString()) : Optional.empty();
  }

  private static String operator(BinaryComparison comparison) {
    if (comparison instanceof EqualTo) {
      return "=";
    }
    if (comparison instanceof LessThan) {
      return "<";
    }
    if (comparison instanceof LessThanOrEqual) {
      return "<=";
    }
    if (comparison instanceof GreaterThan) {
      return ">";
    }
    if (comparison instanceof GreaterThanOrEqual) {
      return ">=";
    }
    return null;
  }

  private static String flipped(String operator) {
    return switch (operator) {
      case "<" -> ">";
      case "<=" -> ">=";
      case ">" -> "<";
      case ">=" -> "<=";
      default -> operator;
    };
  }
}
