package io.gluecat.hive;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.InvalidGlueEntryException;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.expressions.AttributeReference;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

/** Athena's projection parameters to partitions and locations (filters are applied by the index, not here). */
class PartitionProjectionTest {
  private static final String TABLE = "glue.lake.t";
  private static final String LOCATION = "s3://lake/t/";
  /** Keeps every candidate: pruning by filters is the index's, tested through queries. */
  private static final PartitionProjection.Pruner ALL = (schema, rows, filters) -> {
    List<Integer> all = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      all.add(i);
    }
    return all;
  };

  private static PartitionProjection projection(String keys, String... parameters) {
    Map<String, String> map = new HashMap<>();
    map.put("projection.enabled", "true");
    for (int i = 0; i < parameters.length; i += 2) {
      map.put(parameters[i], parameters[i + 1]);
    }
    return PartitionProjection.of(TABLE, map, LOCATION, List.of(StructType.fromDDL(keys).fields())).orElseThrow();
  }

  private static List<String> partitions(PartitionProjection p, Expression... filters) {
    return p.partitions(List.of(filters), ALL).stream().map(x -> x.values() + " " + x.location()).toList();
  }

  private static void assertRefused(Runnable load, String... fragments) {
    InvalidGlueEntryException e = assertThrows(InvalidGlueEntryException.class, load::run);
    for (String f : fragments) {
      assertTrue(e.getMessage().contains(f), "'" + f + "' in: " + e.getMessage());
    }
  }

  @Test
  void withoutProjectionEnabledThereIsNone() {
    assertTrue(PartitionProjection.of(TABLE, Map.of("projection.k.type", "enum"), LOCATION,
        List.of(StructType.fromDDL("k STRING").fields())).isEmpty());
  }

  @Test
  void enumAndIntegerKeysCombineUnderTheTableInHivesLayout() {
    PartitionProjection p = projection("region STRING, n INT", "projection.region.type", "enum",
        "projection.region.values", "eu,a/b", "projection.n.type", "integer", "projection.n.range", "8,12",
        "projection.n.interval", "4", "projection.n.digits", "3");
    assertEquals(List.of("[eu, 008] s3://lake/t/region=eu/n=008", "[eu, 012] s3://lake/t/region=eu/n=012",
        "[a/b, 008] s3://lake/t/region=a%2Fb/n=008", "[a/b, 012] s3://lake/t/region=a%2Fb/n=012"), partitions(p));
  }

  @Test
  void aTemplatePlacesValuesAsTheyAre() {
    PartitionProjection p = projection("month STRING", "projection.month.type", "date",
        "projection.month.range", "2023-11,2024-02", "projection.month.format", "yyyy-MM",
        "storage.location.template", "s3://other/${month}/x");
    assertEquals(List.of("[2023-11] s3://other/2023-11/x", "[2023-12] s3://other/2023-12/x",
        "[2024-01] s3://other/2024-01/x", "[2024-02] s3://other/2024-02/x"), partitions(p),
        "a format without days steps by months");
  }

  @Test
  void dateRangesRelativeToNowEndAtTheFormatsPrecision() {
    PartitionProjection p = projection("day DATE", "projection.day.type", "date",
        "projection.day.range", "NOW-2DAYS, NOW", "projection.day.format", "yyyyMMdd");
    LocalDate today = LocalDate.now(ZoneOffset.UTC);
    List<String> expected = new ArrayList<>();
    for (int back = 2; back >= 0; back--) {
      LocalDate d = today.minusDays(back);
      expected.add("[" + d + "] s3://lake/t/day=" + d.toString().replace("-", ""));
    }
    assertEquals(expected, partitions(p), "a date key's value is the date; its location the formatted value");
  }

  @Test
  void injectedValuesComeFromEqualityFilters() {
    PartitionProjection p = projection("device STRING", "projection.device.type", "injected");
    AttributeReference device = (AttributeReference) io.gluecat.compat.Scala.javaList(
        org.apache.spark.sql.catalyst.types.DataTypeUtils.toAttributes(StructType.fromDDL("device STRING"))).get(0);
    assertEquals(List.of("[a] s3://lake/t/device=a"),
        partitions(p, new EqualTo(device, Literal.create("a", org.apache.spark.sql.types.DataTypes.StringType))));
    assertEquals(List.of("[b] s3://lake/t/device=b"), partitions(p, new In(device, io.gluecat.compat.Scala.list(
        Literal.create("b", org.apache.spark.sql.types.DataTypes.StringType),
        Literal.create("c", org.apache.spark.sql.types.DataTypes.StringType))),
        new EqualTo(device, Literal.create("b", org.apache.spark.sql.types.DataTypes.StringType))),
        "two conditions on the key allow what both allow");
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> partitions(p));
    assertTrue(e.getMessage().contains(TABLE) && e.getMessage().contains("'device'"), e.getMessage());
  }

  @Test
  void badParametersAreRefusedNamingTableKeyAndParameter() {
    assertRefused(() -> projection("h STRING", "projection.h.type", "date", "projection.h.range",
        "2024-01-01-00,2024-01-01-05", "projection.h.format", "yyyy-MM-dd-HH"), TABLE, "'h'",
        "projection.h.interval.unit");
    assertRefused(() -> projection("d STRING", "projection.d.type", "date", "projection.d.range",
        "2024-01-01,2024-01-05", "projection.d.format", "yyyy-MM-dd", "projection.d.interval", "0"), TABLE,
        "projection.d.interval", "'0'");
    assertRefused(() -> projection("d STRING", "projection.d.type", "date", "projection.d.range",
        "2024-01-05,2024-01-01", "projection.d.format", "yyyy-MM-dd"), TABLE, "projection.d.range", "before");
    assertRefused(() -> projection("n INT", "projection.n.type", "enum", "projection.n.values", "1,x"), TABLE,
        "projection.n.values", "'x'");
    assertRefused(() -> projection("n INT", "projection.n.type", "date", "projection.n.range", "NOW,NOW",
        "projection.n.format", "yyyy"), TABLE, "'n'", "int");
    assertRefused(() -> projection("k STRING", "projection.k.type", "enum"), TABLE, "projection.k.values");
  }
}
