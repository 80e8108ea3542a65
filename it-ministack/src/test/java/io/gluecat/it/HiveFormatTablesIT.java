package io.gluecat.it;

import io.gluecat.it.spark.LogCapture;
import static io.gluecat.it.TableLoadIT.assertMessage;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.GlueSemantics;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.services.glue.model.Column;

/**
 * Hive-format Glue entries (no spark.sql.sources.provider) in the shapes Glue crawlers, Athena and Trino's
 * Hive connector write, created through the Glue API over real files, read through gluecat as Spark file
 * tables; and what gluecat refuses of them.
 */
@ExtendWith(CompatResults.class)
class HiveFormatTablesIT extends CatalogModeTest {
  static final String TEXT_INPUT = "org.apache.hadoop.mapred.TextInputFormat";
  static final String TEXT_OUTPUT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
  static final String LAZY_SIMPLE = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";

  /** A Hive-format entry as other tools create it: columns and partition keys as "name type". */
  static void hiveEntry(String db, String table, String location, String serde, String input, String output,
      Map<String, String> serdeParameters, Map<String, String> tableParameters, List<String> columns,
      List<String> keys) {
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name(table).tableType("EXTERNAL_TABLE")
        .parameters(tableParameters).partitionKeys(columns(keys))
        .storageDescriptor(sd -> sd.location(location).inputFormat(input).outputFormat(output)
            .columns(columns(columns)).serdeInfo(s -> s.serializationLibrary(serde).parameters(serdeParameters)))));
  }

  static List<Column> columns(List<String> pairs) {
    return pairs.stream().map(p -> p.split(" ", 2)).map(p -> Column.builder().name(p[0]).type(p[1]).build())
        .toList();
  }

  /** Writes a plain file under a {@code file:} location, as an upstream system drops files. */
  static void writeFile(String location, String name, String content) {
    try {
      Path dir = Path.of(URI.create(location));
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(name), content, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static List<String> files(String location) {
    try (Stream<Path> all = Files.walk(Path.of(URI.create(location)))) {
      return all.filter(Files::isRegularFile).map(Path::toString).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The statement fails with an exception of the type (anywhere in its causes) whose messages hold the fragments. */
  static void assertRefused(Class<? extends Throwable> type, Executable statement, String... fragments) {
    Throwable e = assertThrows(Throwable.class, statement);
    String all = TableLoadIT.messages(e);
    boolean typed = false;
    for (Throwable t = e; t != null; t = t.getCause()) {
      typed |= type.isInstance(t);
    }
    assertTrue(typed, "expected a " + type.getName() + " in: " + all);
    for (String fragment : fragments) {
      assertTrue(all.contains(fragment), "expected '" + fragment + "' in: " + all);
    }
  }

  /** The names of the test database's Glue tables. */
  private List<String> glueTables() {
    return GLUE.getTables(r -> r.databaseName(db)).tableList().stream().map(t -> t.name()).sorted().toList();
  }

  /** A read of a bad table fails, and so does a CTAS from it, before the new table exists. */
  private void assertReadAndCopyRefused(String table, String... fragments) {
    assertRefused(InvalidGlueEntryException.class, () -> run("SELECT * FROM " + t(table)), fragments);
    List<String> before = glueTables();
    assertRefused(InvalidGlueEntryException.class,
        () -> run("CREATE TABLE " + t(table + "_copy") + " USING parquet AS SELECT * FROM " + t(table)), fragments);
    assertEquals(before, glueTables(), "nothing was created");
  }

  private final List<String> logged = new java.util.ArrayList<>();
  private LogCapture capture;

  @AfterEach
  void stopCapture() {
    if (capture != null) {
      capture.close();
      capture = null;
    }
  }

  // ---- Glue crawler shapes ----

  /** A crawler's CSV table: LazySimpleSerDe, comma, one header line; quotes are data, \N is null. */
  @Test
  @CompatCase(id = "crawler-csv-header", writer = "glue-crawler", reader = "gluecat",
      title = "Crawler CSV (LazySimpleSerDe), header line, \\N nulls")
  void aCrawledCsvTableReadsItsRowsWithoutTheHeader() {
    String location = newDirectory("crawled_csv");
    writeFile(location, "part-0.csv", "id,name,price\n1,apple,1.5\n2,\"pear\",2.0\n3,\\N,3.25\n");
    writeFile(location, "part-1.csv", "id,name,price\n4,fig,0.5\n");
    hiveEntry(db, "crawled_csv", location, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of("field.delim", ","),
        Map.of("classification", "csv", "areColumnsQuoted", "false", "columnsOrdered", "true",
            "compressionType", "none", "delimiter", ",", "skip.header.line.count", "1", "typeOfData", "file",
            "UPDATED_BY_CRAWLER", "crawler"),
        List.of("id bigint", "name string", "price double"), List.of());

    assertEquals(List.of("[1,apple,1.5]", "[2,\"pear\",2.0]", "[3,null,3.25]", "[4,fig,0.5]"),
        rows("SELECT * FROM " + t("crawled_csv") + " ORDER BY id"));
  }

  /**
   * A crawler's quoted CSV: OpenCSVSerde with its quote character, columns typed as the entry declares; without an
   * escapeChar, a quote inside a value is doubled (RFC 4180, as OpenCSVSerde and Trino write it).
   */
  @Test
  @CompatCase(id = "crawler-csv-quoted-header", writer = "glue-crawler", reader = "gluecat",
      title = "Crawler quoted CSV (OpenCSVSerde), header line, doubled quotes")
  void aCrawledQuotedCsvTableReadsQuotedFields() {
    String location = newDirectory("quoted_csv");
    writeFile(location, "data.csv", "\"id\",\"note\"\n\"1\",\"hello, world\"\n\"2\",\"say \"\"hi\"\"\"\n");
    hiveEntry(db, "quoted_csv", location, "org.apache.hadoop.hive.serde2.OpenCSVSerde", TEXT_INPUT, TEXT_OUTPUT,
        Map.of("separatorChar", ",", "quoteChar", "\""),
        Map.of("classification", "csv", "skip.header.line.count", "1"), List.of("id bigint", "note string"),
        List.of());

    assertEquals(List.of("[1,hello, world]", "[2,say \"hi\"]"),
        rows("SELECT id, note FROM " + t("quoted_csv") + " WHERE id > 0 ORDER BY id"));
  }

  /**
   * OpenCSVSerde has no null: every field is a string, and an empty one, quoted or not, is an empty string. A
   * column the entry types otherwise (Athena's reading) takes the field's value, and an empty field is null there.
   */
  @Test
  @CompatCase(id = "crawler-csv-quoted-empty", writer = "glue-crawler", reader = "gluecat",
      title = "Crawler quoted CSV (OpenCSVSerde): an empty field is an empty string")
  void anOpenCsvEmptyFieldIsAnEmptyString() {
    String location = newDirectory("empty_csv");
    writeFile(location, "data.csv", "\"1\",\"\",\"7\"\n\"2\",,\n\"3\",\"x\",\"\"\n4,z,8\n");
    hiveEntry(db, "empty_csv", location, "org.apache.hadoop.hive.serde2.OpenCSVSerde", TEXT_INPUT, TEXT_OUTPUT,
        Map.of("separatorChar", ",", "quoteChar", "\""), Map.of("classification", "csv"),
        List.of("id bigint", "note string", "qty int"), List.of());

    assertEquals(List.of("[1,,7]", "[2,,null]", "[3,x,null]", "[4,z,8]"),
        rows("SELECT * FROM " + t("empty_csv") + " ORDER BY id"));
    assertEquals(List.of("[4,2,2]"), rows("SELECT count(note), count_if(note = ''), count(qty) FROM "
        + t("empty_csv")));
    assertEquals(List.of("[1]", "[2]"), rows("SELECT id FROM " + t("empty_csv") + " WHERE note = '' ORDER BY id"));
  }

  /**
   * LazySimpleSerDe reads null where a field is the null format (\N unless serialization.null.format says
   * otherwise) and an empty field of a string column as an empty string; an empty field of another type is null.
   */
  @Test
  @CompatCase(id = "crawler-csv-empty-and-null", writer = "glue-crawler", reader = "gluecat",
      title = "Crawler CSV (LazySimpleSerDe): an empty field is an empty string, the null format null")
  void aLazySimpleEmptyFieldIsAnEmptyStringAndTheNullFormatNull() {
    String location = newDirectory("empty_text");
    writeFile(location, "data.csv", "1,,\n2,\\N,\\N\n3,x,5\n");
    hiveEntry(db, "empty_text", location, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of("field.delim", ","),
        Map.of("classification", "csv"), List.of("id bigint", "note string", "qty int"), List.of());
    String nulls = newDirectory("null_format");
    writeFile(nulls, "data.csv", "1,,\n2,NA,NA\n3,\\N,5\n");
    hiveEntry(db, "null_format", nulls, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT,
        Map.of("field.delim", ",", "serialization.null.format", "NA"), Map.of("classification", "csv"),
        List.of("id bigint", "note string", "qty int"), List.of());
    String emptyNulls = newDirectory("empty_null_format");
    writeFile(emptyNulls, "data.csv", "1,,\n2,\\N,5\n");
    hiveEntry(db, "empty_null_format", emptyNulls, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT,
        Map.of("field.delim", ",", "serialization.null.format", ""), Map.of("classification", "csv"),
        List.of("id bigint", "note string", "qty int"), List.of());

    assertEquals(List.of("[1,,null]", "[2,null,null]", "[3,x,5]"),
        rows("SELECT * FROM " + t("empty_text") + " ORDER BY id"));
    assertEquals(List.of("[2,1]"), rows("SELECT count(note), count_if(note = '') FROM " + t("empty_text")));
    assertEquals(List.of("[1,,null]", "[2,null,null]", "[3,\\N,5]"),
        rows("SELECT * FROM " + t("null_format") + " ORDER BY id"));
    assertEquals(List.of("[1,null,null]", "[2,\\N,5]"),
        rows("SELECT * FROM " + t("empty_null_format") + " ORDER BY id"));
    // every line is a row, an empty one or one of delimiters only (Spark's csv source would skip both)
    String oneColumn = newDirectory("one_column");
    writeFile(oneColumn, "data.txt", "a\n\nb\n");
    hiveEntry(db, "one_column", oneColumn, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of(), Map.of(),
        List.of("note string"), List.of());
    String defaultDelimiter = newDirectory("default_delimiter");
    writeFile(defaultDelimiter, "data.txt", "\u0001\nx\u0001y\n");
    hiveEntry(db, "default_delimiter", defaultDelimiter, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of(), Map.of(),
        List.of("a string", "b string"), List.of());
    assertEquals(List.of("[]", "[a]", "[b]"), rows("SELECT * FROM " + t("one_column") + " ORDER BY note"));
    assertEquals(List.of("[,]", "[x,y]"), rows("SELECT * FROM " + t("default_delimiter") + " ORDER BY a"));
  }

  /** A crawler's JSON table: the OpenX SerDe, nested columns. */
  @Test
  @CompatCase(id = "crawler-openx-json", writer = "glue-crawler", reader = "gluecat",
      title = "Crawler JSON (OpenX SerDe), nested columns")
  void aCrawledOpenxJsonTableReadsNestedColumns() {
    String location = newDirectory("openx");
    writeFile(location, "events.json", "{\"id\": 1, \"user\": {\"name\": \"ann\", \"age\": 30}, \"tags\": [\"a\"]}\n"
        + "{\"id\": 2, \"user\": {\"name\": \"bob\", \"age\": 41}, \"tags\": []}\n");
    hiveEntry(db, "openx", location, "org.openx.data.jsonserde.JsonSerDe", TEXT_INPUT, TEXT_OUTPUT,
        Map.of("paths", "id,tags,user"), Map.of("classification", "json"),
        List.of("id int", "user struct<name:string,age:int>", "tags array<string>"), List.of());

    assertEquals(List.of("[1,ann,30,1]", "[2,bob,41,0]"),
        rows("SELECT id, user.name, user.age, size(tags) FROM " + t("openx") + " ORDER BY id"));
  }

  /**
   * The OpenX SerDe matches JSON keys to columns ignoring case (its case.insensitive, true by default), nested
   * ones too; with case.insensitive = false a key must match its column exactly.
   */
  @Test
  @CompatCase(id = "crawler-openx-json-key-case", writer = "glue-crawler", reader = "gluecat",
      title = "Crawler JSON (OpenX SerDe), keys in any case")
  void anOpenxJsonTableMatchesKeysIgnoringCase() {
    String location = newDirectory("openx_case");
    writeFile(location, "events.json", "{\"ID\": 1, \"User\": {\"Name\": \"ann\"}, \"city\": \"x\"}\n"
        + "{\"id\": 2, \"user\": {\"NAME\": \"bob\"}, \"City\": \"y\"}\n");
    List<String> columns = List.of("id int", "user struct<name:string>", "city string");
    hiveEntry(db, "openx_case", location, "org.openx.data.jsonserde.JsonSerDe", TEXT_INPUT, TEXT_OUTPUT, Map.of(),
        Map.of("classification", "json"), columns, List.of());
    hiveEntry(db, "openx_exact", location, "org.openx.data.jsonserde.JsonSerDe", TEXT_INPUT, TEXT_OUTPUT,
        Map.of("case.insensitive", "false"), Map.of(), columns, List.of());

    assertEquals(List.of("[1,ann,x]", "[2,bob,y]"),
        rows("SELECT id, user.name, city FROM " + t("openx_case") + " WHERE id > 0 ORDER BY id"));
    assertEquals(List.of("[null,null,x]", "[2,null,null]"),
        rows("SELECT id, user.name, city FROM " + t("openx_exact") + " ORDER BY id NULLS FIRST"));
  }

  // ---- Athena shapes ----

  /** Athena's CREATE EXTERNAL TABLE ... STORED AS PARQUET over files another engine wrote. */
  @Test
  @CompatCase(id = "athena-parquet", writer = "athena", reader = "gluecat",
      title = "CREATE EXTERNAL TABLE STORED AS PARQUET")
  void anAthenaParquetTableReadsItsFiles() {
    String location = newDirectory("athena_parquet");
    spark().range(3).selectExpr("id", "concat('n', id) AS name").write().mode("overwrite").parquet(location);
    hiveEntry(db, "athena_parquet", location, "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat", Map.of("serialization.format", "1"),
        Map.of("EXTERNAL", "TRUE", "parquet.compression", "SNAPPY"), List.of("id bigint", "name string"),
        List.of());

    assertEquals(List.of("[0,n0]", "[1,n1]", "[2,n2]"), rows("SELECT * FROM " + t("athena_parquet") + " ORDER BY id"));
  }

  /** Athena's ORC and Avro tables (the Avro one with its schema literal). */
  @Test
  @CompatCase(id = "athena-orc-avro", writer = "athena", reader = "gluecat",
      title = "CREATE EXTERNAL TABLE STORED AS ORC, and AVRO with avro.schema.literal")
  void athenaOrcAndAvroTablesReadTheirFiles() {
    String orc = newDirectory("athena_orc");
    spark().range(2).selectExpr("id", "id * 10 AS v").write().mode("overwrite").orc(orc);
    hiveEntry(db, "athena_orc", orc, "org.apache.hadoop.hive.ql.io.orc.OrcSerde",
        "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat", "org.apache.hadoop.hive.ql.io.orc.OrcOutputFormat",
        Map.of(), Map.of("EXTERNAL", "TRUE"), List.of("id bigint", "v bigint"), List.of());
    String avro = newDirectory("athena_avro");
    spark().range(2).selectExpr("id", "concat('a', id) AS name").write().mode("overwrite").format("avro").save(avro);
    String literal = "{\"type\":\"record\",\"name\":\"topLevelRecord\",\"fields\":["
        + "{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"name\",\"type\":[\"string\",\"null\"]}]}";
    hiveEntry(db, "athena_avro", avro, "org.apache.hadoop.hive.serde2.avro.AvroSerDe",
        "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
        "org.apache.hadoop.hive.ql.io.avro.AvroContainerOutputFormat", Map.of(),
        Map.of("EXTERNAL", "TRUE", "avro.schema.literal", literal), List.of("id bigint", "name string"), List.of());

    assertEquals(List.of("[0,0]", "[1,10]"), rows("SELECT * FROM " + t("athena_orc") + " ORDER BY id"));
    assertEquals(List.of("[0,a0]", "[1,a1]"), rows("SELECT * FROM " + t("athena_avro") + " ORDER BY id"));
  }

  /**
   * Athena's CREATE EXTERNAL TABLE ... PARTITIONED BY ... STORED AS PARQUET, then ALTER TABLE ADD PARTITION with a
   * LOCATION of its own: Athena gives each partition a full StorageDescriptor (the table's SerDe, formats and
   * columns) and the location, here one under the table in k=v layout and one in another directory tree.
   */
  @Test
  @CompatCase(id = "athena-parquet-add-partition-location", writer = "athena", reader = "gluecat",
      title = "Partitioned parquet, ALTER TABLE ADD PARTITION ... LOCATION elsewhere")
  void anAthenaPartitionedTableReadsPartitionsAddedWithALocation() {
    String location = newDirectory("athena_parts");
    hiveEntry(db, "athena_parts", location, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT,
        Map.of("serialization.format", "1"), Map.of("EXTERNAL", "TRUE", "parquet.compression", "SNAPPY",
            "transient_lastDdlTime", "1700000000"), List.of("id bigint", "name string"), List.of("dt string"));
    String inside = location + "/dt=2024-01-01";
    spark().range(1, 3).selectExpr("id", "concat('a', id) AS name").write().mode("overwrite").parquet(inside);
    String elsewhere = newDirectory("archive") + "/2023/12/31";
    spark().range(7, 8).selectExpr("id", "concat('b', id) AS name").write().mode("overwrite").parquet(elsewhere);
    for (String[] p : List.of(new String[] {"2024-01-01", inside}, new String[] {"2023-12-31", elsewhere})) {
      GLUE.createPartition(r -> r.databaseName(db).tableName("athena_parts").partitionInput(in -> in.values(p[0])
          .parameters(Map.of("transient_lastDdlTime", "1700000000"))
          .storageDescriptor(sd -> sd.location(p[1]).inputFormat(PARQUET_INPUT).outputFormat(PARQUET_OUTPUT)
              .columns(columns(List.of("id bigint", "name string")))
              .serdeInfo(si -> si.serializationLibrary(PARQUET_SERDE).parameters(Map.of("serialization.format", "1"))))));
    }

    assertEquals(List.of("[1,a1,2024-01-01]", "[2,a2,2024-01-01]", "[7,b7,2023-12-31]"),
        rows("SELECT * FROM " + t("athena_parts") + " ORDER BY id"));
    assertEquals(List.of("[7]"), rows("SELECT id FROM " + t("athena_parts") + " WHERE dt < '2024-01-01'"));
  }

  // ---- Trino's Hive connector: delimiters and header counts in the table parameters ----

  @Test
  void trinoTextTableParametersOverrideItsSerdeParameters() {
    String location = newDirectory("trino_text");
    writeFile(location, "0001", "id|name\n1|a\n2|\\N\n");
    hiveEntry(db, "trino_text", location, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT,
        Map.of("field.delim", ",", "serialization.format", "1"),
        Map.of("field.delim", "|", "skip.header.line.count", "1", "trino_version", "476"),
        List.of("id integer", "name varchar(10)"), List.of());

    assertEquals(List.of("[1,a]", "[2,null]"), rows("SELECT * FROM " + t("trino_text") + " ORDER BY id"));
  }

  // ---- partitions from Glue ----

  static final String PARQUET_SERDE = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
  static final String PARQUET_INPUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
  static final String PARQUET_OUTPUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat";

  static void partition(String db, String table, String location, String... values) {
    GLUE.createPartition(r -> r.databaseName(db).tableName(table).partitionInput(p -> p.values(values)
        .storageDescriptor(sd -> sd.location(location))));
  }

  /**
   * A crawled, partitioned parquet table: one partition under the table in k=v layout, one outside the
   * table's location in a layout of its own, one whose key is Hive's null partition. Values come from Glue.
   */
  private void crawledPartitionedTable(String table) {
    String location = newDirectory(table);
    hiveEntry(db, table, location, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of("serialization.format", "1"),
        Map.of("classification", "parquet", "UPDATED_BY_CRAWLER", "crawler"), List.of("id bigint"),
        List.of("region string", "year int"));
    String eu = location + "/region=eu/year=2023";
    spark().range(1, 3).write().mode("overwrite").parquet(eu);
    String us = newDirectory("elsewhere") + "/us-2024";
    spark().range(10, 11).write().mode("overwrite").parquet(us);
    String unknown = location + "/unknown/2024";
    spark().range(20, 21).write().mode("overwrite").parquet(unknown);
    partition(db, table, eu, "eu", "2023");
    partition(db, table, us, "us", "2024");
    partition(db, table, unknown, "__HIVE_DEFAULT_PARTITION__", "2024");
  }

  @Test
  @CompatCase(id = "crawler-parquet-partitions-elsewhere", writer = "glue-crawler", reader = "gluecat",
      title = "Crawler parquet, Glue partitions outside the table location, not in k=v layout, null partition")
  void aPartitionedTableReadsGluePartitionsWhereverTheyAre() {
    crawledPartitionedTable("sales");

    assertEquals(List.of("[1,eu,2023]", "[2,eu,2023]", "[10,us,2024]", "[20,null,2024]"),
        rows("SELECT * FROM " + t("sales") + " ORDER BY id"));
    assertEquals(List.of("[20]"), rows("SELECT id FROM " + t("sales") + " WHERE region IS NULL"));
  }

  /**
   * A query's partition filters reach Glue as a GetPartitions expression, and only the partitions Glue
   * returns are read: the other partitions' files are unreadable here, so reading them would fail.
   */
  @Test
  void partitionFiltersArePushedToGlueAndOnlyMatchingPartitionsAreRead() {
    crawledPartitionedTable("pruned");
    Path eu = Path.of(URI.create(glueTable(db, "pruned").storageDescriptor().location() + "/region=eu/year=2023"));
    writeFile(eu.toUri().toString(), "garbage.parquet", "not parquet");
    GlueCallRecorder.clear();

    assertEquals(List.of("[10]"), rows("SELECT id FROM " + t("pruned") + " WHERE region = 'us' AND year = 2024"));
    List<String> calls = GlueCallRecorder.calls(c -> c.isGlue()).stream()
        .map(c -> c.operation() + (c.expression() == null ? "" : " " + c.expression())).toList();
    assertEquals(List.of("GetTable", "GetPartitions (region = 'us') AND (year = 2024)"), calls);
    List<io.gluecat.testkit.GlueCall> glue = GlueCallRecorder.calls(c -> c.isGlue());
    assertEquals(glue.get(0).catalogId(), glue.get(1).catalogId(), "GetPartitions names the catalog's account");
  }

  /**
   * A read no partition filter narrows lists the partitions in parallel segments (GetPartitions' Segment), as
   * AWS Glue answers them: disjoint, together every partition.
   */
  @Test
  void anUnfilteredReadListsThePartitionsInSegments() throws Exception {
    crawledPartitionedTable("segmented");
    GlueCallRecorder.clear();

    try (AutoCloseable asGlue = GlueSemantics.segmentPartitions()) {
      assertEquals(List.of("[1,eu,2023]", "[2,eu,2023]", "[10,us,2024]", "[20,null,2024]"),
          rows("SELECT * FROM " + t("segmented") + " ORDER BY id"));
    }
    assertEquals(List.of("0/4", "1/4", "2/4", "3/4"),
        GlueCallRecorder.callsOf("GetPartitions").stream().map(c -> c.segment()).sorted().toList());
  }

  /**
   * An endpoint that ignores Segment (MiniStack on its own) answers every segment with all partitions: each
   * partition is still read once, and the catalog's later listings are made in one piece.
   */
  @Test
  void anEndpointThatIgnoresSegmentsStillReadsEachPartitionOnce() throws Exception {
    // Opts out of Glue's segments: this test is about an endpoint that ignores them, which MiniStack is
    try (AutoCloseable ignoresSegments = GlueSemantics.off(GlueSemantics.Behaviour.PARTITION_SEGMENTS)) {
      readsEachPartitionOnceWhereSegmentsAreIgnored();
    }
  }

  private void readsEachPartitionOnceWhereSegmentsAreIgnored() {
    crawledPartitionedTable("unsegmented");
    List<String> all = List.of("[1,eu,2023]", "[2,eu,2023]", "[10,us,2024]", "[20,null,2024]");
    GlueCallRecorder.clear();

    assertEquals(all, rows("SELECT * FROM " + t("unsegmented") + " ORDER BY id"));
    assertEquals(4, GlueCallRecorder.callsOf("GetPartitions").size());
    GlueCallRecorder.clear();
    assertEquals(all, rows("SELECT * FROM " + t("unsegmented") + " ORDER BY id"));
    assertEquals(java.util.Collections.singletonList(null),
        GlueCallRecorder.callsOf("GetPartitions").stream().map(c -> c.segment()).toList());
  }

  /**
   * Filters on a date key reach Glue as quoted ISO dates; an expression Glue refuses as input (InvalidInput)
   * only narrowed the listing, so the read lists every partition and the scan prunes them.
   */
  @Test
  void dateKeyFiltersReachGlueAndARefusedExpressionFallsBackToTheScan() {
    String location = newDirectory("by_day");
    hiveEntry(db, "by_day", location, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of(), Map.of(),
        List.of("id bigint"), List.of("day date"));
    for (int d = 1; d <= 2; d++) {
      String dir = location + "/day=2024-01-0" + d;
      spark().range(d, d + 1).write().mode("overwrite").parquet(dir);
      partition(db, "by_day", dir, "2024-01-0" + d);
    }
    GlueCallRecorder.clear();

    assertEquals(List.of("[2]"), rows("SELECT id FROM " + t("by_day") + " WHERE day = DATE'2024-01-02'"));
    assertEquals(List.of("day = '2024-01-02'"),
        GlueCallRecorder.callsOf("GetPartitions").stream().map(c -> c.expression()).toList());
    GlueCallRecorder.clear();
    try (io.gluecat.testkit.Fault.Handle refused = GlueFaults.inject(io.gluecat.testkit.Fault.glue("GetPartitions")
        .error("InvalidInputException", 400).message("Unsupported expression").build())) {
      assertEquals(List.of("[1]"), rows("SELECT id FROM " + t("by_day") + " WHERE day < DATE'2024-01-02'"));
    }
    List<String> expressions = GlueCallRecorder.callsOf("GetPartitions").stream().map(c -> c.expression()).toList();
    assertEquals("day < '2024-01-02'", expressions.get(0));
    assertTrue(expressions.size() > 1 && expressions.subList(1, expressions.size()).stream().allMatch(e -> e == null),
        expressions.toString());
  }

  @Test
  void aPartitionWithoutALocationIsRefusedNamingTheTableAndPartition() {
    String location = newDirectory("noloc");
    hiveEntry(db, "noloc", location, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of(), Map.of(),
        List.of("id bigint"), List.of("p string"));
    GLUE.createPartition(r -> r.databaseName(db).tableName("noloc").partitionInput(p -> p.values("x")));

    assertReadAndCopyRefused("noloc", qualified("noloc"), "[x]", "without a location");
  }

  /** Glue keeps a partition with fewer values than the table has keys; which keys it lacks is unknown, so it fails. */
  @Test
  void aPartitionWithFewerValuesThanKeysIsRefusedNamingTheTableAndPartition() {
    String location = newDirectory("short");
    hiveEntry(db, "short", location, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of(), Map.of(),
        List.of("id bigint"), List.of("region string", "year int"));
    String eu = location + "/region=eu";
    spark().range(1).write().mode("overwrite").parquet(eu);
    partition(db, "short", eu, "eu");

    assertReadAndCopyRefused("short", qualified("short"), "[eu]", "2 partition keys");
  }

  /**
   * A partition whose directory does not exist reads as empty (Hive, Athena and Spark's Hive path do the same),
   * and a warning names the table, the partition and the location.
   */
  @Test
  void aPartitionWhoseDirectoryIsMissingReadsAsEmptyWithAWarning() {
    String location = newDirectory("gone");
    hiveEntry(db, "gone", location, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of(), Map.of(),
        List.of("id bigint"), List.of("p string"));
    String kept = location + "/p=a";
    spark().range(1, 3).write().mode("overwrite").parquet(kept);
    String missing = location + "/p=b";
    partition(db, "gone", kept, "a");
    partition(db, "gone", missing, "b");
    capture = LogCapture.start(logged);

    assertEquals(List.of("[1,a]", "[2,a]"), rows("SELECT * FROM " + t("gone") + " ORDER BY id"));
    assertTrue(logged.stream().anyMatch(l -> l.contains(qualified("gone")) && l.contains("[b]")
        && l.contains("p=b") && l.contains("does not exist")), logged.toString());
    assertEquals(List.of(), rows("SELECT * FROM " + t("gone") + " WHERE p = 'b'"));
  }

  // ---- Athena partition projection: partitions computed from the table parameters, never from Glue ----

  /** A parquet table with the given keys and projection parameters ({@code <loc>}: its location); returns that. */
  private String projectedTable(String table, List<String> keys, Map<String, String> projection) {
    String location = newDirectory(table);
    Map<String, String> parameters = new java.util.HashMap<>();
    projection.forEach((k, v) -> parameters.put(k, v.replace("<loc>", location)));
    parameters.put("projection.enabled", "true");
    parameters.put("EXTERNAL", "TRUE");
    hiveEntry(db, table, location, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of("serialization.format", "1"),
        parameters, List.of("id bigint"), keys);
    return location;
  }

  private void parquetRows(String location, long from, long to) {
    spark().range(from, to).write().mode("overwrite").parquet(location);
  }

  /**
   * Enum and zero-padded integer keys placed by storage.location.template: every projected partition is read
   * (missing ones are empty), filters prune them, files outside the projection are never read, and Glue is
   * not asked for partitions (the Glue partition the entry also has is ignored, as Athena ignores it).
   */
  @Test
  @CompatCase(id = "athena-projection-enum-integer", writer = "athena", reader = "gluecat",
      title = "Partition projection: enum and integer keys, storage.location.template")
  void anEnumAndIntegerProjectionReadsTheProjectedLocations() {
    String location = projectedTable("proj_enum", List.of("region string", "bucket int"), Map.of(
        "projection.region.type", "enum", "projection.region.values", "eu, us",
        "projection.bucket.type", "integer", "projection.bucket.range", "1,5", "projection.bucket.interval", "2",
        "projection.bucket.digits", "2", "storage.location.template", "<loc>/data/${region}/b${bucket}"));
    parquetRows(location + "/data/eu/b01", 1, 3);
    parquetRows(location + "/data/us/b05", 10, 11);
    parquetRows(location + "/data/us/b02", 50, 51); // 2 is not in the projection (1, 3, 5)
    parquetRows(location + "/data/asia/b01", 60, 61); // nor is asia
    partition(db, "proj_enum", location + "/data/asia/b01", "asia", "1");
    GlueCallRecorder.clear();

    assertEquals(List.of("[1,eu,1]", "[2,eu,1]", "[10,us,5]"), rows("SELECT * FROM " + t("proj_enum") + " ORDER BY id"));
    assertEquals(List.of("[10,us,5]"), rows("SELECT * FROM " + t("proj_enum") + " WHERE region = 'us' AND bucket > 3"));
    assertEquals(List.of(), GlueCallRecorder.callsOf("GetPartitions"));
  }

  /**
   * Date projections: a day key of type date relative to NOW without a template (Hive's key=value layout
   * under the table), and an hourly string key with an interval and unit placed by a template.
   */
  @Test
  @CompatCase(id = "athena-projection-date", writer = "athena", reader = "gluecat",
      title = "Partition projection: date keys (NOW-relative days, hourly interval)")
  void dateProjectionsReadDaysRelativeToNowAndHoursByInterval() {
    String days = projectedTable("proj_days", List.of("day date"), Map.of("projection.day.type", "date",
        "projection.day.range", "NOW-3DAYS,NOW", "projection.day.format", "yyyy-MM-dd"));
    java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
    parquetRows(days + "/day=" + today, 1, 2);
    parquetRows(days + "/day=" + today.minusDays(2), 2, 3);
    parquetRows(days + "/day=" + today.minusDays(10), 3, 4); // before the range
    String hours = projectedTable("proj_hours", List.of("hour string"), Map.of("projection.hour.type", "date",
        "projection.hour.range", "2024/01/01/00,2024/01/01/05", "projection.hour.format", "yyyy/MM/dd/HH",
        "projection.hour.interval", "2", "projection.hour.interval.unit", "HOURS",
        "storage.location.template", "<loc>/${hour}/"));
    parquetRows(hours + "/2024/01/01/02", 1, 2);
    parquetRows(hours + "/2024/01/01/04", 2, 3);
    parquetRows(hours + "/2024/01/01/03", 3, 4); // between two projected hours

    assertEquals(List.of("[1," + today + "]", "[2," + today.minusDays(2) + "]"),
        rows("SELECT * FROM " + t("proj_days") + " ORDER BY id"));
    assertEquals(List.of("[2]"), rows("SELECT id FROM " + t("proj_days") + " WHERE day < DATE'" + today + "'"));
    assertEquals(List.of("[1,2024/01/01/02]", "[2,2024/01/01/04]"),
        rows("SELECT * FROM " + t("proj_hours") + " ORDER BY id"));
    assertEquals(List.of("[2]"), rows("SELECT id FROM " + t("proj_hours") + " WHERE hour = '2024/01/01/04'"));
  }

  /** An injected key takes its values from the query's equality filter; without one the query fails as in Athena. */
  @Test
  @CompatCase(id = "athena-projection-injected", writer = "athena", reader = "gluecat",
      title = "Partition projection: injected key")
  void anInjectedProjectionNeedsAnEqualityFilter() {
    String location = projectedTable("proj_injected", List.of("device string"),
        Map.of("projection.device.type", "injected"));
    parquetRows(location + "/device=a1", 1, 2);
    parquetRows(location + "/device=b2", 2, 3);

    assertEquals(List.of("[1,a1]"), rows("SELECT * FROM " + t("proj_injected") + " WHERE device = 'a1'"));
    assertEquals(List.of("[1]", "[2]"),
        rows("SELECT id FROM " + t("proj_injected") + " WHERE device IN ('a1', 'b2', 'c3') ORDER BY id"));
    assertMessage(() -> run("SELECT * FROM " + t("proj_injected")), qualified("proj_injected"), "'device'",
        "injected", "equality");
    assertMessage(() -> run("SELECT * FROM " + t("proj_injected") + " WHERE device > 'a'"),
        qualified("proj_injected"), "'device'", "injected");
  }

  /** Bad projection parameters fail the read, naming the table, the key and the parameter. */
  @Test
  void badProjectionParametersAreRefusedNamingTableColumnAndParameter() {
    projectedTable("proj_unknown", List.of("k string"), Map.of("projection.k.type", "weekday"));
    projectedTable("proj_range", List.of("k int"), Map.of("projection.k.type", "integer", "projection.k.range", "5"));
    projectedTable("proj_dates", List.of("k string"), Map.of("projection.k.type", "date",
        "projection.k.range", "2024-13-01,NOW", "projection.k.format", "yyyy-MM-dd"));
    projectedTable("proj_untyped", List.of("k string", "j string"), Map.of("projection.k.type", "enum",
        "projection.k.values", "a"));
    projectedTable("proj_template", List.of("k string"), Map.of("projection.k.type", "enum",
        "projection.k.values", "a", "storage.location.template", "s3://bucket/x/"));

    assertMessage(() -> run("SELECT * FROM " + t("proj_unknown")), qualified("proj_unknown"), "'k'",
        "projection.k.type", "weekday");
    assertMessage(() -> run("SELECT * FROM " + t("proj_range")), qualified("proj_range"), "'k'",
        "projection.k.range", "'5'");
    assertMessage(() -> run("SELECT * FROM " + t("proj_dates")), qualified("proj_dates"), "'k'",
        "projection.k.range", "2024-13-01");
    assertMessage(() -> run("SELECT * FROM " + t("proj_untyped")), qualified("proj_untyped"), "'j'",
        "projection.j.type");
    assertMessage(() -> run("SELECT * FROM " + t("proj_template")), qualified("proj_template"),
        "storage.location.template", "${k}");
  }

  // ---- calls ----

  /** A comma-delimited text table of one row (1, 'x'); returns its location. */
  private String textTable(String table) {
    String location = newDirectory(table);
    writeFile(location, "a.csv", "1,x\n");
    hiveEntry(db, table, location, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of("field.delim", ","), Map.of(),
        List.of("id int", "s string"), List.of());
    return location;
  }

  /** Reading a Hive-format table costs one GetTable, as any other table. */
  @Test
  void aReadCostsOneGetTable() {
    textTable("counted");
    GlueCallRecorder.clear();

    assertEquals(List.of("[1,x]"), rows("SELECT * FROM " + t("counted")));
    assertEquals(1, GlueCallRecorder.callsOf("GetTable").size(), GlueCallRecorder.calls().toString());
    assertEquals(List.of(), GlueCallRecorder.callsOf("GetPartitions"));
  }

  // ---- refused ----

  @Test
  void serdesNoSparkSourceReadsAreRefusedNamingTheTableAndSerde() {
    hiveEntry(db, "regex", newDirectory("regex"), "org.apache.hadoop.hive.serde2.RegexSerDe", TEXT_INPUT,
        TEXT_OUTPUT, Map.of("input.regex", "(\\d+) (.*)"), Map.of(), List.of("a string", "b string"), List.of());

    assertMessage(() -> run("SELECT * FROM " + t("regex")), qualified("regex"), "RegexSerDe");
  }

  /**
   * A header count that is not a whole number fails naming the table, parameter and value: Hive, Trino and Spark's
   * Hive path fail on one that is not a number; Trino also on a negative one, which Hive reads as 0.
   */
  @Test
  void headerCountsThatAreNotANumberOfLinesAreRefused() {
    String location = newDirectory("header_bad");
    writeFile(location, "a.csv", "1,x\n");
    for (String[] bad : List.of(new String[] {"header_word", "two"}, new String[] {"header_negative", "-1"})) {
      hiveEntry(db, bad[0], location, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of("field.delim", ","),
          Map.of("skip.header.line.count", bad[1]), List.of("id int", "s string"), List.of());
    }

    assertReadAndCopyRefused("header_word", qualified("header_word"), "skip.header.line.count", "'two'");
    assertRefused(InvalidGlueEntryException.class, () -> run("SELECT * FROM " + t("header_negative")),
        qualified("header_negative"), "skip.header.line.count", "'-1'");
  }

  /**
   * A crawler's compressionType that names a codec Hadoop does not pick by extension fails naming the table: the
   * crawler found files this Spark would misread. The write-side codec parameters (parquet.compression,
   * orc.compress, Athena's write.compression) do not change a read, as in Hive, Trino and Athena, whatever they name.
   */
  @Test
  void anUnknownCrawlerCompressionIsRefusedAndWriteCodecParametersAreIgnored() {
    String text = newDirectory("crawled_lzo");
    writeFile(text, "a.csv", "1,x\n");
    hiveEntry(db, "crawled_lzo", text, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of("field.delim", ","),
        Map.of("classification", "csv", "compressionType", "lzo"), List.of("id int", "s string"), List.of());
    String parquet = newDirectory("odd_codecs");
    spark().range(2).write().mode("overwrite").parquet(parquet);
    hiveEntry(db, "odd_codecs", parquet, PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of(),
        Map.of("parquet.compression", "BROTLI_9", "write.compression", "XYZ", "orc.compress", "LZ77"),
        List.of("id bigint"), List.of());

    assertReadAndCopyRefused("crawled_lzo", qualified("crawled_lzo"), "compressionType", "'lzo'");
    assertEquals(List.of("[0]", "[1]"), rows("SELECT * FROM " + t("odd_codecs") + " ORDER BY id"));
  }

  /**
   * A text file whose extension names a codec Spark's Hadoop lacks (LZO without hadoop-lzo) would be read as plain
   * text, compressed bytes as rows: it fails naming the table, the partition, the file and the codec. Here the file
   * holds plain text, which is exactly what would be read without the check.
   */
  @Test
  void textFilesOfACodecSparkLacksAreRefusedNamingTheTableAndFile() {
    String flat = newDirectory("lzo_flat");
    writeFile(flat, "part-0.csv.lzo", "1,x\n");
    hiveEntry(db, "lzo_flat", flat, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of("field.delim", ","), Map.of(),
        List.of("id int", "s string"), List.of());
    String parted = newDirectory("lzo_parted");
    writeFile(parted + "/p=a", "part-0.json.gz", "");
    writeFile(parted + "/p=b", "part-0.json.lzo_deflate", "{\"id\": 1}\n");
    hiveEntry(db, "lzo_parted", parted, "org.apache.hive.hcatalog.data.JsonSerDe", TEXT_INPUT, TEXT_OUTPUT, Map.of(),
        Map.of(), List.of("id int"), List.of("p string"));
    partition(db, "lzo_parted", parted + "/p=a", "a");
    partition(db, "lzo_parted", parted + "/p=b", "b");

    assertReadAndCopyRefused("lzo_flat", qualified("lzo_flat"), "part-0.csv.lzo", "lzo");
    assertRefused(InvalidGlueEntryException.class, () -> run("SELECT * FROM " + t("lzo_parted")),
        qualified("lzo_parted"), "[b]", "part-0.json.lzo_deflate", "lzo");
  }

  /**
   * A crawler that finds a Delta table catalogs its parquet files as a parquet table; reading those files would
   * return rows Delta has removed, so the load is refused, naming the table, the log and the way out.
   */
  @Test
  void aHiveFormatEntryOverADeltaTableIsRefused() {
    String location = newDirectory("crawled_delta");
    spark().range(4).selectExpr("id").write().format("delta").mode("overwrite").save(location);
    spark().sql("DELETE FROM delta.`" + location + "` WHERE id < 2");
    hiveEntry(db, "crawled_delta", location, "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
        "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat", Map.of(), Map.of("classification",
        "parquet"), List.of("id bigint"), List.of());

    assertMessage(() -> run("SELECT * FROM " + t("crawled_delta")), qualified("crawled_delta"), "_delta_log",
        "register");
  }

  // writes, and what of them gluecat refuses: HiveFormatWritesIT
  /**
   * SHOW PARTITIONS of a crawled table lists its Glue partitions (wherever they are, the null partition as Hive
   * names it), sorted, all or those of a partial spec; a projected table has no list in Glue and is refused.
   */
  @Test
  void showPartitionsListsTheGluePartitionsOfAHiveFormatTable() {
    crawledPartitionedTable("shown");
    assertEquals(List.of("[region=__HIVE_DEFAULT_PARTITION__/year=2024]", "[region=eu/year=2023]",
        "[region=us/year=2024]"), rows("SHOW PARTITIONS " + t("shown")));
    assertEquals(List.of("[region=__HIVE_DEFAULT_PARTITION__/year=2024]", "[region=us/year=2024]"),
        rows("SHOW PARTITIONS " + t("shown") + " PARTITION (year = 2024)"));
    assertEquals(List.of("[region=eu/year=2023]"),
        rows("SHOW PARTITIONS " + t("shown") + " PARTITION (region = 'eu', year = 2023)"));

    projectedTable("shown_proj", List.of("region string"), Map.of("projection.region.type", "enum",
        "projection.region.values", "eu, us"));
    assertMessage(() -> run("SHOW PARTITIONS " + t("shown_proj")), "shown_proj", "projection");
    hiveEntry(db, "shown_flat", newDirectory("shown_flat"), PARQUET_SERDE, PARQUET_INPUT, PARQUET_OUTPUT, Map.of(),
        Map.of("classification", "parquet"), List.of("id bigint"), List.of());
    assertMessage(() -> run("SHOW PARTITIONS " + t("shown_flat")), "not partitioned", "shown_flat");
  }
}
