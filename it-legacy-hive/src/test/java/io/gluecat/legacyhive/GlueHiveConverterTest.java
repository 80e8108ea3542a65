package io.gluecat.legacyhive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Order;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.SkewedInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.TableInput;

/** The bridge's conversion, field by field, as docs/legacy-hive.md lists it. */
class GlueHiveConverterTest {

  private static Table hiveTable() {
    StorageDescriptor sd = new StorageDescriptor();
    sd.setCols(List.of(new FieldSchema("col", "array<string>", "from deserializer")));
    sd.setLocation("file:/w/db/t-__PLACEHOLDER__");
    sd.setInputFormat("org.apache.hadoop.mapred.SequenceFileInputFormat");
    sd.setOutputFormat("org.apache.hadoop.hive.ql.io.HiveSequenceFileOutputFormat");
    sd.setCompressed(false);
    sd.setNumBuckets(-1);
    SerDeInfo serde = new SerDeInfo("serde", "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe",
        Map.of("path", "file:/data/t", "serialization.format", "1"));
    sd.setSerdeInfo(serde);
    sd.setBucketCols(List.of());
    sd.setSortCols(List.of(new Order("id", 1)));
    sd.setParameters(Map.of("k", "v"));
    SkewedInfo skewed = new SkewedInfo(List.of("a", "b"), List.of(List.of("x", "y1")),
        Map.of(List.of("x", "y1"), "file:/skew"));
    sd.setSkewedInfo(skewed);
    sd.setStoredAsSubDirectories(false);
    Table t = new Table();
    t.setDbName("db");
    t.setTableName("t");
    t.setOwner("alice");
    t.setCreateTime(1_700_000_000);
    t.setLastAccessTime(1_700_000_100);
    t.setRetention(0);
    t.setSd(sd);
    t.setPartitionKeys(List.of(new FieldSchema("region", "string", null)));
    t.setParameters(Map.of("spark.sql.sources.provider", "delta", "EXTERNAL", "TRUE"));
    t.setTableType("EXTERNAL_TABLE");
    return t;
  }

  @Test
  void tableToGlueCarriesEveryFieldButCreateTime() {
    TableInput in = GlueHiveConverter.toTableInput(hiveTable());
    assertEquals("t", in.name());
    assertEquals("alice", in.owner());
    assertEquals("EXTERNAL_TABLE", in.tableType());
    assertEquals(0, in.retention());
    assertEquals(Instant.ofEpochSecond(1_700_000_100), in.lastAccessTime());
    assertEquals(List.of(Column.builder().name("region").type("string").build()), in.partitionKeys());
    assertEquals(Map.of("spark.sql.sources.provider", "delta", "EXTERNAL", "TRUE"), in.parameters());
    assertEquals("file:/w/db/t-__PLACEHOLDER__", in.storageDescriptor().location());
    assertEquals(-1, in.storageDescriptor().numberOfBuckets());
    assertEquals("file:/data/t", in.storageDescriptor().serdeInfo().parameters().get("path"));
    assertEquals("id", in.storageDescriptor().sortColumns().get(0).column());
    assertEquals(List.of("1$x2$y1"), in.storageDescriptor().skewedInfo().skewedColumnValues());
    assertEquals(Map.of("1$x2$y1", "file:/skew"), in.storageDescriptor().skewedInfo().skewedColumnValueLocationMaps());
  }

  @Test
  void tableRoundTripsThroughGlue() {
    Table hive = hiveTable();
    TableInput in = GlueHiveConverter.toTableInput(hive);
    software.amazon.awssdk.services.glue.model.Table glue = software.amazon.awssdk.services.glue.model.Table.builder()
        .name(in.name()).owner(in.owner()).tableType(in.tableType()).retention(in.retention())
        .lastAccessTime(in.lastAccessTime()).partitionKeys(in.partitionKeys()).parameters(in.parameters())
        .storageDescriptor(in.storageDescriptor()).createTime(Instant.ofEpochSecond(1_700_000_000)).build();
    assertEquals(hive, GlueHiveConverter.toHive(glue, "db"));
  }

  @Test
  void missingRetentionIsTheZeroGluecatWrote() {
    software.amazon.awssdk.services.glue.model.Table glue = software.amazon.awssdk.services.glue.model.Table.builder()
        .name("t").storageDescriptor(GlueHiveConverter.toGlue(hiveTable().getSd())).build();
    Table hive = GlueHiveConverter.toHive(glue, "db");
    assertEquals(0, hive.getRetention());
    assertEquals(0, hive.getCreateTime());
    assertEquals(Map.of(), hive.getParameters());
  }

  @Test
  void missingCompressedFailsAsInTheClient() {
    software.amazon.awssdk.services.glue.model.Table glue = software.amazon.awssdk.services.glue.model.Table.builder()
        .name("t").storageDescriptor(GlueHiveConverter.toGlue(hiveTable().getSd()).toBuilder().compressed(null).build())
        .build();
    assertThrows(NullPointerException.class, () -> GlueHiveConverter.toHive(glue, "db"));
  }

  @Test
  void databaseWithoutLocationReachesHiveWithAnEmptyOne() {
    Database hive = GlueHiveConverter.toHive(software.amazon.awssdk.services.glue.model.Database.builder()
        .name("bare").build());
    assertEquals("", hive.getLocationUri());
    assertEquals(Map.of(), hive.getParameters());
    assertEquals("file:/w/d", GlueHiveConverter.toDatabaseInput(new Database("d", "c", "file:/w/d", Map.of())).locationUri());
  }

  @Test
  void lengthPrefixedListsRoundTrip() {
    List<String> values = List.of("", "a$b", "12");
    assertEquals("0$3$a$b2$12", GlueHiveConverter.joinLengthPrefixed(values));
    assertEquals(values, GlueHiveConverter.splitLengthPrefixed(GlueHiveConverter.joinLengthPrefixed(values)));
  }
}
