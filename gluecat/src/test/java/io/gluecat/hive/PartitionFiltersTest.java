package io.gluecat.hive;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.expressions.And;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.GreaterThan;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.IsNotNull;
import org.apache.spark.sql.catalyst.expressions.InSet;
import org.apache.spark.sql.catalyst.expressions.LessThan;
import org.apache.spark.sql.catalyst.expressions.LessThanOrEqual;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.catalyst.expressions.Not;
import org.apache.spark.sql.catalyst.expressions.Or;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/**
 * Partition filters to GetPartitions expressions: exact where Glue can evaluate them, left out elsewhere. The
 * grammar's own rules (literals, key names, the limit) are PartitionExpressionsTest's; here, how Spark's
 * expressions and values reach them.
 */
class PartitionFiltersTest {
  private static final StructType KEYS = StructType.fromDDL(
      "region STRING, year INT, day DATE, rate DOUBLE, at TIMESTAMP, `end` STRING, `a-b` STRING, n BIGINT, s SMALLINT");

  private static AttributeReference attr(String name) {
    return (AttributeReference) io.gluecat.compat.Scala.javaList(org.apache.spark.sql.catalyst.types.DataTypeUtils.toAttributes(KEYS)).stream()
        .filter(a -> a.name().equals(name)).findFirst().orElseThrow();
  }

  private static Literal lit(Object value) {
    return org.apache.spark.sql.catalyst.expressions.Literal$.MODULE$.apply(value);
  }

  private static Optional<String> of(Expression... filters) {
    return PartitionFilters.of(List.of(filters), KEYS);
  }

  @Test
  void comparisonsOnStringAndIntegerKeysTranslate() {
    assertEquals(Optional.of("region = 'eu'"), of(new EqualTo(attr("region"), lit("eu"))));
    assertEquals(Optional.of("year > 2020"), of(new GreaterThan(attr("year"), lit(2020))));
    assertEquals(Optional.of("year >= 2020"), of(new LessThanOrEqual(lit(2020), attr("year"))),
        "a literal on the left flips the operator");
    assertEquals(Optional.of("region IN ('eu', 'us')"),
        of(new In(attr("region"), io.gluecat.compat.Scala.list(lit("eu"), lit("us")))));
  }

  @Test
  void conjunctionsAndDisjunctionsCombine() {
    assertEquals(Optional.of("(region = 'eu') AND (year = 2024)"),
        of(new EqualTo(attr("region"), lit("eu")), new EqualTo(attr("year"), lit(2024))));
    assertEquals(Optional.of("(region = 'eu') OR (year = 2024)"),
        of(new Or(new EqualTo(attr("region"), lit("eu")), new EqualTo(attr("year"), lit(2024)))));
  }

  /** Glue compares date keys by value, written as quoted ISO dates. */
  @Test
  void comparisonsOnDateKeysTranslate() {
    Literal day = Literal.create((int) java.time.LocalDate.parse("2024-03-01").toEpochDay(), DataTypes.DateType);
    assertEquals(Optional.of("day = '2024-03-01'"), of(new EqualTo(attr("day"), day)));
    assertEquals(Optional.of("day < '2024-03-01'"), of(new GreaterThan(day, attr("day"))));
    assertEquals(Optional.of("day IN ('2024-03-01', '1970-01-02')"), of(new In(attr("day"),
        io.gluecat.compat.Scala.list(day, Literal.create(1, DataTypes.DateType)))));
  }

  /** What Glue cannot evaluate is left to the scan, and never narrows what Glue returns. */
  @Test
  void untranslatablePartsWidenTheExpressionNeverNarrowIt() {
    Expression onTimestamp = new EqualTo(attr("at"), Literal.create(19000L * 86_400_000_000L, DataTypes.TimestampType));
    Expression onDouble = new GreaterThan(attr("rate"), lit(1.5));
    Expression quoted = new EqualTo(attr("region"), lit("o'hare"));
    assertEquals(Optional.empty(), of(onTimestamp));
    assertEquals(Optional.empty(), of(onDouble, quoted, new IsNotNull(attr("region"))));
    assertEquals(Optional.of("year = 1"), of(new And(onTimestamp, new EqualTo(attr("year"), lit(1)))),
        "a conjunct Glue cannot evaluate is dropped");
    assertEquals(Optional.empty(), of(new Or(onTimestamp, new EqualTo(attr("year"), lit(1)))),
        "an OR with a side Glue cannot evaluate is dropped whole");
    assertEquals(Optional.empty(), of(new Not(new EqualTo(attr("region"), lit("eu")))));
    assertEquals(Optional.empty(), of(new EqualTo(attr("end"), lit("x"))), "a key named like a word of Glue's parser");
    assertEquals(Optional.empty(), of(new EqualTo(attr("a-b"), lit("x"))), "a key Glue's grammar cannot name");
    assertEquals(Optional.empty(), of(new EqualTo(attr("region"), lit("a\\b"))), "a backslash");
    assertEquals(Optional.empty(), of(new EqualTo(attr("region"), Literal.create(null, DataTypes.StringType))));
    assertEquals(Optional.empty(), of(new In(attr("region"), io.gluecat.compat.Scala.list(lit("eu"), lit("o'hare")))),
        "an IN with a value Glue cannot be given");
  }

  @Test
  void everyIntegerTypeIsWrittenBare() {
    assertEquals(Optional.of("(n = 5000000000) AND (s < 3)"),
        of(new EqualTo(attr("n"), lit(5_000_000_000L)), new LessThan(attr("s"), lit((short) 3))));
    assertEquals(Optional.of("year IN (1, 2)"), of(new InSet(attr("year"),
        io.gluecat.compat.Scala.<Object>list(1, 2).toSet())));
  }

  @Test
  void anExpressionOverGluesLimitIsNotSent() {
    Expression[] many = new Expression[300];
    for (int i = 0; i < many.length; i++) {
      many[i] = new EqualTo(attr("region"), lit("region-" + i));
    }
    assertEquals(Optional.empty(), of(many));
  }
}
