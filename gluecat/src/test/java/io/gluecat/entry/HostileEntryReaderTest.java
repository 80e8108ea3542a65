package io.gluecat.entry;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.testkit.entries.HostileEntries;
import io.gluecat.testkit.entries.HostileEntries.Entry;
import io.gluecat.testkit.entries.HostileEntries.Kind;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * The cheap layer of the hostile-entry suite: every generated entry (at least 1,000, derived from five valid
 * shapes) goes through EntryReader, which must return an entry or refuse it with an InvalidGlueEntryException
 * naming the table; never another exception. HostileEntriesIT loads a sample of the same entries through
 * Spark on MiniStack.
 */
class HostileEntryReaderTest {
  static final HostileEntries.Locations AT = new HostileEntries.Locations("s3://lake/sales/orders",
      "s3://lake/sales/events", "s3://lake/sales/people", "s3://lake/sales");
  static final int MINIMUM = 1_200;

  static Table stored(TableInput in) {
    return Table.builder().name(in.name()).databaseName("sales").description(in.description()).owner(in.owner())
        .retention(in.retention()).storageDescriptor(in.storageDescriptor()).partitionKeys(in.partitionKeys())
        .tableType(in.tableType()).parameters(in.parameters()).targetTable(in.targetTable() == null ? null
            : software.amazon.awssdk.services.glue.model.TableIdentifier.builder()
                .catalogId(in.targetTable().catalogId()).databaseName(in.targetTable().databaseName())
                .name(in.targetTable().name()).build())
        .viewOriginalText(in.viewOriginalText()).viewExpandedText(in.viewExpandedText()).versionId("1").build();
  }

  @Test
  void everyHostileEntryReadsOrIsRefusedByName() {
    List<Entry> entries = HostileEntries.generate("h", AT, MINIMUM);
    assertTrue(entries.size() >= 1_000, "entries: " + entries.size());
    Map<Kind, int[]> outcomes = new EnumMap<>(Kind.class); // [read, refused]
    List<String> failures = new ArrayList<>();
    for (Entry e : entries) {
      Table table = stored(e.input());
      int[] counts = outcomes.computeIfAbsent(e.kind(), k -> new int[2]);
      try {
        if (EntryReader.isView(table)) {
          io.gluecat.entry.ViewFormat.read("glue", "sales", table); // views read through their own format
          counts[0]++;
          continue;
        }
        GlueEntry read = EntryReader.read("glue", "sales", table);
        // what the catalog does next with a read entry must not fail either
        new org.apache.hadoop.fs.Path(read.location()).toUri();
        counts[0]++;
      } catch (InvalidGlueEntryException refused) {
        counts[1]++;
        if (!refused.getMessage().contains("glue.sales." + e.name())) {
          failures.add(e + ": does not name the table: " + refused.getMessage());
        }
        if (refused.getMessage().length() > 2_000) {
          failures.add(e + ": message of " + refused.getMessage().length() + " characters");
        }
      } catch (Throwable t) {
        failures.add(e + ": " + t);
      }
    }
    StringBuilder summary = new StringBuilder("hostile entries: " + entries.size() + " (kind: read/refused)");
    outcomes.forEach((k, c) -> summary.append(' ').append(k).append(": ").append(c[0]).append('/').append(c[1]));
    System.out.println(summary);
    assertEquals(List.of(), failures, failures.size() + " of " + entries.size() + " entries");
    for (Kind kind : Kind.values()) {
      assertTrue(outcomes.containsKey(kind), "no entry of kind " + kind);
    }
    // Both outcomes occur: the generator keeps valid oddities (which must read) beside broken entries.
    int read = outcomes.values().stream().mapToInt(c -> c[0]).sum();
    int refused = outcomes.values().stream().mapToInt(c -> c[1]).sum();
    assertTrue(read > 100 && refused > 100, "read " + read + ", refused " + refused);
  }

  @Test
  void theGeneratorIsDeterministic() {
    List<Entry> first = HostileEntries.generate("h", AT, MINIMUM);
    List<Entry> second = HostileEntries.generate("h", AT, MINIMUM);
    assertEquals(first.size(), second.size());
    for (int i = 0; i < first.size(); i++) {
      assertEquals(first.get(i).name(), second.get(i).name());
      assertEquals(first.get(i).mutation(), second.get(i).mutation());
      assertEquals(first.get(i).input(), second.get(i).input(), first.get(i).toString());
    }
  }

  // ---- the raw errors of issue #12, one by one ----

  private static Table valid(HostileEntries.Base base) {
    return stored(HostileEntries.base(base, "orders", AT));
  }

  private static Table withParameters(Table t, Map<String, String> changes) {
    Map<String, String> p = new java.util.LinkedHashMap<>(t.parameters());
    changes.forEach((k, v) -> {
      if (v == null) {
        p.remove(k);
      } else {
        p.put(k, v);
      }
    });
    return t.toBuilder().parameters(p).build();
  }

  private static void assertRefused(Table t, String... fragments) {
    InvalidGlueEntryException e = assertThrows(InvalidGlueEntryException.class, () -> EntryReader.read("glue", "sales", t));
    for (String f : fragments) {
      assertTrue(e.getMessage().contains(f), "expected '" + f + "' in: " + e.getMessage());
    }
  }

  @Test
  void aSchemaPartNumberBeyondAnIntIsRefusedByName() {
    Table t = valid(HostileEntries.Base.GLUECAT_DELTA);
    String json = t.parameters().get("spark.sql.sources.schema");
    Map<String, String> p = new java.util.LinkedHashMap<>();
    p.put("spark.sql.sources.schema", null);
    p.put("spark.sql.sources.schema.numParts", "1");
    p.put("spark.sql.sources.schema.part.0", json);
    p.put("spark.sql.sources.schema.part.99999999999", "x");
    assertRefused(withParameters(t, p), "glue.sales.orders", "spark.sql.sources.schema.part.99999999999",
        "out of range");
  }

  @Test
  void locationsThatAreNotURIsAreRefusedByName() {
    for (String location : List.of("::not a uri::", "hdfs://[bad/x")) {
      Table t = valid(HostileEntries.Base.HIVE_PARQUET);
      Map<String, String> serde = new java.util.LinkedHashMap<>(t.storageDescriptor().serdeInfo().parameters());
      serde.put("path", location);
      Table bad = t.toBuilder().storageDescriptor(t.storageDescriptor().toBuilder()
          .serdeInfo(t.storageDescriptor().serdeInfo().toBuilder().parameters(serde).build()).build()).build();
      assertRefused(bad, "glue.sales.orders", "not a valid URI", location);
    }
    Table t = valid(HostileEntries.Base.GLUECAT_DELTA);
    Map<String, String> serde = new java.util.LinkedHashMap<>(t.storageDescriptor().serdeInfo().parameters());
    serde.put("path", "relative/dir");
    assertRefused(t.toBuilder().storageDescriptor(t.storageDescriptor().toBuilder()
        .serdeInfo(t.storageDescriptor().serdeInfo().toBuilder().parameters(serde).build()).build()).build(),
        "glue.sales.orders", "relative location", "relative/dir");
  }

  @Test
  void aLocationWithSpacesReads() {
    Table t = valid(HostileEntries.Base.HIVE_PARQUET);
    Map<String, String> serde = new java.util.LinkedHashMap<>(t.storageDescriptor().serdeInfo().parameters());
    serde.put("path", "s3://lake/with space/t");
    GlueEntry e = EntryReader.read("glue", "sales", t.toBuilder().storageDescriptor(t.storageDescriptor().toBuilder()
        .serdeInfo(t.storageDescriptor().serdeInfo().toBuilder().parameters(serde).build()).build()).build());
    assertEquals("s3://lake/with space/t", e.location());
  }

  @Test
  void aPartitionColumnNamedTwiceIsReportedAsSuch() {
    Table t = withParameters(valid(HostileEntries.Base.HIVE_PARQUET), Map.of(
        "spark.sql.sources.schema.numPartCols", "2", "spark.sql.sources.schema.partCol.1", "DAY"));
    assertRefused(t, "glue.sales.orders", "partition column 'DAY' twice");
  }

  @Test
  void aDuplicateColumnInANonDeltaSchemaIsRefusedNotDeduplicated() {
    String dup = "{\"type\":\"struct\",\"fields\":[{\"name\":\"id\",\"type\":\"long\",\"nullable\":true,\"metadata\":{}},"
        + "{\"name\":\"name\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}},"
        + "{\"name\":\"Name\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}},"
        + "{\"name\":\"day\",\"type\":\"string\",\"nullable\":true,\"metadata\":{}}]}";
    assertRefused(withParameters(valid(HostileEntries.Base.HIVE_PARQUET), Map.of("spark.sql.sources.schema", dup)),
        "glue.sales.orders", "column 'Name' more than once");
    assertRefused(withParameters(valid(HostileEntries.Base.SPARK_CSV), Map.of("spark.sql.sources.schema", dup)),
        "glue.sales.orders", "column 'Name' more than once");
    // Delta reads its schema from the log; the Glue copy's duplicates do not matter to it
    EntryReader.read("glue", "sales", withParameters(valid(HostileEntries.Base.GLUECAT_DELTA),
        Map.of("spark.sql.sources.schema", dup)));
  }

  @Test
  void aSchemaNestedTooDeeplyIsRefusedByName() {
    StringBuilder deep = new StringBuilder();
    int depth = 50_000;
    for (int i = 0; i < depth; i++) {
      deep.append("{\"type\":\"array\",\"elementType\":");
    }
    deep.append("\"integer\"");
    for (int i = 0; i < depth; i++) {
      deep.append(",\"containsNull\":true}");
    }
    String json = "{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":" + deep
        + ",\"nullable\":true,\"metadata\":{}}]}";
    assertRefused(withParameters(valid(HostileEntries.Base.HIVE_PARQUET), Map.of("spark.sql.sources.schema", json)),
        "glue.sales.orders", "spark.sql.sources.schema");
  }

  @Test
  void aResourceLinkIsRefusedByName() {
    Table link = Table.builder().name("orders").databaseName("sales").targetTable(t -> t.catalogId("123456789012")
        .databaseName("other").name("target")).build();
    assertRefused(link, "glue.sales.orders", "resource link", "other.target", "123456789012");
  }
}
