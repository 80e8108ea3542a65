package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCall;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.GlueSemantics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The exact Glue and STS calls of each statement (docs/performance.md). Counts are exact, so they are
 * asserted exactly: a change that adds a round trip to a statement fails here. Each statement runs in a
 * catalog with a role that already ran one statement (its role assumed), on tables set up beforehand,
 * and is recorded alone.
 *
 * <p>With {@code -Dgluecat.callcounts.trace=true} every call is printed with the stack that made it.
 */
class CallCountsIT extends MiniStackSparkTest {
  private static final String ROLE = "arn:aws:iam::000000000000:role/gluecat-callcounts";
  private static final boolean TRACE = Boolean.getBoolean("gluecat.callcounts.trace");
  private static final int LISTED = 250;

  private static String c;
  private static String db;

  @BeforeAll
  static void catalog() {
    Map<String, String> options = ministackOptions();
    options.put("role.arn", ROLE);
    c = newCatalog(options);
    db = newDatabase(newDirectory("callcounts"));
    sql("SHOW TABLES IN " + c + "." + db); // the catalog is initialised and its role assumed
  }

  /** The calls {@code statement} makes, as "Operation xN" in the order first made. */
  private static Map<String, Integer> calls(String statement) {
    List<Fault.Handle> tracers = new ArrayList<>();
    if (TRACE) {
      for (String op : List.of("GetDatabase", "GetTable", "GetTables", "CreateTable", "UpdateTable", "DeleteTable")) {
        tracers.add(GlueFaults.inject(Fault.glue(op).always().when(call -> {
          System.err.println("[callcounts] " + statement + " -> " + call.operation() + " " + call.tableName()
              + "\n  " + Arrays.stream(Thread.currentThread().getStackTrace()).skip(2).limit(200)
              .map(String::valueOf).filter(f -> !f.startsWith("software.amazon") && !f.startsWith("java."))
              .collect(Collectors.joining("\n  ")));
          return false;
        }).accessDenied().build()));
      }
    }
    GlueCallRecorder.clear();
    try {
      spark().sql(statement).collectAsList();
    } finally {
      tracers.forEach(Fault.Handle::close);
    }
    Map<String, Integer> counts = new LinkedHashMap<>();
    for (GlueCall call : GlueCallRecorder.calls()) {
      counts.merge(call.operation(), 1, Integer::sum);
    }
    System.err.println("[callcounts] " + statement + ": " + counts);
    return counts;
  }

  private static Map<String, Integer> expected(Object... opsAndCounts) {
    Map<String, Integer> m = new LinkedHashMap<>();
    for (int i = 0; i < opsAndCounts.length; i += 2) {
      m.put((String) opsAndCounts[i], (Integer) opsAndCounts[i + 1]);
    }
    return m;
  }

  private static void assertCalls(Map<String, Integer> want, Map<String, Integer> got) {
    assertEquals(new TreeMap<>(want), new TreeMap<>(got));
  }

  private static String t(String table) {
    return c + "." + db + "." + table;
  }

  @Test
  void createTable() {
    // the database (its location for the new table's directory; on Spark 4.1 also its default collation), whether
    // the table exists, the create; the table Spark gets back is the entry just written
    assertCalls(expected("GetDatabase", 1, "GetTable", 1, "CreateTable", 1),
        calls("CREATE TABLE " + t("cd") + " (id BIGINT, p STRING) USING delta PARTITIONED BY (p)"));
    assertCalls(expected("GetDatabase", 1, "GetTable", 1, "CreateTable", 1),
        calls("CREATE TABLE " + t("cp") + " (id BIGINT, p STRING) USING parquet PARTITIONED BY (p)"));
  }

  @Test
  void ctasAndCreateOrReplace() {
    assertCalls(expected("GetDatabase", 1, "GetTable", 1, "CreateTable", 1),
        calls("CREATE TABLE " + t("ctas") + " USING delta AS SELECT 1L AS id"));
    assertCalls(expected("GetDatabase", 1, "GetTable", 1, "UpdateTable", 1),
        calls("CREATE OR REPLACE TABLE " + t("ctas") + " USING delta AS SELECT 2L AS id"));
    assertEquals(List.of(2L), sql("SELECT id FROM " + t("ctas")).stream().map(r -> r.getLong(0))
        .collect(Collectors.toList()));
  }

  @Test
  void alterTable() {
    sql("CREATE TABLE " + t("ad") + " (id BIGINT) USING delta");
    sql("CREATE TABLE " + t("ap") + " (id BIGINT) USING parquet");
    assertCalls(expected("GetTable", 1, "UpdateTable", 1), calls("ALTER TABLE " + t("ad") + " ADD COLUMNS (x INT)"));
    assertCalls(expected("GetTable", 1, "UpdateTable", 1), calls("ALTER TABLE " + t("ap") + " ADD COLUMNS (x INT)"));
    assertCalls(expected("GetTable", 1, "UpdateTable", 1),
        calls("ALTER TABLE " + t("ap") + " SET TBLPROPERTIES ('k' = 'v')"));
    assertEquals(List.of("id", "x"), glueTable(db, "ad").storageDescriptor().columns().stream().map(col -> col.name())
        .collect(Collectors.toList()));
  }

  @Test
  void renameAndDrop() {
    sql("CREATE TABLE " + t("rn") + " (id BIGINT) USING delta");
    assertCalls(expected("GetTable", 1, "CreateTable", 1, "DeleteTable", 1),
        calls("ALTER TABLE " + t("rn") + " RENAME TO " + t("rn2")));
    assertCalls(expected("GetTable", 1, "DeleteTable", 1), calls("DROP TABLE " + t("rn2")));
  }

  @Test
  void readsLoadOnce() {
    sql("CREATE TABLE " + t("rd") + " (id BIGINT) USING delta");
    assertCalls(expected("GetTable", 1), calls("INSERT INTO " + t("rd") + " VALUES (1), (2)"));
    assertCalls(expected("GetTable", 1), calls("SELECT * FROM " + t("rd")));
    assertCalls(expected("GetTable", 1), calls("DESCRIBE TABLE " + t("rd")));
  }

  /**
   * An Iceberg table's statements through gluecat's name cost what they cost through Iceberg's own catalog on the
   * same Glue (as EMR and Glue jobs configure it), and nothing more: gluecat's read of the entry, which tells it the
   * table is Iceberg's, is the read Iceberg's load takes (the catalog lends Iceberg its Glue client). From Spark 4.1
   * on, a query loads the table again before it runs (Spark's V2TableRefreshUtil), through either catalog alike.
   */
  @Test
  void icebergStatementsCostWhatIcebergsOwnCatalogCosts() {
    org.junit.jupiter.api.Assumptions.assumeTrue(io.gluecat.iceberg.IcebergTables.AVAILABLE,
        "Iceberg's Spark runtime is not on this line's classpath");
    String plain = newCatalog();
    String ice = IcebergTablesIT.icebergsOwnCatalog(spark(), unique("ice"), newDirectory("ice-warehouse"));
    String gluecatName = plain + "." + db + ".ice_orders";
    String icebergName = ice + "." + db + ".ice_orders";
    sql("CREATE TABLE " + icebergName + " (id BIGINT) USING iceberg");
    sql("SELECT * FROM " + gluecatName); // both catalogs initialised
    Map<String, String> expected = new LinkedHashMap<>();
    Map<String, String> got = new LinkedHashMap<>();
    for (String statement : List.of("SELECT * FROM %s", "INSERT INTO %s VALUES (1)", "DESCRIBE TABLE %s",
        "SELECT count(*) FROM %s.snapshots")) {
      expected.put(statement, new TreeMap<>(calls(String.format(statement, icebergName))).toString());
      got.put(statement, new TreeMap<>(calls(String.format(statement, gluecatName))).toString());
    }
    assertEquals(expected, got, "gluecat's calls: Iceberg's own, and nothing more");
  }

  /**
   * Writes into a Hive-format table of 10,000 Glue partitions ({@link ManyPartitionsIT}'s, in days after its own),
   * with GetPartitions answered as Glue answers it: each write asks Glue for the partitions it wrote (a
   * GetPartitions expression naming them) and creates the missing ones, whatever the table holds; a read of one
   * partition asks for that one.
   */
  @Test
  void writesIntoTenThousandPartitionsAskForThePartitionsWritten() throws Exception {
    String events = c + "." + ManyPartitionsIT.events();
    String existing = ManyPartitionsIT.FIRST_DAY.plusDays(ManyPartitionsIT.DAYS - 1).toString(); // the last day
    try (AutoCloseable asGlue = GlueSemantics.filterAndPagePartitions()) {
      assertCalls(expected("GetTable", 1, "GetPartitions", 1, "BatchCreatePartition", 1),
          calls("INSERT INTO " + events + " PARTITION (day = '2026-12-01', shard = 0) VALUES (1), (2)"));
      assertEquals(List.of("(day = '2026-12-01' AND shard = 0)"), partitionExpressions());

      assertCalls(expected("GetTable", 1, "GetPartitions", 1),
          calls("SELECT * FROM " + events + " WHERE day = DATE'2026-12-01' AND shard = 0"));
      assertEquals(List.of("(day = '2026-12-01') AND (shard = 0)"), partitionExpressions());

      // three partitions known only once written: one of the 10,000 and two new ones
      assertCalls(expected("GetTable", 1, "GetPartitions", 1, "BatchCreatePartition", 1),
          calls("INSERT INTO " + events + " VALUES (3, DATE'" + existing + "', 99), (4, DATE'2026-12-02', 1), "
              + "(5, DATE'2026-12-02', 2), (6, DATE'2026-12-02', 2)"));
      assertEquals(List.of("(day = '" + existing + "' AND shard = 99) OR (day = '2026-12-02' AND shard = 1) OR "
          + "(day = '2026-12-02' AND shard = 2)"), partitionExpressions());
      assertEquals(List.of(1), GlueCallRecorder.calls(call -> call.operation().equals("GetPartitions")).stream()
          .map(GlueCall::returned).toList(), "Glue's answer holds the one of them that existed");

      // a static overwrite reads the partitions it replaces before it writes
      assertCalls(expected("GetTable", 1, "GetPartitions", 1, "BatchCreatePartition", 1),
          calls("INSERT OVERWRITE " + events + " PARTITION (day = '2026-12-03', shard = 5) VALUES (7)"));
      assertEquals(List.of("(day = '2026-12-03' AND shard = 5)"), partitionExpressions());
    }
    assertEquals(List.of("1 2026-12-01 0", "2 2026-12-01 0", "3 " + existing + " 99", "4 2026-12-02 1",
        "5 2026-12-02 2", "6 2026-12-02 2", "7 2026-12-03 5"), sql("SELECT id, day, shard FROM " + events
        + " WHERE day > DATE'" + ManyPartitionsIT.FIRST_DAY.plusDays(ManyPartitionsIT.DAYS - 2) + "' ORDER BY id")
        .stream().map(r -> r.get(0) + " " + r.get(1) + " " + r.get(2)).toList());
    String[] table = ManyPartitionsIT.events().split("\\.");
    String location = glueTable(table[0], table[1]).storageDescriptor().location();
    for (List<String> added : List.of(List.of("2026-12-01", "0"), List.of("2026-12-02", "1"), List.of("2026-12-02", "2"),
        List.of("2026-12-03", "5"))) {
      assertEquals(location + "/day=" + added.get(0) + "/shard=" + added.get(1), GLUE.getPartition(r -> r
          .databaseName(table[0]).tableName(table[1]).partitionValues(added)).partition().storageDescriptor().location());
    }
  }

  /** A static INSERT into a partitioned parquet table of gluecat's own: the partition written, asked for by name. */
  @Test
  void anInsertIntoAPartitionOfAFileTableAsksForThatPartition() throws Exception {
    sql("CREATE TABLE " + t("pins") + " (id BIGINT, p STRING) USING parquet PARTITIONED BY (p)");
    sql("INSERT INTO " + t("pins") + " PARTITION (p = 'a') VALUES (1)");
    try (AutoCloseable asGlue = GlueSemantics.filterAndPagePartitions()) {
      assertCalls(expected("GetTable", 1, "GetPartitions", 1, "BatchCreatePartition", 1),
          calls("INSERT INTO " + t("pins") + " PARTITION (p = 'b') VALUES (2)"));
      assertEquals(List.of("p = 'b'"), partitionExpressions());
    }
    assertEquals(List.of("1 a", "2 b"), sql("SELECT id, p FROM " + t("pins") + " ORDER BY id").stream()
        .map(r -> r.get(0) + " " + r.get(1)).toList());
    assertEquals(List.of(List.of("a"), List.of("b")), GLUE.getPartitions(r -> r.databaseName(db).tableName("pins"))
        .partitions().stream().map(p -> p.values()).sorted(java.util.Comparator.comparing(Object::toString)).toList());
  }

  /** The expressions of the GetPartitions calls last recorded. */
  private static List<String> partitionExpressions() {
    return GlueCallRecorder.calls(call -> call.operation().equals("GetPartitions")).stream().map(GlueCall::expression)
        .collect(Collectors.toList());
  }

  @Test
  void showTablesPagesByHundreds() throws Exception {
    String listed = newDatabase(newDirectory("listed"));
    for (int i = 0; i < LISTED; i++) {
      String name = String.format("t%03d", i);
      GLUE.createTable(r -> r.databaseName(listed).tableInput(ti -> ti.name(name).tableType("EXTERNAL_TABLE")));
    }
    List<Row> rows;
    try (AutoCloseable paging = GlueSemantics.pageListings(100)) {
      GlueCallRecorder.clear();
      rows = sql("SHOW TABLES IN " + c + "." + listed);
    }
    assertEquals(LISTED, rows.size());
    List<GlueCall> sent = GlueCallRecorder.calls();
    assertEquals(List.of("GetTables", "GetTables", "GetTables"), sent.stream().map(GlueCall::operation)
        .collect(Collectors.toList()), "ceil(250/100) pages, nothing else");
    assertEquals(List.of(100, 100, 100), sent.stream().map(GlueCall::maxResults).collect(Collectors.toList()));
    assertNull(sent.get(0).nextToken());
    assertEquals(List.of(true, true), sent.subList(1, 3).stream().map(s -> s.nextToken() != null)
        .collect(Collectors.toList()), "the later pages ask for the token of the one before");
  }

  /**
   * Spark's {@code Catalog.listTables} lists the database, then resolves every listed table on its own: the
   * resolutions are answered from the listing that the same call just made, so the call costs its pages only.
   */
  @Test
  void catalogListTablesCostsItsPagesOnly() throws Exception {
    String listed = newDatabase(newDirectory("catalog-listed"));
    StructType schema = new StructType().add("id", DataTypes.LongType);
    for (int i = 0; i < LISTED; i++) {
      String name = String.format("t%03d", i);
      putEntry(listed, name, i % 2 == 0 ? "parquet" : "json", schema, List.of(), newDirectory(name), Map.of());
    }
    List<org.apache.spark.sql.catalog.Table> tables;
    try (AutoCloseable paging = GlueSemantics.pageListings(100)) {
      GlueCallRecorder.clear();
      tables = listTables(c + "." + listed);
    }
    Map<String, Integer> counts = new LinkedHashMap<>();
    GlueCallRecorder.calls().forEach(call -> counts.merge(call.operation(), 1, Integer::sum));
    assertCalls(expected("GetTables", 3), counts); // ceil(250/100) pages, no GetTable per listed table
    assertEquals(LISTED, tables.size());
    assertEquals("t000", tables.get(0).name());
    assertEquals(List.of("EXTERNAL"), tables.stream().map(org.apache.spark.sql.catalog.Table::tableType).distinct()
        .collect(Collectors.toList()));
  }
}
