package io.gluecat.hive;

import io.gluecat.glue.PartitionExpressions;
import io.gluecat.glue.PartitionExpressions.Key;
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
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A query's partition filters as a GetPartitions {@code Expression}, written in Glue's grammar
 * ({@link PartitionExpressions}: comparisons, IN, AND, OR over keys of the types it compares). The expression
 * selects every partition the filters can match and possibly more: what the grammar cannot say (other types,
 * functions, NOT, quotes in values, keys named like a word of Glue's parser) is left out, and the scan prunes
 * the partitions Glue returns with the filters themselves.
 */
public final class PartitionFilters {
  private PartitionFilters() {}

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
    String expression = PartitionExpressions.and(parts);
    // past Glue's limit, listing all partitions and pruning them here still reads the right ones
    return PartitionExpressions.fits(expression) ? Optional.of(expression) : Optional.empty();
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
          ? Optional.of(PartitionExpressions.and(List.of(left.get(), right.get()))) : Optional.empty();
    }
    if (e instanceof Or or) {
      Optional<String> left = translate(or.left(), schema);
      Optional<String> right = translate(or.right(), schema);
      return left.isPresent() && right.isPresent()
          ? Optional.of(PartitionExpressions.or(left.get(), right.get())) : Optional.empty();
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
    Optional<Key> key = key(attribute, schema);
    if (key.isEmpty()) {
      return Optional.empty();
    }
    List<String> texts = new ArrayList<>();
    for (Object value : values) {
      Optional<String> text = text(key.get(), value);
      if (text.isEmpty()) {
        return Optional.empty();
      }
      texts.add(text.get());
    }
    return PartitionExpressions.in(key.get(), texts);
  }

  private static Optional<String> compare(Attribute attribute, String operator, Literal value, StructType schema) {
    return key(attribute, schema).flatMap(k -> text(k, value.value())
        .flatMap(t -> PartitionExpressions.comparison(k, operator, t)));
  }

  /** The partition key the attribute reads, when the attribute too is of a type Glue compares. */
  private static Optional<Key> key(Attribute attribute, StructType schema) {
    for (StructField f : schema.fields()) {
      if (f.name().equalsIgnoreCase(attribute.name())) {
        return PartitionExpressions.isComparable(glueType(attribute.dataType()))
            ? Optional.of(new Key(f.name(), glueType(f.dataType()))) : Optional.empty();
      }
    }
    return Optional.empty();
  }

  /** The type's Hive name, as Glue keeps a key of it (strings by class: a collated one's name adds its collation). */
  private static String glueType(DataType type) {
    return type instanceof StringType ? "string" : type.catalogString();
  }

  /** A literal's value as Glue keeps it; null has none (a comparison with null matches nothing). */
  private static Optional<String> text(Key key, Object value) {
    if (value == null) {
      return Optional.empty();
    }
    if (key.type().equals("date")) { // Spark's date is days since 1970-01-01; Glue keeps 'yyyy-MM-dd'
      return value instanceof Integer days ? Optional.of(java.time.LocalDate.ofEpochDay(days).toString())
          : Optional.empty();
    }
    return key.type().equals("string") || value instanceof Number ? Optional.of(value.toString()) : Optional.empty();
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
