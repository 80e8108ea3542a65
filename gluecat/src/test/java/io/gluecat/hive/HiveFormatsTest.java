package io.gluecat.hive;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.InvalidGlueEntryException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.Table;

/** Hive-format entries in the shapes crawlers, Athena and Trino write them, to Spark sources. */
class HiveFormatsTest {
  private static final String TEXT_OUTPUT = "org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat";
  private static final String PARQUET_INPUT = "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat";
  private static final String NAME = "glue.lake.t";

  /** A Glue entry: columns as "name type" pairs, partition keys likewise. */
  private static Table entry(String serde, String input, Map<String, String> serdeParameters,
      Map<String, String> tableParameters, List<String> columns, List<String> keys) {
    return Table.builder().name("t").databaseName("lake").tableType("EXTERNAL_TABLE").parameters(tableParameters)
        .partitionKeys(columns(keys))
        .storageDescriptor(sd -> sd.location("s3://lake/t/").inputFormat(input).outputFormat(TEXT_OUTPUT)
            .columns(columns(columns))
            .serdeInfo(s -> s.serializationLibrary(serde).parameters(serdeParameters)))
        .build();
  }

  private static List<Column> columns(List<String> pairs) {
    return pairs.stream().map(p -> p.split(" ", 2)).map(p -> Column.builder().name(p[0]).type(p[1]).build())
        .toList();
  }

  private static HiveSource source(Table t) {
    return HiveFormats.source(NAME, new io.gluecat.entry.StoredTable(t), true);
  }

  private static void assertRefused(Table t, String... fragments) {
    InvalidGlueEntryException e = assertThrows(InvalidGlueEntryException.class, () -> source(t));
    assertTrue(e.getMessage().contains(NAME), e.getMessage());
    for (String fragment : fragments) {
      assertTrue(e.getMessage().contains(fragment), "expected '" + fragment + "' in: " + e.getMessage());
    }
  }

  // ---- Glue crawler shapes ----

  @Test
  void aCrawledCsvTableReadsAsCsvSkippingItsHeader() {
    Map<String, String> params = new HashMap<>(Map.of("classification", "csv", "areColumnsQuoted", "false",
        "columnsOrdered", "true", "compressionType", "none", "delimiter", ",", "skip.header.line.count", "1",
        "typeOfData", "file", "UPDATED_BY_CRAWLER", "c1", "CrawlerSchemaSerializerVersion", "1.0"));
    HiveSource s = source(entry(HiveFormats.LAZY_SIMPLE_SERDE, HiveFormats.TEXT_INPUT, Map.of("field.delim", ","),
        params, List.of("id bigint", "name string", "price double"), List.of("dt string")));
    assertEquals("csv", s.format());
    assertEquals(Map.of("sep", ",", "quote", "\u0000", "nullValue", "\\N", "header", "true"), s.options());
    assertEquals(StructType.fromDDL("id BIGINT, name STRING, price DOUBLE, dt STRING"), s.schema());
    assertEquals(List.of("dt"), s.partitionColumns());
  }

  @Test
  void aCrawledQuotedCsvTableReadsWithItsQuoteAndDeclaredTypes() {
    HiveSource s = source(entry(HiveFormats.OPEN_CSV_SERDE, HiveFormats.TEXT_INPUT,
        Map.of("separatorChar", ",", "quoteChar", "\""), Map.of("classification", "csv", "skip.header.line.count",
            "1"), List.of("id bigint", "note string"), List.of()));
    assertEquals("csv", s.format());
    // no escapeChar: a quote inside a value is doubled, as OpenCSVSerde's and Trino's writers write it
    assertEquals(Map.of("sep", ",", "quote", "\"", "escape", "\"", "header", "true"), s.options());
    assertEquals(StructType.fromDDL("id BIGINT, note STRING"), s.schema(), "columns as the entry declares them");
  }

  @Test
  void anOpenCsvTableWithABackslashEscapeCharReadsBackslashEscapedQuotes() {
    HiveSource s = source(entry(HiveFormats.OPEN_CSV_SERDE, HiveFormats.TEXT_INPUT,
        Map.of("separatorChar", ";", "quoteChar", "'", "escapeChar", "\\"), Map.of(), List.of("note string"),
        List.of()));
    assertEquals(Map.of("sep", ";", "quote", "'", "escape", "\\"), s.options());
  }

  @Test
  void aCrawledOpenxJsonTableReadsAsJsonWithNestedColumns() {
    HiveSource s = source(entry(HiveFormats.OPENX_JSON_SERDE, HiveFormats.TEXT_INPUT,
        Map.of("paths", "id,tags,user"), Map.of("classification", "json"),
        List.of("id int", "tags array<string>", "user struct<name:string,age:int>"), List.of("year string")));
    assertEquals("json", s.format());
    assertEquals(Map.of("mode", "FAILFAST"), s.options());
    assertEquals(StructType.fromDDL("id INT, tags ARRAY<STRING>, user STRUCT<name: STRING, age: INT>, year STRING"),
        s.schema());
  }

  @Test
  void aCrawledParquetTableReadsAsParquet() {
    HiveSource s = source(entry(HiveFormats.PARQUET_SERDE, PARQUET_INPUT, Map.of("serialization.format", "1"),
        Map.of("classification", "parquet"), List.of("id bigint", "amount decimal(10,2)", "code varchar(5)"),
        List.of("year int", "month int")));
    assertEquals("parquet", s.format());
    assertEquals(Map.of(), s.options());
    assertEquals(StructType.fromDDL("id BIGINT, amount DECIMAL(10,2), code STRING, year INT, month INT"), s.schema(),
        "varchar reads as string");
    assertEquals(List.of("year", "month"), s.partitionColumns());
  }

  // ---- Athena shapes ----

  @Test
  void athenaRowFormatDelimitedReadsWithItsDelimitersAndNullFormat() {
    Map<String, String> serde = Map.of("field.delim", "|", "escape.delim", "\\", "line.delim", "\n",
        "serialization.format", "|", "serialization.null.format", "");
    HiveSource s = source(entry(HiveFormats.LAZY_SIMPLE_SERDE, HiveFormats.TEXT_INPUT, serde,
        Map.of("EXTERNAL", "TRUE", "skip.header.line.count", "0"), List.of("a string", "b int"), List.of()));
    assertEquals(Map.of("sep", "|", "quote", "\u0000", "escape", "\\", "nullValue", ""), s.options());
  }

  @Test
  void athenaOrcAndAvroTablesReadAsTheirSources() {
    HiveSource orc = source(entry(HiveFormats.ORC_SERDE, "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat",
        Map.of(), Map.of("EXTERNAL", "TRUE", "orc.compress", "ZLIB"), List.of("a string"), List.of()));
    assertEquals("orc", orc.format());
    String literal = "{\"type\":\"record\",\"name\":\"r\",\"fields\":[{\"name\":\"a\",\"type\":\"string\"}]}";
    Table avro = entry(HiveFormats.AVRO_SERDE, "org.apache.hadoop.hive.ql.io.avro.AvroContainerInputFormat",
        Map.of(), Map.of("avro.schema.literal", literal), List.of("a string"), List.of());
    HiveSource s = source(avro);
    assertEquals("avro", s.format());
    assertEquals(Map.of("avroSchema", literal), s.options());
    InvalidGlueEntryException e = assertThrows(InvalidGlueEntryException.class,
        () -> HiveFormats.source(NAME, new io.gluecat.entry.StoredTable(avro), false));
    assertTrue(e.getMessage().contains("spark-avro") && e.getMessage().contains(HiveFormats.AVRO_SERDE),
        e.getMessage());
  }

  @Test
  void hcatalogJsonReadsAsJsonAndIgnoreMalformedIsPermissive() {
    HiveSource s = source(entry(HiveFormats.HCATALOG_JSON_SERDE, HiveFormats.TEXT_INPUT, Map.of(), Map.of(),
        List.of("a string"), List.of()));
    assertEquals(Map.of("mode", "FAILFAST"), s.options());
    HiveSource lenient = source(entry(HiveFormats.OPENX_JSON_SERDE, HiveFormats.TEXT_INPUT,
        Map.of("ignore.malformed.json", "true"), Map.of(), List.of("a string"), List.of()));
    assertEquals(Map.of("mode", "PERMISSIVE"), lenient.options());
  }

  // ---- Trino shapes: delimiters and header counts in the table parameters ----

  @Test
  void tableParametersOverrideSerdeParametersAsHiveMergesThem() {
    HiveSource s = source(entry(HiveFormats.LAZY_SIMPLE_SERDE, HiveFormats.TEXT_INPUT,
        Map.of("field.delim", ",", "serialization.format", "1"),
        Map.of("field.delim", "9", "skip.header.line.count", "1", "trino_version", "476"),
        List.of("a string", "b bigint"), List.of()));
    assertEquals("\t", s.options().get("sep"), "'9' is byte 9, a tab, as Hive reads delimiters");
    assertEquals("true", s.options().get("header"));
  }

  @Test
  void hiveDefaultsApplyWhenNothingIsSet() {
    HiveSource s = source(entry(HiveFormats.LAZY_SIMPLE_SERDE, HiveFormats.TEXT_INPUT, Map.of(), Map.of(),
        List.of("a string"), List.of()));
    assertEquals(Map.of("sep", "\u0001", "quote", "\u0000", "nullValue", "\\N"), s.options());
    HiveSource format = source(entry(HiveFormats.LAZY_SIMPLE_SERDE, HiveFormats.TEXT_INPUT,
        Map.of("serialization.format", ","), Map.of(), List.of("a string"), List.of()));
    assertEquals(",", format.options().get("sep"), "serialization.format stands in for field.delim");
  }

  // ---- refused ----

  @Test
  void serdesNoSparkSourceReadsAreRefusedNamingTheSerde() {
    assertRefused(entry("org.apache.hadoop.hive.serde2.RegexSerDe", HiveFormats.TEXT_INPUT,
        Map.of("input.regex", "(.*)"), Map.of(), List.of("a string"), List.of()), "RegexSerDe");
    assertRefused(entry("org.apache.hadoop.hive.serde2.columnar.ColumnarSerDe",
        "org.apache.hadoop.hive.ql.io.RCFileInputFormat", Map.of(), Map.of(), List.of("a string"), List.of()),
        "ColumnarSerDe");
    assertRefused(entry("com.example.MySerDe", HiveFormats.TEXT_INPUT, Map.of(), Map.of(), List.of("a string"),
        List.of()), "com.example.MySerDe");
  }

  @Test
  void inputFormatsOtherThanTheSerdesOwnAreRefused() {
    assertRefused(entry(HiveFormats.LAZY_SIMPLE_SERDE, "org.apache.hadoop.mapred.SequenceFileInputFormat",
        Map.of(), Map.of(), List.of("a string"), List.of()), "SequenceFileInputFormat", "LazySimpleSerDe");
    assertRefused(entry(HiveFormats.PARQUET_SERDE, "org.apache.hudi.hadoop.HoodieParquetInputFormat", Map.of(),
        Map.of(), List.of("a string"), List.of()), "HoodieParquetInputFormat");
    assertRefused(entry(HiveFormats.PARQUET_SERDE, "org.apache.hadoop.hive.ql.io.SymlinkTextInputFormat", Map.of(),
        Map.of(), List.of("a string"), List.of()), "SymlinkTextInputFormat");
  }

  @Test
  void hiveAcidTablesAreRefused() {
    assertRefused(entry(HiveFormats.ORC_SERDE, "org.apache.hadoop.hive.ql.io.orc.OrcInputFormat", Map.of(),
        Map.of("transactional", "true", "transactional_properties", "default"), List.of("a string"), List.of()),
        "ACID", "transactional");
  }

  @Test
  void textParametersCsvCannotHonourAreRefusedNamingTheParameter() {
    assertRefused(text(Map.of(), Map.of("skip.header.line.count", "one")), "skip.header.line.count", "'one'");
    assertRefused(text(Map.of(), Map.of("skip.header.line.count", "2")), "skip.header.line.count = 2");
    assertRefused(text(Map.of(), Map.of("skip.footer.line.count", "1")), "skip.footer.line.count");
    assertRefused(text(Map.of(), Map.of("compressionType", "lzo")), "compressionType", "'lzo'");
    assertRefused(text(Map.of("serialization.last.column.takes.rest", "true"), Map.of()),
        "serialization.last.column.takes.rest");
    assertRefused(entry(HiveFormats.LAZY_SIMPLE_SERDE, HiveFormats.TEXT_INPUT,
        Map.of("collection.delim", "#", "mapkey.delim", ":"), Map.of(), List.of("tags array<string>"), List.of()),
        "'tags'", "array<string>", "LazySimpleSerDe");
    assertRefused(entry(HiveFormats.OPEN_CSV_SERDE, HiveFormats.TEXT_INPUT, Map.of("separatorChar", ""), Map.of(),
        List.of("a string"), List.of()), "separatorChar");
  }

  @Test
  void jsonParametersSparkCannotHonourAreRefused() {
    assertRefused(entry(HiveFormats.OPENX_JSON_SERDE, HiveFormats.TEXT_INPUT, Map.of("mapping.ts", "timestamp"),
        Map.of(), List.of("ts string"), List.of()), "mapping.ts");
    assertRefused(entry(HiveFormats.OPENX_JSON_SERDE, HiveFormats.TEXT_INPUT, Map.of("dots.in.keys", "true"),
        Map.of(), List.of("a string"), List.of()), "dots.in.keys");
  }

  @Test
  void malformedColumnsAreRefusedNamingTheColumn() {
    assertRefused(text(Map.of(), Map.of(), List.of("u uniontype<int,string>")), "'u'", "uniontype");
    assertRefused(text(Map.of(), Map.of(), List.of("a string", "A int")), "'A'", "more than once");
    assertRefused(entry(HiveFormats.PARQUET_SERDE, PARQUET_INPUT, Map.of(), Map.of(), List.of("a string"),
        List.of("a string")), "'a'", "more than once");
    assertRefused(entry(HiveFormats.PARQUET_SERDE, PARQUET_INPUT, Map.of(), Map.of(), List.of("a string"),
        List.of("p array<int>")), "partition key 'p'");
    assertRefused(Table.builder().name("t").build(), "no StorageDescriptor");
  }

  private static Table text(Map<String, String> serde, Map<String, String> table) {
    return text(serde, table, List.of("a string"));
  }

  private static Table text(Map<String, String> serde, Map<String, String> table, List<String> columns) {
    return entry(HiveFormats.LAZY_SIMPLE_SERDE, HiveFormats.TEXT_INPUT, serde, table, columns, List.of());
  }
}
