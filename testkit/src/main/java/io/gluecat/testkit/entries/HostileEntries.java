package io.gluecat.testkit.entries;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.UnaryOperator;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.TableIdentifier;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * Broken and odd Glue entries, derived from valid ones, for the reliability suites: a catalog reading a Glue
 * database shares it with crawlers, other engines, scripts and people, so every load must give a table or a
 * clear error naming the table, whatever the entry holds.
 *
 * <p>Five valid shapes ({@link Base}) are each put through every single mutation (missing and null fields,
 * wrong types, empty and 1 MB strings, non-ASCII and control characters, bad and deeply nested schema JSON,
 * schema parts out of order or range, duplicate columns, odd locations, other engines' table kinds), then
 * through pairs of mutations chosen with a fixed seed. The result is deterministic: the same list, in the
 * same order, with the same names, on every run. Mutations that change nothing are dropped, as are exact
 * duplicates.
 *
 * <p>No Spark and no gluecat classes are used: the entries are plain {@link TableInput}s, as any tool could
 * write them with the SDK.
 */
public final class HostileEntries {

  /** The valid entry shapes the mutations start from. */
  public enum Base {
    /** gluecat's own Delta entry: real columns and location, table_type=DELTA, a partition column. */
    GLUECAT_DELTA,
    /** A parquet table in the Hive-compatible form: real SerDe, columns, partition keys. */
    HIVE_PARQUET,
    /** A csv table in the Spark-specific form: one placeholder column and location, options as SerDe parameters. */
    SPARK_CSV,
    /** Trino's Delta connector's entry: provider DELTA in upper case, placeholder column, Trino's keys. */
    TRINO_DELTA,
    /** The entry Spark's Hive path writes for a Delta CTAS: empty schema, placeholder location, catalog partitions. */
    HIVE_PATH_DELTA_CTAS
  }

  /** What a mutation does, for sampling and reporting. */
  public enum Kind {
    MISSING, NULL, WRONG_TYPE, EMPTY, HUGE, NON_ASCII, CONTROL, BAD_SCHEMA, DEEP_SCHEMA, PARTS, DUPLICATE,
    LOCATION, OTHER_ENGINE, COMBINED
  }

  /** One generated entry; {@link #name()} is its Glue table name (lower case, unique within a list). */
  public record Entry(String name, Base base, Kind kind, String mutation, TableInput input) {
    @Override
    public String toString() {
      return name + " [" + base + " / " + kind + ": " + mutation + "]";
    }
  }

  /** One named change to an entry. */
  public record Mutation(Kind kind, String label, UnaryOperator<TableInput> change) {}

  /** Where the data of each base lives, and the database location placeholders sit under. */
  public record Locations(String delta, String parquet, String csv, String database) {
    String of(Base base) {
      switch (base) {
        case HIVE_PARQUET: return parquet;
        case SPARK_CSV: return csv;
        default: return delta;
      }
    }
  }

  /** Mutations a reader cannot do better on than reporting the table missing or refusing its provider. */
  public static final String PROVIDER_LABEL_PREFIX = "provider=";

  public static final int ONE_MB = 1 << 20;
  private static final long SEED = 20261201L;
  private static final String SCHEMA = "spark.sql.sources.schema";
  private static final String PROVIDER = "spark.sql.sources.provider";
  private static final String NUM_PARTS = SCHEMA + ".numParts";
  private static final String PART = SCHEMA + ".part.";
  private static final String NUM_PART_COLS = SCHEMA + ".numPartCols";
  private static final String PART_COL = SCHEMA + ".partCol.";
  private static final String LAZY = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
  private static final String SEQ_IN = "org.apache.hadoop.mapred.SequenceFileInputFormat";
  private static final String SEQ_OUT = "org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat";

  private HostileEntries() {}

  // ------------------------------------------------------------------ the valid shapes

  /** A valid entry of the given shape, named {@code name}, for data at the base's location. */
  public static TableInput base(Base base, String name, Locations at) {
    String location = at.of(base);
    String placeholder = at.database() + "/" + name + "-__PLACEHOLDER__";
    Map<String, String> params = new LinkedHashMap<>();
    params.put("EXTERNAL", "TRUE");
    switch (base) {
      case GLUECAT_DELTA:
        params.put(PROVIDER, "delta");
        params.put("spark.sql.create.version", "4.1.3");
        params.put("spark.sql.partitionProvider", "filesystem");
        params.put("table_type", "DELTA");
        params.put(SCHEMA, struct(field("id", "\"long\""), field("day", "\"string\"")));
        params.put(NUM_PART_COLS, "1");
        params.put(PART_COL + "0", "day");
        params.put("team", "finance");
        return entry(name, params, sd(location, location, LAZY, SEQ_IN, SEQ_OUT,
            List.of(col("id", "bigint"), col("day", "string")), Map.of()), List.of(), "Orders");
      case HIVE_PARQUET:
        params.put(PROVIDER, "parquet");
        params.put("spark.sql.create.version", "3.5.7");
        params.put("spark.sql.partitionProvider", "filesystem");
        params.put(SCHEMA, struct(field("id", "\"long\""), field("name", "\"string\""), field("day", "\"string\"")));
        params.put(NUM_PART_COLS, "1");
        params.put(PART_COL + "0", "day");
        return entry(name, params, sd(location, location, "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe",
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat",
            "org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat",
            List.of(col("id", "bigint"), col("name", "string")), Map.of("compression", "snappy")),
            List.of(col("day", "string")), null);
      case SPARK_CSV:
        params.put(PROVIDER, "csv");
        params.put("spark.sql.create.version", "4.1.3");
        params.put("spark.sql.partitionProvider", "filesystem");
        params.put(SCHEMA, struct(field("id", "\"integer\""), field("name", "\"string\"")));
        return entry(name, params, sd(placeholder, location, LAZY, SEQ_IN, SEQ_OUT,
            List.of(placeholderColumn()), Map.of("header", "true", "sep", ";")), List.of(), null);
      case TRINO_DELTA:
        params.put(PROVIDER, "DELTA");
        params.put("table_type", "DELTA");
        params.put("trino_version", "476");
        params.put("trino_query_id", "20261201_000000_00001_abcde");
        return entry(name, params, sd(location, location, LAZY, SEQ_IN, SEQ_OUT, List.of(placeholderColumn()),
            Map.of()), List.of(), null);
      case HIVE_PATH_DELTA_CTAS:
        params.put(PROVIDER, "delta");
        params.put("spark.sql.create.version", "4.1.0");
        params.put("spark.sql.partitionProvider", "catalog");
        params.put(SCHEMA, "{\"type\":\"struct\",\"fields\":[]}");
        return entry(name, params, sd(placeholder, location, LAZY, SEQ_IN, SEQ_OUT, List.of(placeholderColumn()),
            Map.of()), List.of(), null);
      default:
        throw new IllegalArgumentException(base.toString());
    }
  }

  // ------------------------------------------------------------------ generation

  /**
   * Every base through every single mutation, then pairs of mutations, until there are at least
   * {@code minimum} entries. Names are {@code <prefix><4 digits>}.
   */
  public static List<Entry> generate(String prefix, Locations at, int minimum) {
    List<Entry> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    List<Mutation> singles = mutations(at);
    int[] counter = {0};
    for (Base base : Base.values()) {
      for (Mutation m : singles) {
        add(out, seen, counter, prefix, base, m.kind(), m.label(), at, m.change());
      }
    }
    Random random = new Random(SEED);
    int attempts = 0;
    while (out.size() < minimum && attempts++ < minimum * 20) {
      Base base = Base.values()[random.nextInt(Base.values().length)];
      Mutation a = singles.get(random.nextInt(singles.size()));
      Mutation b = singles.get(random.nextInt(singles.size()));
      if (a == b) {
        continue;
      }
      add(out, seen, counter, prefix, base, Kind.COMBINED, a.label() + " + " + b.label(), at,
          t -> b.change().apply(a.change().apply(t)));
    }
    return Collections.unmodifiableList(out);
  }

  /**
   * A deterministic sample: up to {@code perKindAndBase} entries of each kind and base (spread over the
   * list, not just its first ones), so that every kind is represented.
   */
  public static List<Entry> sample(List<Entry> all, int perKindAndBase) {
    Map<Kind, Map<Base, List<Entry>>> groups = new EnumMap<>(Kind.class);
    for (Entry e : all) {
      groups.computeIfAbsent(e.kind(), k -> new EnumMap<>(Base.class))
          .computeIfAbsent(e.base(), b -> new ArrayList<>()).add(e);
    }
    List<Entry> out = new ArrayList<>();
    for (Map<Base, List<Entry>> byBase : groups.values()) {
      for (List<Entry> group : byBase.values()) {
        int n = Math.min(perKindAndBase, group.size());
        for (int i = 0; i < n; i++) {
          out.add(group.get((int) ((long) i * group.size() / n)));
        }
      }
    }
    return out;
  }

  private static void add(List<Entry> out, Set<String> seen, int[] counter, String prefix, Base base, Kind kind,
      String label, Locations at, UnaryOperator<TableInput> change) {
    String name = String.format("%s%04d", prefix, counter[0]);
    TableInput valid = base(base, name, at);
    TableInput mutated;
    try {
      mutated = change.apply(valid);
    } catch (RuntimeException e) {
      return; // a mutation that does not apply to this shape (e.g. splitting a schema the entry lacks)
    }
    if (mutated.equals(valid) || !seen.add(base + " " + label)) {
      return;
    }
    counter[0]++;
    out.add(new Entry(name, base, kind, label, mutated));
  }

  // ------------------------------------------------------------------ the mutations

  /** Every single mutation, in a fixed order. */
  public static List<Mutation> mutations(Locations at) {
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

  // ------------------------------------------------------------------ helpers

  private static TableInput entry(String name, Map<String, String> params, StorageDescriptor sd, List<Column> partitionKeys,
      String description) {
    return TableInput.builder().name(name).tableType("EXTERNAL_TABLE").description(description).retention(0)
        .parameters(params).storageDescriptor(sd).partitionKeys(partitionKeys).build();
  }

  private static StorageDescriptor sd(String location, String path, String serde, String in, String out, List<Column> columns,
      Map<String, String> options) {
    Map<String, String> serdeParams = new LinkedHashMap<>(options);
    serdeParams.put("serialization.format", "1");
    serdeParams.put("path", path);
    return StorageDescriptor.builder().columns(columns).location(location).inputFormat(in).outputFormat(out)
        .compressed(false).numberOfBuckets(-1).storedAsSubDirectories(false)
        .serdeInfo(SerDeInfo.builder().serializationLibrary(serde).parameters(serdeParams).build()).build();
  }

  private static Column col(String name, String type) {
    return Column.builder().name(name).type(type).build();
  }

  private static Column placeholderColumn() {
    return Column.builder().name("col").type("array<string>").comment("from deserializer").build();
  }

  static String field(String name, String typeJson) {
    return "{\"name\":\"" + jsonEscape(name) + "\",\"type\":" + typeJson + ",\"nullable\":true,\"metadata\":{}}";
  }

  static String struct(String... fields) {
    return "{\"type\":\"struct\",\"fields\":[" + String.join(",", fields) + "]}";
  }

  private static String jsonEscape(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '"' || c == '\\') {
        b.append('\\').append(c);
      } else if (c < 0x20) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  private static String wideSchema(int fields) {
    StringBuilder b = new StringBuilder("{\"type\":\"struct\",\"fields\":[");
    for (int i = 0; i < fields; i++) {
      b.append(i == 0 ? "" : ",").append(field("c" + i, "\"string\""));
    }
    b.append(",").append(field("id", "\"long\"")).append(",").append(field("day", "\"string\""));
    return b.append("]}").toString();
  }

  private static String deepStruct(int depth) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      b.append("{\"type\":\"struct\",\"fields\":[{\"name\":\"n\",\"type\":");
    }
    b.append("\"integer\"");
    for (int i = 0; i < depth; i++) {
      b.append(",\"nullable\":true,\"metadata\":{}}]}");
    }
    // the outermost struct is the schema; add the base's columns beside the nested one
    return "{\"type\":\"struct\",\"fields\":[" + field("id", "\"long\"") + "," + field("day", "\"string\"") + ","
        + "{\"name\":\"deep\",\"type\":" + b + ",\"nullable\":true,\"metadata\":{}}]}";
  }

  private static String deepArray(int depth) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < depth; i++) {
      b.append("{\"type\":\"array\",\"elementType\":");
    }
    b.append("\"integer\"");
    for (int i = 0; i < depth; i++) {
      b.append(",\"containsNull\":true}");
    }
    return struct(field("id", "\"long\""), field("day", "\"string\""), field("deep", b.toString()));
  }

  private static String abbreviate(String s) {
    String shown = s.length() > 40 ? s.substring(0, 40) + "..." : s;
    return shown.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
  }

  /** The schema JSON cut into {@code n} numbered parts (of {@code n} equal lengths, or of that many characters when n > 100). */
  private static TableInput splitSchema(TableInput t, int n, boolean keepWhole) {
    String json = t.parameters().get(SCHEMA);
    if (json == null || json.isEmpty()) {
      throw new IllegalArgumentException("no schema to split");
    }
    int size = n > 100 ? n : (json.length() + n - 1) / n;
    Map<String, String> p = new LinkedHashMap<>(t.parameters());
    if (!keepWhole) {
      p.remove(SCHEMA);
    }
    int parts = 0;
    for (int i = 0; i < json.length(); i += size) {
      p.put(PART + parts++, json.substring(i, Math.min(json.length(), i + size)));
    }
    p.put(NUM_PARTS, Integer.toString(parts));
    return t.toBuilder().parameters(p).build();
  }

  private static TableInput withParam(TableInput t, String key, String value) {
    Map<String, String> p = new LinkedHashMap<>(t.hasParameters() ? t.parameters() : Map.of());
    p.put(key, value);
    return t.toBuilder().parameters(p).build();
  }

  private static TableInput withoutParam(TableInput t, String key) {
    Map<String, String> p = new LinkedHashMap<>(t.hasParameters() ? t.parameters() : Map.of());
    if (p.remove(key) == null) {
      throw new IllegalArgumentException("no " + key);
    }
    return t.toBuilder().parameters(p).build();
  }

  private static TableInput sd(TableInput t, UnaryOperator<StorageDescriptor.Builder> change) {
    return t.toBuilder().storageDescriptor(change.apply(t.storageDescriptor().toBuilder()).build()).build();
  }

  private interface MapChange {
    void apply(Map<String, String> map);
  }

  private static TableInput serde(TableInput t, MapChange change) {
    SerDeInfo serde = t.storageDescriptor().serdeInfo();
    Map<String, String> p = new LinkedHashMap<>(serde.hasParameters() ? serde.parameters() : Map.of());
    change.apply(p);
    return sd(t, s -> s.serdeInfo(serde.toBuilder().parameters(p).build()));
  }

  /** Sets the location where the shape keeps it: the SerDe path, and the StorageDescriptor's unless a placeholder. */
  private static TableInput location(TableInput t, String location) {
    TableInput withPath = serde(t, p -> p.put("path", location));
    String sdLocation = t.storageDescriptor().location();
    if (sdLocation != null && sdLocation.endsWith("-__PLACEHOLDER__")) {
      return withPath;
    }
    return sd(withPath, s -> s.location(location));
  }
}
