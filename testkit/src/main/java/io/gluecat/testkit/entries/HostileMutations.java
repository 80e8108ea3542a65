package io.gluecat.testkit.entries;

import static io.gluecat.testkit.entries.HostileEntries.*;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.TableIdentifier;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * The catalogue of {@link HostileEntries}' single mutations, apart from the generation and the valid shapes so each
 * file stays readable; the helpers they use are {@link HostileEntries}'.
 */
final class HostileMutations {

  private HostileMutations() {}

  /** Every single mutation, in a fixed order. */
  static List<Mutation> all(Locations at) {
    List<Mutation> m = new ArrayList<>();
    String dir = at.database();
    List<String> ownedKeys = List.of("EXTERNAL", PROVIDER, "spark.sql.create.version", "spark.sql.partitionProvider",
        "table_type", SCHEMA, NUM_PART_COLS, PART_COL + "0", "comment", "trino_version");

    // missing fields
    for (String key : ownedKeys) {
      m.add(new Mutation(Kind.MISSING, "without " + key, t -> withoutParam(t, key)));
    }
    m.add(new Mutation(Kind.MISSING, "without serde path", t -> serde(t, p -> p.remove("path"))));
    m.add(new Mutation(Kind.MISSING, "without any parameters", t -> t.toBuilder().parameters(Map.of()).build()));
    m.add(new Mutation(Kind.MISSING, "without a storage descriptor", t -> t.toBuilder().storageDescriptor((StorageDescriptor) null).build()));
    m.add(new Mutation(Kind.MISSING, "without SerdeInfo", t -> sd(t, s -> s.serdeInfo((SerDeInfo) null))));
    m.add(new Mutation(Kind.MISSING, "without SerDe parameters", t -> sd(t, s -> s.serdeInfo(t.storageDescriptor().serdeInfo().toBuilder().parameters(Map.of()).build()))));
    m.add(new Mutation(Kind.MISSING, "without sd location", t -> sd(t, s -> s.location(null))));
    m.add(new Mutation(Kind.MISSING, "without sd location and path", t -> serde(sd(t, s -> s.location(null)), p -> p.remove("path"))));
    m.add(new Mutation(Kind.MISSING, "without columns", t -> sd(t, s -> s.columns(List.of()))));
    m.add(new Mutation(Kind.MISSING, "without table type", t -> t.toBuilder().tableType(null).build()));
    m.add(new Mutation(Kind.MISSING, "without formats", t -> sd(t, s -> s.inputFormat(null).outputFormat(null))));
    m.add(new Mutation(Kind.MISSING, "without partition keys", t -> t.toBuilder().partitionKeys(List.of()).build()));

    // null values
    for (String key : List.of(PROVIDER, SCHEMA, NUM_PART_COLS, PART_COL + "0", "table_type", "comment")) {
      m.add(new Mutation(Kind.NULL, "null " + key, t -> withParam(t, key, null)));
    }
    m.add(new Mutation(Kind.NULL, "null serde path", t -> serde(t, p -> p.put("path", null))));
    m.add(new Mutation(Kind.NULL, "null column name", t -> sd(t, s -> s.columns(Column.builder().type("int").build()))));
    m.add(new Mutation(Kind.NULL, "null column type", t -> sd(t, s -> s.columns(Column.builder().name("id").build()))));
    m.add(new Mutation(Kind.NULL, "null serialization library", t -> sd(t, s -> s.serdeInfo(t.storageDescriptor().serdeInfo().toBuilder().serializationLibrary(null).build()))));

    // wrong types
    for (String v : List.of("abc", "-1", "0", "1.5", " 2 ", "99999999999", "2147483647", "0x2")) {
      m.add(new Mutation(Kind.WRONG_TYPE, "numParts=" + v, t -> withParam(withParam(t, NUM_PARTS, v), PART + "0", t.parameters().get(SCHEMA))));
    }
    for (String v : List.of("x", "-3", "1000000", "99999999999", " 1", "2")) {
      m.add(new Mutation(Kind.WRONG_TYPE, "numPartCols=" + v, t -> withParam(t, NUM_PART_COLS, v)));
    }
    for (String v : List.of("42", "\"struct\"", "[]", "true", "null", "{}",
        "{\"type\":\"array\",\"elementType\":\"integer\",\"containsNull\":true}",
        "{\"type\":\"struct\",\"fields\":{}}",
        "{\"type\":\"struct\",\"fields\":[1,2]}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":1,\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":5,\"nullable\":true,\"metadata\":{}}]}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"integer\"}]}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"notatype\",\"nullable\":true,\"metadata\":{}}]}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"integer\",\"nullable\":\"yes\",\"metadata\":{}}]}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"integer\",\"nullable\":true,\"metadata\":7}]}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"decimal(99,99)\",\"nullable\":true,\"metadata\":{}}]}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"decimal(5,-3)\",\"nullable\":true,\"metadata\":{}}]}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"varchar(-1)\",\"nullable\":true,\"metadata\":{}}]}",
        "{\"type\":\"map\",\"keyType\":\"string\",\"valueType\":\"string\",\"valueContainsNull\":true}",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":{\"type\":\"map\"},\"nullable\":true,\"metadata\":{}}]}")) {
      m.add(new Mutation(Kind.WRONG_TYPE, "schema=" + abbreviate(v), t -> withParam(t, SCHEMA, v)));
    }
    for (String v : List.of("123", "true", "{}", "[delta]")) {
      m.add(new Mutation(Kind.WRONG_TYPE, PROVIDER_LABEL_PREFIX + v, t -> withParam(t, PROVIDER, v)));
    }
    m.add(new Mutation(Kind.WRONG_TYPE, "column type 'not a type'", t -> sd(t, s -> s.columns(col("id", "not a type")))));
    m.add(new Mutation(Kind.WRONG_TYPE, "bucketed by id into 7", t -> sd(t, s -> s.numberOfBuckets(7).bucketColumns("id"))));
    m.add(new Mutation(Kind.WRONG_TYPE, "tableType MANAGED_TABLE", t -> t.toBuilder().tableType("MANAGED_TABLE").build()));
    m.add(new Mutation(Kind.WRONG_TYPE, "table_type=DELTA on any provider", t -> withParam(t, "table_type", "DELTA")));
    m.add(new Mutation(Kind.WRONG_TYPE, "partition key type 'struct<'", t -> t.toBuilder().partitionKeys(col("day", "struct<")).build()));
    m.add(new Mutation(Kind.WRONG_TYPE, "retention -5", t -> t.toBuilder().retention(-5).build()));

    // empty strings
    for (String key : List.of(PROVIDER, SCHEMA, NUM_PART_COLS, PART_COL + "0", "table_type", "comment",
        "spark.sql.create.version", "spark.sql.partitionProvider")) {
      m.add(new Mutation(Kind.EMPTY, "empty " + key, t -> withParam(t, key, "")));
    }
    m.add(new Mutation(Kind.EMPTY, "empty serde path", t -> serde(t, p -> p.put("path", ""))));
    m.add(new Mutation(Kind.EMPTY, "empty location and path", t -> serde(sd(t, s -> s.location("")), p -> p.put("path", ""))));
    m.add(new Mutation(Kind.EMPTY, "empty description", t -> t.toBuilder().description("").build()));
    m.add(new Mutation(Kind.EMPTY, "empty column name", t -> sd(t, s -> s.columns(col("", "int")))));
    m.add(new Mutation(Kind.EMPTY, "empty property key", t -> withParam(t, "", "x")));
    m.add(new Mutation(Kind.EMPTY, "empty schema field name", t -> withParam(t, SCHEMA, struct(field("", "\"integer\"")))));
    m.add(new Mutation(Kind.EMPTY, "whitespace location and path", t -> serde(sd(t, s -> s.location("   ")), p -> p.put("path", "   "))));

    // 1 MB strings
    String mb = "x".repeat(ONE_MB);
    m.add(new Mutation(Kind.HUGE, "1 MB comment", t -> withParam(t, "comment", mb)));
    m.add(new Mutation(Kind.HUGE, "1 MB description", t -> t.toBuilder().description(mb).build()));
    m.add(new Mutation(Kind.HUGE, "1 MB property", t -> withParam(t, "big", mb)));
    m.add(new Mutation(Kind.HUGE, "1 MB provider", t -> withParam(t, PROVIDER, mb)));
    m.add(new Mutation(Kind.HUGE, "1 MB schema of garbage", t -> withParam(t, SCHEMA, mb)));
    m.add(new Mutation(Kind.HUGE, "1 MB path", t -> serde(t, p -> p.put("path", at.of(Base.GLUECAT_DELTA) + "/" + mb))));
    m.add(new Mutation(Kind.HUGE, "1 MB column comment in schema", t -> withParam(t, SCHEMA,
        struct("{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{\"comment\":\"" + mb + "\"}}",
            field("day", "\"string\""), field("name", "\"string\"")))));
    m.add(new Mutation(Kind.HUGE, "~1 MB schema of 20,000 fields", t -> withParam(t, SCHEMA, wideSchema(20_000))));
    m.add(new Mutation(Kind.HUGE, "1 MB schema in 4000-character parts", t -> splitSchema(withParam(t, SCHEMA, wideSchema(20_000)), 4000, false)));
    m.add(new Mutation(Kind.HUGE, "1 MB serde parameter", t -> serde(t, p -> p.put("big", mb))));

    // non-ASCII
    for (String name : List.of("naïve", "名前", "emoji😀", "ДЕНЬ")) {
      m.add(new Mutation(Kind.NON_ASCII, "column " + name, t -> withParam(t, SCHEMA,
          struct(field("id", "\"long\""), field(name, "\"string\""), field("day", "\"string\""), field("name", "\"string\"")))));
    }
    m.add(new Mutation(Kind.NON_ASCII, "partition column 名前", t -> withParam(withParam(t, SCHEMA,
        struct(field("id", "\"long\""), field("名前", "\"string\""))), PART_COL + "0", "名前")));
    m.add(new Mutation(Kind.NON_ASCII, "comment ünïcödé ✓", t -> withParam(t, "comment", "ünïcödé ✓ 日本")));
    m.add(new Mutation(Kind.NON_ASCII, "property key ключ", t -> withParam(t, "ключ", "значение")));
    m.add(new Mutation(Kind.NON_ASCII, PROVIDER_LABEL_PREFIX + "délta", t -> withParam(t, PROVIDER, "délta")));
    m.add(new Mutation(Kind.NON_ASCII, "location ünïcödé", t -> location(t, dir + "/ünïcödé/t")));
    m.add(new Mutation(Kind.NON_ASCII, "serde option ✓", t -> serde(t, p -> p.put("sep", "✓"))));

    // control characters
    for (String c : List.of("\n", "\u0000", "\t", "\u001b[31m", "\r\n", "\u007f")) {
      String shown = c.chars().mapToObj(ch -> String.format("\\u%04x", ch)).reduce("", String::concat);
      m.add(new Mutation(Kind.CONTROL, "column name with " + shown, t -> withParam(t, SCHEMA,
          struct(field("id" + c + "x", "\"long\""), field("day", "\"string\""), field("name", "\"string\"")))));
      m.add(new Mutation(Kind.CONTROL, "comment with " + shown, t -> withParam(t, "comment", "a" + c + "b")));
      m.add(new Mutation(Kind.CONTROL, "location with " + shown, t -> location(t, dir + "/a" + c + "b")));
      m.add(new Mutation(Kind.CONTROL, "provider with " + shown, t -> withParam(t, PROVIDER, t.parameters().get(PROVIDER) + c)));
      m.add(new Mutation(Kind.CONTROL, "partition column with " + shown, t -> withParam(t, PART_COL + "0", "day" + c)));
    }

    // schema JSON that does not parse
    for (String v : List.of("{oops", "{\"type\":\"struct\",\"fields\":[", "{\"type\":\"struct\",\"fields\":[]}xyz",
        "{'type':'struct','fields':[]}", "\uFEFF{\"type\":\"struct\",\"fields\":[]}", "<struct/>", "struct<id:int>",
        "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}},]}",
        "\"\\ud800\"", "{\"type\":\"struct\",\"fields\":[],\"type\":\"array\"}")) {
      m.add(new Mutation(Kind.BAD_SCHEMA, "schema=" + abbreviate(v), t -> withParam(t, SCHEMA, v)));
    }

    // deeply nested schemas (valid and not)
    for (int depth : List.of(50, 500, 5_000, 50_000)) {
      m.add(new Mutation(Kind.DEEP_SCHEMA, "struct nested " + depth + " deep", t -> withParam(t, SCHEMA, deepStruct(depth))));
    }
    for (int depth : List.of(1_000, 100_000)) {
      m.add(new Mutation(Kind.DEEP_SCHEMA, "array JSON nested " + depth + " deep", t -> withParam(t, SCHEMA,
          "[".repeat(depth) + "]".repeat(depth))));
      m.add(new Mutation(Kind.DEEP_SCHEMA, "array type nested " + depth + " deep", t -> withParam(t, SCHEMA, deepArray(depth))));
    }

    // schema parts
    m.add(new Mutation(Kind.PARTS, "schema in 3 parts", t -> splitSchema(t, 3, false)));
    m.add(new Mutation(Kind.PARTS, "schema in 1 part", t -> splitSchema(t, 1, false)));
    m.add(new Mutation(Kind.PARTS, "schema parts swapped", t -> {
      TableInput s = splitSchema(t, 2, false);
      String p0 = s.parameters().get(PART + "0");
      return withParam(withParam(s, PART + "0", s.parameters().get(PART + "1")), PART + "1", p0);
    }));
    m.add(new Mutation(Kind.PARTS, "schema part missing in the middle", t -> withoutParam(splitSchema(t, 3, false), PART + "1")));
    m.add(new Mutation(Kind.PARTS, "schema part beyond numParts", t -> withParam(splitSchema(t, 2, false), PART + "2", "}")));
    m.add(new Mutation(Kind.PARTS, "schema part 99999999999", t -> withParam(splitSchema(t, 2, false), PART + "99999999999", "x")));
    m.add(new Mutation(Kind.PARTS, "schema part 2147483648", t -> withParam(splitSchema(t, 2, false), PART + "2147483648", "x")));
    m.add(new Mutation(Kind.PARTS, "schema part -1", t -> withParam(splitSchema(t, 2, false), PART + "-1", "x")));
    m.add(new Mutation(Kind.PARTS, "schema part 01", t -> withParam(splitSchema(t, 2, false), PART + "01", "x")));
    m.add(new Mutation(Kind.PARTS, "schema parts and whole schema", t -> splitSchema(t, 2, true)));
    m.add(new Mutation(Kind.PARTS, "numParts without parts", t -> withParam(withoutParam(t, SCHEMA), NUM_PARTS, "2")));
    m.add(new Mutation(Kind.PARTS, "parts without numParts", t -> withoutParam(splitSchema(t, 2, false), NUM_PARTS)));
    m.add(new Mutation(Kind.PARTS, "numParts 3 with 2 parts", t -> withParam(splitSchema(t, 2, false), NUM_PARTS, "3")));
    m.add(new Mutation(Kind.PARTS, "numParts 1 with 2 parts", t -> withParam(splitSchema(t, 2, false), NUM_PARTS, "1")));
    m.add(new Mutation(Kind.PARTS, "an empty part", t -> withParam(splitSchema(t, 3, false), PART + "1", "")));
    m.add(new Mutation(Kind.PARTS, "partCol.1 without numPartCols 2", t -> withParam(t, PART_COL + "1", "id")));
    m.add(new Mutation(Kind.PARTS, "partCol.0 missing", t -> withoutParam(withParam(t, NUM_PART_COLS, "1"), PART_COL + "0")));
    m.add(new Mutation(Kind.PARTS, "numPartCols 2 with partCol.0 and partCol.5", t -> withParam(withParam(t, NUM_PART_COLS, "2"), PART_COL + "5", "id")));

    // duplicate columns
    m.add(new Mutation(Kind.DUPLICATE, "duplicate column id", t -> withParam(t, SCHEMA,
        struct(field("id", "\"long\""), field("id", "\"string\""), field("day", "\"string\"")))));
    m.add(new Mutation(Kind.DUPLICATE, "duplicate column ID/id", t -> withParam(t, SCHEMA,
        struct(field("id", "\"long\""), field("ID", "\"string\""), field("day", "\"string\"")))));
    m.add(new Mutation(Kind.DUPLICATE, "duplicate partition column day", t -> withParam(withParam(t, NUM_PART_COLS, "2"),
        PART_COL + "1", "day")));
    m.add(new Mutation(Kind.DUPLICATE, "duplicate partition column day/DAY", t -> withParam(withParam(t, NUM_PART_COLS, "2"),
        PART_COL + "1", "DAY")));
    m.add(new Mutation(Kind.DUPLICATE, "duplicate partition column day with duplicate day column", t -> withParam(withParam(
        withParam(t, SCHEMA, struct(field("id", "\"long\""), field("day", "\"string\""), field("day", "\"date\""))),
        NUM_PART_COLS, "1"), PART_COL + "0", "day")));
    m.add(new Mutation(Kind.DUPLICATE, "partition column not in schema", t -> withParam(withParam(t, NUM_PART_COLS, "1"),
        PART_COL + "0", "nope")));
    m.add(new Mutation(Kind.DUPLICATE, "partition column DAY in other case", t -> withParam(withParam(t, NUM_PART_COLS, "1"),
        PART_COL + "0", "DAY")));
    m.add(new Mutation(Kind.DUPLICATE, "every column a partition column", t -> withParam(withParam(withParam(
        withParam(t, SCHEMA, struct(field("id", "\"long\""), field("day", "\"string\""))), NUM_PART_COLS, "2"),
        PART_COL + "0", "id"), PART_COL + "1", "day")));
    m.add(new Mutation(Kind.DUPLICATE, "duplicate Glue columns", t -> sd(t, s -> s.columns(col("id", "bigint"), col("id", "string")))));
    m.add(new Mutation(Kind.DUPLICATE, "duplicate nested field", t -> withParam(t, SCHEMA, struct(field("id", "\"long\""),
        field("s", struct(field("a", "\"integer\""), field("a", "\"string\""))), field("day", "\"string\"")))));

    // locations
    for (String v : List.of(dir + "/does/not/exist", dir + "/with space/t", "/abs/no/scheme", "relative/path",
        "::not a uri::", "hdfs://[bad/x", "foo://bucket/x", "s3://bucket/x", "gs://bucket/x", "file:", "file://",
        "%zz", dir + "/t-__PLACEHOLDER__", "jar:file:/x!/y", dir + "/a#frag", dir + "/a?q=1", "\\\\server\\share",
        "C:\\data\\t", "mailto:someone@example.com", "file:/" + "../".repeat(20) + "etc", dir + "/a%20b", "//host/x",
        "delta://x", " " + dir + "/padded ")) {
      m.add(new Mutation(Kind.LOCATION, "location " + abbreviate(v), t -> location(t, v)));
    }
    m.add(new Mutation(Kind.LOCATION, "path invalid, sd location valid", t -> serde(t, p -> p.put("path", "::not a uri::"))));
    m.add(new Mutation(Kind.LOCATION, "path missing, sd location a placeholder", t -> serde(sd(t,
        s -> s.location(dir + "/x-__PLACEHOLDER__")), p -> p.remove("path"))));

    // other engines' tables
    for (String v : List.of("VIRTUAL_VIEW", "MATERIALIZED_VIEW", "GOVERNED", "ICEBERG", "virtual_view")) {
      m.add(new Mutation(Kind.OTHER_ENGINE, "tableType " + v, t -> t.toBuilder().tableType(v).build()));
    }
    m.add(new Mutation(Kind.OTHER_ENGINE, "table_type ICEBERG", t -> withParam(withParam(t, "table_type", "ICEBERG"),
        "metadata_location", dir + "/metadata/00001.metadata.json")));
    m.add(new Mutation(Kind.OTHER_ENGINE, "table_type iceberg lower case", t -> withParam(t, "table_type", "iceberg")));
    m.add(new Mutation(Kind.OTHER_ENGINE, "table_type HUDI", t -> withParam(t, "table_type", "HUDI")));
    for (String v : List.of("hudi", "org.apache.spark.sql.parquet", "com.databricks.spark.csv", "unknown.provider.Class",
        "hive", "jdbc", "iceberg", "noop", "libsvm", "binaryFile", "rate", "console", "org.apache.spark.sql.delta.sources.DeltaDataSource")) {
      m.add(new Mutation(Kind.OTHER_ENGINE, PROVIDER_LABEL_PREFIX + v, t -> withParam(t, PROVIDER, v)));
    }
    m.add(new Mutation(Kind.OTHER_ENGINE, "Athena Hive SerDe table", t -> withoutParam(withParam(t, "classification", "csv"), PROVIDER)));
    m.add(new Mutation(Kind.OTHER_ENGINE, "Hive ACID table", t -> withoutParam(withParam(t, "transactional", "true"), PROVIDER)));
    m.add(new Mutation(Kind.OTHER_ENGINE, "resource link", t -> TableInput.builder().name(t.name())
        .targetTable(TableIdentifier.builder().catalogId("123456789012").databaseName("other").name("t").build()).build()));
    m.add(new Mutation(Kind.OTHER_ENGINE, "Lake Formation registered", t -> withParam(t, "IsRegisteredWithLakeFormation", "true")));
    m.add(new Mutation(Kind.OTHER_ENGINE, "Presto view text", t -> t.toBuilder().viewOriginalText("/* Presto View: e30= */")
        .viewExpandedText("/* Presto View */").build()));
    return Collections.unmodifiableList(m);
  }
}
