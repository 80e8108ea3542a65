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
  static final String SCHEMA = "spark.sql.sources.schema";
  static final String PROVIDER = "spark.sql.sources.provider";
  static final String NUM_PARTS = SCHEMA + ".numParts";
  static final String PART = SCHEMA + ".part.";
  static final String NUM_PART_COLS = SCHEMA + ".numPartCols";
  static final String PART_COL = SCHEMA + ".partCol.";
  static final String LAZY = "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe";
  static final String SEQ_IN = "org.apache.hadoop.mapred.SequenceFileInputFormat";
  static final String SEQ_OUT = "org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat";

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

  /** Every single mutation, in a fixed order ({@link HostileMutations}). */
  public static List<Mutation> mutations(Locations at) {
    return HostileMutations.all(at);
  }

  // ------------------------------------------------------------------ helpers

  static TableInput entry(String name, Map<String, String> params, StorageDescriptor sd, List<Column> partitionKeys,
      String description) {
    return TableInput.builder().name(name).tableType("EXTERNAL_TABLE").description(description).retention(0)
        .parameters(params).storageDescriptor(sd).partitionKeys(partitionKeys).build();
  }

  static StorageDescriptor sd(String location, String path, String serde, String in, String out, List<Column> columns,
      Map<String, String> options) {
    Map<String, String> serdeParams = new LinkedHashMap<>(options);
    serdeParams.put("serialization.format", "1");
    serdeParams.put("path", path);
    return StorageDescriptor.builder().columns(columns).location(location).inputFormat(in).outputFormat(out)
        .compressed(false).numberOfBuckets(-1).storedAsSubDirectories(false)
        .serdeInfo(SerDeInfo.builder().serializationLibrary(serde).parameters(serdeParams).build()).build();
  }

  static Column col(String name, String type) {
    return Column.builder().name(name).type(type).build();
  }

  static Column placeholderColumn() {
    return Column.builder().name("col").type("array<string>").comment("from deserializer").build();
  }

  static String field(String name, String typeJson) {
    return "{\"name\":\"" + jsonEscape(name) + "\",\"type\":" + typeJson + ",\"nullable\":true,\"metadata\":{}}";
  }

  static String struct(String... fields) {
    return "{\"type\":\"struct\",\"fields\":[" + String.join(",", fields) + "]}";
  }

  static String jsonEscape(String s) {
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

  static String wideSchema(int fields) {
    StringBuilder b = new StringBuilder("{\"type\":\"struct\",\"fields\":[");
    for (int i = 0; i < fields; i++) {
      b.append(i == 0 ? "" : ",").append(field("c" + i, "\"string\""));
    }
    b.append(",").append(field("id", "\"long\"")).append(",").append(field("day", "\"string\""));
    return b.append("]}").toString();
  }

  static String deepStruct(int depth) {
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

  static String deepArray(int depth) {
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

  static String abbreviate(String s) {
    String shown = s.length() > 40 ? s.substring(0, 40) + "..." : s;
    return shown.replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t");
  }

  /** The schema JSON cut into {@code n} numbered parts (of {@code n} equal lengths, or of that many characters when n > 100). */
  static TableInput splitSchema(TableInput t, int n, boolean keepWhole) {
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

  static TableInput withParam(TableInput t, String key, String value) {
    Map<String, String> p = new LinkedHashMap<>(t.hasParameters() ? t.parameters() : Map.of());
    p.put(key, value);
    return t.toBuilder().parameters(p).build();
  }

  static TableInput withoutParam(TableInput t, String key) {
    Map<String, String> p = new LinkedHashMap<>(t.hasParameters() ? t.parameters() : Map.of());
    if (p.remove(key) == null) {
      throw new IllegalArgumentException("no " + key);
    }
    return t.toBuilder().parameters(p).build();
  }

  static TableInput sd(TableInput t, UnaryOperator<StorageDescriptor.Builder> change) {
    return t.toBuilder().storageDescriptor(change.apply(t.storageDescriptor().toBuilder()).build()).build();
  }

  interface MapChange {
    void apply(Map<String, String> map);
  }

  static TableInput serde(TableInput t, MapChange change) {
    SerDeInfo serde = t.storageDescriptor().serdeInfo();
    Map<String, String> p = new LinkedHashMap<>(serde.hasParameters() ? serde.parameters() : Map.of());
    change.apply(p);
    return sd(t, s -> s.serdeInfo(serde.toBuilder().parameters(p).build()));
  }

  /** Sets the location where the shape keeps it: the SerDe path, and the StorageDescriptor's unless a placeholder. */
  static TableInput location(TableInput t, String location) {
    TableInput withPath = serde(t, p -> p.put("path", location));
    String sdLocation = t.storageDescriptor().location();
    if (sdLocation != null && sdLocation.endsWith("-__PLACEHOLDER__")) {
      return withPath;
    }
    return sd(withPath, s -> s.location(location));
  }
}
