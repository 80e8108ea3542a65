package io.gluecat.it;

import io.gluecat.DeltaCommittedButGlueFailedException;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.Fault;
import io.gluecat.testkit.GlueCallRecorder;
import io.gluecat.testkit.GlueFaults;
import io.gluecat.testkit.GlueSemantics;
import io.gluecat.testkit.entries.HostileEntries;
import io.gluecat.tools.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * gluecat's command-line tools (io.gluecat.tools.Main: doctor, repair, register) run in-process against
 * MiniStack, on entries seeded with direct Glue calls in the shapes each known writer leaves: gluecat's,
 * Spark's Hive path's, Trino's, other tools' and broken ones. One Delta table (written once by path) is
 * the data behind every Delta entry; the tools never write data.
 */
class ToolsIT extends MiniStackSparkTest {
  private static final StructType SCHEMA = new StructType().add("id", DataTypes.LongType)
      .add("name", DataTypes.StringType).add("day", DataTypes.StringType);
  private static String delta;      // a partitioned Delta table: id, name, day (4 rows)
  private static String emptyDir;   // a directory with no Delta table
  private static String databaseDir;

  @BeforeAll
  static void writeDeltaTable() {
    delta = newDirectory("delta");
    spark().sql("SELECT id, concat('n', id) AS name, IF(id % 2 = 0, 'even', 'odd') AS day FROM range(4)")
        .write().format("delta").partitionBy("day").mode("overwrite").save(delta);
    emptyDir = newDirectory("empty");
    databaseDir = newDirectory("dbs");
  }

  // ------------------------------------------------------------------ running the tool

  /** One run of the tool: exit code, stdout, stderr. */
  record Run(int code, String out, String err) {}

  private static Run tool(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    ministackOptions().forEach((k, v) -> {
      all.add("--conf");
      all.add(k + "=" + v);
    });
    return toolWithout(all.toArray(new String[0]));
  }

  private static Run toolWithout(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      code = Main.run(List.of(args), o, e);
    }
    return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  // ------------------------------------------------------------------ the seeded database

  private static String seededDatabase() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    HostileEntries.Locations at = new HostileEntries.Locations(delta, emptyDir, emptyDir, databaseDir);
    putEntry(db, "good_delta", "delta", SCHEMA, List.of("day"), delta, Map.of());
    create(db, withParameter(HostileEntries.base(HostileEntries.Base.HIVE_PATH_DELTA_CTAS, "hive_ctas", at),
        "owner_team", "finance"));
    create(db, HostileEntries.base(HostileEntries.Base.TRINO_DELTA, "trino_delta", at));
    putEntry(db, "out_of_sync", "delta", new StructType().add("id", DataTypes.LongType), List.of(), delta, Map.of());
    putEntry(db, "no_log", "delta", SCHEMA, List.of("day"), emptyDir, Map.of());
    putEntry(db, "path_differs", "delta", SCHEMA, List.of("day"), delta, Map.of());
    Table pd = glueTable(db, "path_differs");
    GLUE.updateTable(r -> r.databaseName(db).tableInput(input(pd).storageDescriptor(
        pd.storageDescriptor().toBuilder().location(emptyDir).build()).build()));
    putEntry(db, "path_wrong", "delta", SCHEMA, List.of("day"), delta, Map.of());
    Table pw = glueTable(db, "path_wrong");
    GLUE.updateTable(r -> r.databaseName(db).tableInput(input(pw).storageDescriptor(pw.storageDescriptor().toBuilder()
        .serdeInfo(pw.storageDescriptor().serdeInfo().toBuilder().parameters(Map.of("path", emptyDir)).build())
        .build()).build()));
    putEntry(db, "parts_missing", "delta", SCHEMA, List.of("day"), delta, Map.of());
    Table pm = glueTable(db, "parts_missing");
    Map<String, String> params = new LinkedHashMap<>(pm.parameters());
    String json = params.remove("spark.sql.sources.schema");
    params.put("spark.sql.sources.schema.numParts", "2");
    params.put("spark.sql.sources.schema.part.0", json.substring(0, 20));
    GLUE.updateTable(r -> r.databaseName(db).tableInput(input(pm).parameters(params).build()));
    putEntry(db, "csv_table", "csv", SCHEMA, List.of(), emptyDir, Map.of("header", "true"));
    putEntry(db, "parquet_table", "parquet", SCHEMA, List.of("day"), emptyDir, Map.of());
    create(db, TableInput.builder().name("hive_serde").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("classification", "parquet"))
        .storageDescriptor(StorageDescriptor.builder().location(emptyDir)
            .columns(col("id", "bigint"), col("ID", "bigint"))
            .inputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat")
            .outputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat")
            .serdeInfo(SerDeInfo.builder()
                .serializationLibrary("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe").build())
            .build()).build());
    create(db, TableInput.builder().name("iceberg_table").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("table_type", "ICEBERG", "metadata_location", emptyDir + "/metadata/00000.json"))
        .storageDescriptor(StorageDescriptor.builder().location(emptyDir).build()).build());
    // doctor checks that the metadata file is there (Iceberg's catalogs read it; doctor does not parse it)
    HiveFormatTablesIT.writeFile(databaseDir + "/iceberg_ok/metadata", "00001-a.metadata.json", "{}");
    create(db, TableInput.builder().name("iceberg_ok").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("table_type", "ICEBERG",
            "metadata_location", databaseDir + "/iceberg_ok/metadata/00001-a.metadata.json"))
        .storageDescriptor(StorageDescriptor.builder().location(emptyDir).build()).build());
    create(db, TableInput.builder().name("a_view").tableType("VIRTUAL_VIEW").viewOriginalText("/* Presto View */")
        .parameters(Map.of("presto_view", "true")).build());
    return db;
  }

  private static void create(String db, TableInput input) {
    GLUE.createTable(r -> r.databaseName(db).tableInput(input));
  }

  private static TableInput withParameter(TableInput input, String key, String value) {
    Map<String, String> params = new LinkedHashMap<>(input.parameters());
    params.put(key, value);
    return input.toBuilder().parameters(params).build();
  }

  /** The entry gluecat writes for a table (no partitions), not created: for tests that change it first. */
  private static TableInput entryOf(String db, String table, String provider, StructType schema, String location,
      Optional<String> comment) {
    TableDefinition definition = new TableDefinition(new TableName(db, table), provider, schema, List.of(), location,
        comment, Map.of(), Map.of());
    return new EntryWriter(spark().version(), EntryFormat.DEFAULT_SCHEMA_THRESHOLD)
        .newEntry(definition, Optional.empty(), Optional.empty());
  }

  private static Map<String, String> withKey(Map<String, String> map, String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(map);
    copy.put(key, value);
    return copy;
  }

  private static TableInput.Builder input(Table t) {
    return TableInput.builder().name(t.name()).tableType(t.tableType()).description(t.description())
        .retention(t.retention()).storageDescriptor(t.storageDescriptor()).partitionKeys(t.partitionKeys())
        .parameters(t.parameters());
  }

  private static Column col(String name, String type) {
    return Column.builder().name(name).type(type).build();
  }

  /** The row of {@code table} in doctor's aligned output, split on runs of spaces. */
  private static List<String> row(String output, String table) {
    return output.lines().filter(l -> l.startsWith(table + " ")).findFirst()
        .map(l -> List.of(l.split(" {2,}"))).orElseThrow(() -> new AssertionError("no row for " + table + ":\n" + output));
  }

  private static void assertRow(String output, String table, String kind, String gluecat, String trino, String athena,
      String hivePath, String codes) {
    assertEquals(List.of(table, kind, gluecat, trino, athena, hivePath, codes), row(output, table), output);
  }

  // ------------------------------------------------------------------ doctor

  @Test
  void doctorReportsEachEntryShape() {
    String db = seededDatabase();
    GlueCallRecorder.reset();
    Run run = tool("doctor", db);

    assertEquals(1, run.code(), run.out() + run.err());
    String out = run.out();
    System.out.println("doctor report (docs/operations.md shows it):\n" + out);
    // the application's Delta log store for S3 tables, with the single-driver store's warning
    assertTrue(out.contains("Delta commits to s3a:// locations use io.delta.storage.S3SingleDriverLogStore; it keeps "
        + "apart only writers in this JVM"), out);
    // and the fix it names only where this S3A can run it (not on Spark 4.0's Hadoop 3.4.1)
    assertEquals(io.gluecat.it.spark.S3AConditionalPut.available(),
        out.contains("Set spark.delta.logStore.s3a.impl=io.gluecat.logstore.ConditionalLogStore in every writer"), out);
    assertEquals(!io.gluecat.it.spark.S3AConditionalPut.available(), out.contains("io.gluecat.logstore.ConditionalLogStore, "
        + "which keeps them apart, cannot run here (S3A's conditional create, which it needs, came with Hadoop 3.4.2; "
        + "this is Hadoop " + org.apache.hadoop.util.VersionInfo.getVersion() + "): keep to one writing application per "
        + "table"), out);
    assertRow(out, "good_delta", "gluecat Delta", "yes", "yes", "yes", "yes", "-");
    assertRow(out, "hive_ctas", "Hive-path Delta", "yes", "yes", "no", "yes",
        "PLACEHOLDER_LOCATION,MISSING_TABLE_TYPE,PLACEHOLDER_SCHEMA");
    assertRow(out, "trino_delta", "Trino Delta", "yes", "yes", "yes", "yes", "PLACEHOLDER_SCHEMA");
    assertRow(out, "out_of_sync", "gluecat Delta", "yes", "yes", "yes", "yes", "COLUMNS_OUT_OF_SYNC");
    assertRow(out, "no_log", "gluecat Delta", "no", "no", "no", "no", "NO_DELTA_LOG");
    assertRow(out, "path_differs", "gluecat Delta", "yes", "yes", "no", "yes", "SERDE_PATH_DIFFERS");
    assertRow(out, "path_wrong", "gluecat Delta", "no", "no", "yes", "no", "SERDE_PATH_DIFFERS");
    assertRow(out, "parts_missing", "gluecat Delta", "no", "yes", "yes", "no", "SCHEMA_PARTS_MISSING");
    assertRow(out, "csv_table", "file source", "yes", "no", "no", "yes", "SPARK_SPECIFIC_FORM");
    assertRow(out, "parquet_table", "file source", "yes", "yes", "yes", "yes", "-");
    assertRow(out, "hive_serde", "Hive SerDe", "no", "yes", "yes", "yes", "CASE_ONLY_NAMES");
    // Iceberg entries: served by gluecat where Iceberg's Spark runtime is on the classpath (not on Spark 4.2)
    boolean iceberg = io.gluecat.iceberg.IcebergTables.AVAILABLE;
    assertRow(out, "iceberg_table", "Iceberg", "no", "no", "no", "no",
        iceberg ? "NO_ICEBERG_METADATA" : "NO_ICEBERG_METADATA,ICEBERG_NOT_SERVED");
    assertRow(out, "iceberg_ok", "Iceberg", iceberg ? "yes" : "no", "yes", "yes", "no",
        iceberg ? "-" : "ICEBERG_NOT_SERVED");
    assertEquals(!iceberg, out.contains("." + db + ".iceberg_ok is an Apache Iceberg table"), out);
    assertRow(out, "a_view", "view", "no", "-", "-", "-", "-");
    assertTrue(out.contains("out_of_sync: COLUMNS_OUT_OF_SYNC (repair fixes): Glue has (id bigint); the Delta log has "
        + "(id bigint, name string, day string)"), out);
    assertTrue(out.contains("14 tables in " + db + ", " + (iceberg ? 10 : 11) + " with problems, 6 repairable"), out);

    // one listing, no call per table
    assertEquals(1, GlueCallRecorder.callsOf("GetTables").size());
    assertEquals(List.of(), GlueCallRecorder.callsOf("GetTable"));
  }

  @Test
  void doctorJsonAndChosenTables() {
    String db = seededDatabase();
    Run run = tool("doctor", db, "good_delta", "trino_delta", "--json");
    assertEquals(1, run.code(), run.err());
    String json = run.out();
    assertTrue(json.contains("\"database\": \"" + db + "\""), json);
    assertTrue(json.contains("\"table\": \"good_delta\",\n      \"kind\": \"GLUECAT_DELTA\""), json);
    assertTrue(json.contains("\"kind\": \"TRINO_DELTA\",\n      \"readers\": {\n        \"gluecat\": \"yes\",\n"
        + "        \"trino\": \"yes\",\n        \"athena\": \"yes\",\n        \"hive-path\": \"yes\"\n      },\n"
        + "      \"problems\": [\n        {\n          \"code\": \"PLACEHOLDER_SCHEMA\",\n"
        + "          \"fixable\": true,"), json);
    assertTrue(json.contains("\"summary\": {\n    \"tables\": 2,\n    \"withProblems\": 1,\n    \"repairable\": 1\n  }"),
        json);
    assertFalse(json.contains("hive_ctas"), json);

    Run clean = tool("doctor", db, "good_delta", "parquet_table");
    assertEquals(0, clean.code(), clean.out());
    assertTrue(clean.out().contains("2 tables in " + db + ", 0 with problems"), clean.out());
  }

  // ------------------------------------------------------------------ doctor: the codes the seeded database has not

  /**
   * Comments over Glue's limits (2048 UTF-8 bytes for Description, 255 for a column comment), as a writer
   * that does not cut them leaves them: doctor names the field and its size, and repair cuts them as the
   * catalog's own writes do, at a character boundary, the Delta log keeping the whole comment.
   */
  @Test
  void commentTooLongIsReportedAndRepairCutsItAtACharacterBoundary() {
    String commented = newDirectory("commented");
    String tableComment = "a" + "\u00e9".repeat(1500); // 3001 UTF-8 bytes (é is 2)
    String columnComment = "x" + "\u20ac".repeat(100);  // 301 UTF-8 bytes (€ is 3)
    spark().sql("CREATE TABLE delta.`" + commented + "` (id BIGINT COMMENT '" + columnComment + "', name STRING) "
        + "USING delta COMMENT '" + tableComment + "'");
    StructType schema = new StructType().add("id", DataTypes.LongType, true, columnComment)
        .add("name", DataTypes.StringType);
    String db = newDatabase(databaseDir + "/" + unique("db"));
    TableInput longDescription = entryOf(db, "long_description", "delta", schema, commented, Optional.of(tableComment));
    create(db, longDescription.toBuilder().description(tableComment).build());
    TableInput longColumnComment = entryOf(db, "long_column_comment", "delta", schema, commented,
        Optional.of(tableComment));
    create(db, longColumnComment.toBuilder().storageDescriptor(longColumnComment.storageDescriptor().toBuilder()
        .columns(Column.builder().name("id").type("bigint").comment(columnComment).build(), col("name", "string"))
        .build()).build());

    Run run = tool("doctor", db);
    assertEquals(1, run.code(), run.out() + run.err());
    String out = run.out();
    assertRow(out, "long_description", "gluecat Delta", "yes", "yes", "yes", "yes", "COMMENT_TOO_LONG");
    assertRow(out, "long_column_comment", "gluecat Delta", "yes", "yes", "yes", "yes", "COMMENT_TOO_LONG");
    assertTrue(out.contains("long_description: COMMENT_TOO_LONG (repair fixes): Description has 3001 bytes (Glue's "
        + "limit is 2048)"), out);
    assertTrue(out.contains("long_column_comment: COMMENT_TOO_LONG (repair fixes): column id has a comment of 301 "
        + "bytes (Glue's limit is 255)"), out);
    assertTrue(out.contains("2 tables in " + db + ", 2 with problems, 2 repairable"), out);

    Run dry = tool("repair", db, "--dry-run");
    assertEquals(0, dry.code(), dry.out() + dry.err());
    assertTrue(dry.out().contains("long_column_comment: would change (COMMENT_TOO_LONG):\n"
        + "  StorageDescriptor.Columns.id.Comment: '" + columnComment + "' (301 bytes) -> '"
        + columnComment.substring(0, 85) + "' (253 bytes)\n"), dry.out());
    assertTrue(dry.out().contains("long_description: would change (COMMENT_TOO_LONG):\n"
        + "  Description: '" + tableComment.substring(0, 117) + "...' (3001 bytes) -> '"
        + tableComment.substring(0, 117) + "...' (2047 bytes)\n"), dry.out());
    assertTrue(dry.out().contains("would repair 2 of 2 tables"), dry.out());

    Run repair = tool("repair", db);
    assertEquals(0, repair.code(), repair.out() + repair.err());
    assertTrue(repair.out().contains("repaired 2 of 2 tables"), repair.out());
    for (String t : List.of("long_description", "long_column_comment")) {
      Table entry = glueTable(db, t);
      // the longest prefix within the limit: one more é (2 bytes) or € (3 bytes) would pass it
      assertEquals("a" + "\u00e9".repeat(1023), entry.description(), t);
      assertEquals("x" + "\u20ac".repeat(84), entry.storageDescriptor().columns().get(0).comment(), t);
      assertEquals(tableComment, entry.parameters().get("comment"), t + ": the whole comment stays in the parameters");
    }
    Run after = tool("doctor", db);
    assertEquals(0, after.code(), after.out());
    assertRow(after.out(), "long_description", "gluecat Delta", "yes", "yes", "yes", "yes", "-");
    assertRow(after.out(), "long_column_comment", "gluecat Delta", "yes", "yes", "yes", "yes", "-");
  }

  /**
   * A location the catalog's Hadoop settings cannot open (a scheme with no file system; a bucket the S3
   * endpoint does not have) is LOCATION_UNREACHABLE, not NO_DELTA_LOG: doctor cannot tell whether the table
   * is there, and repair leaves the entry alone.
   */
  @Test
  void locationUnreachableIsToldApartFromNoDeltaLog() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    putEntry(db, "local_scheme", "delta", SCHEMA, List.of("day"), "local:///warehouse/sales", Map.of());
    String bucket = unique("missing").replace('_', '-');
    putEntry(db, "missing_bucket", "delta", SCHEMA, List.of("day"), "s3a://" + bucket + "/sales", Map.of());
    putEntry(db, "no_log", "delta", SCHEMA, List.of("day"), emptyDir, Map.of());
    List<String> args = new ArrayList<>(List.of("doctor", db));
    MINISTACK.s3aSettings(bucket).forEach((k, v) -> args.addAll(List.of("--conf", "hadoop." + k + "=" + v)));

    Run run = tool(args.toArray(new String[0]));
    assertEquals(1, run.code(), run.out() + run.err());
    String out = run.out();
    assertRow(out, "local_scheme", "gluecat Delta", "no", "no", "no", "no", "LOCATION_UNREACHABLE");
    assertRow(out, "missing_bucket", "gluecat Delta", "no", "no", "no", "no", "LOCATION_UNREACHABLE");
    assertRow(out, "no_log", "gluecat Delta", "no", "no", "no", "no", "NO_DELTA_LOG");
    assertTrue(out.contains("local_scheme: LOCATION_UNREACHABLE: cannot open local:///warehouse/sales: gluecat "
        + "catalog 'glue': table local_scheme is at local:///warehouse/sales, but the catalog has no Hadoop file "
        + "system for the scheme 'local'."), out);
    assertTrue(out.contains("missing_bucket: LOCATION_UNREACHABLE: cannot open s3a://" + bucket + "/sales: "), out);
    assertTrue(out.contains("3 tables in " + db + ", 3 with problems, 0 repairable"), out);

    args.set(0, "repair");
    Run repair = tool(args.toArray(new String[0]));
    assertEquals(1, repair.code(), repair.out() + repair.err());
    assertTrue(repair.out().contains("local_scheme: not repaired: LOCATION_UNREACHABLE\n"), repair.out());
    assertTrue(repair.out().contains("missing_bucket: not repaired: LOCATION_UNREACHABLE\n"), repair.out());
    assertTrue(repair.out().contains("repaired 0 of 3 tables"), repair.out());
  }

  /**
   * A _delta_log Delta cannot read (a commit file that is not JSON) is the other LOCATION_UNREACHABLE:
   * reported with Delta's message, Spark's readers (gluecat, the Hive path) marked as not loading it, and no
   * exception out of the tool.
   */
  @Test
  void deltaLogThatDeltaCannotReadIsLocationUnreachable() throws IOException {
    String corrupt = newDirectory("corrupt");
    Path log = Files.createDirectories(Path.of(corrupt.substring("file:".length()), "_delta_log"));
    Files.writeString(log.resolve("00000000000000000000.json"), "{not json\n");
    String db = newDatabase(databaseDir + "/" + unique("db"));
    putEntry(db, "corrupt_log", "delta", SCHEMA, List.of("day"), corrupt, Map.of());

    Run run = tool("doctor", db);
    assertEquals(1, run.code(), run.out() + run.err());
    assertRow(run.out(), "corrupt_log", "gluecat Delta", "no", "yes", "yes", "no", "LOCATION_UNREACHABLE");
    assertTrue(run.out().contains("corrupt_log: LOCATION_UNREACHABLE: Delta could not read the log at " + corrupt
        + ": "), run.out());
    assertTrue(run.out().contains("1 tables in " + db + ", 1 with problems, 0 repairable"), run.out());

    Run repair = tool("repair", db);
    assertEquals(1, repair.code(), repair.out() + repair.err());
    assertTrue(repair.out().contains("corrupt_log: not repaired: LOCATION_UNREACHABLE\n"), repair.out());
  }

  /**
   * A _delta_log directory with no commit in it (a first write that never landed) holds no Delta table:
   * NO_DELTA_LOG, not "the Delta log has no columns" (COLUMNS_OUT_OF_SYNC), and repair leaves the entries'
   * columns alone, for a gluecat entry and for a Trino one with placeholder columns alike.
   */
  @Test
  void emptyDeltaLogIsNoDeltaLogAndRepairKeepsTheColumns() throws IOException {
    String emptyLog = newDirectory("emptylog");
    Files.createDirectories(Path.of(emptyLog.substring("file:".length()), "_delta_log"));
    String db = newDatabase(databaseDir + "/" + unique("db"));
    putEntry(db, "empty_log", "delta", SCHEMA, List.of("day"), emptyLog, Map.of());
    create(db, HostileEntries.base(HostileEntries.Base.TRINO_DELTA, "trino_empty_log",
        new HostileEntries.Locations(emptyLog, emptyDir, emptyDir, databaseDir)));
    Table before = glueTable(db, "empty_log");

    Run run = tool("doctor", db);
    assertEquals(1, run.code(), run.out() + run.err());
    assertRow(run.out(), "empty_log", "gluecat Delta", "no", "no", "no", "no", "NO_DELTA_LOG");
    assertTrue(run.out().contains("empty_log: NO_DELTA_LOG: " + emptyLog + " has a _delta_log, but Delta finds no "
        + "table in it (no commit)\n"), run.out());
    assertTrue(run.out().contains("2 tables in " + db + ", 2 with problems, 0 repairable"), run.out());

    Run repair = tool("repair", db);
    assertEquals(1, repair.code(), repair.out() + repair.err());
    assertTrue(repair.out().contains("empty_log: not repaired: NO_DELTA_LOG\n"), repair.out());
    assertTrue(repair.out().contains("trino_empty_log: not repaired: NO_DELTA_LOG\n"), repair.out());
    assertTrue(repair.out().contains("repaired 0 of 2 tables"), repair.out());
    assertEquals(before.versionId(), glueTable(db, "empty_log").versionId(), "the entry was not written");
    assertEquals("col", glueTable(db, "trino_empty_log").storageDescriptor().columns().get(0).name());
  }

  /**
   * A Hive SerDe entry (a crawler's shape: no provider, parquet SerDe) over a Delta table: doctor says to
   * register it as Delta; repair leaves it (not a Delta entry); dropping it and registering gives a clean entry.
   */
  @Test
  void hiveSerdeEntryOverADeltaTableIsNoProviderDeltaLog() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    create(db, TableInput.builder().name("crawled").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("classification", "parquet"))
        .partitionKeys(col("day", "string"))
        .storageDescriptor(StorageDescriptor.builder().location(delta)
            .columns(col("id", "bigint"), col("name", "string"))
            .inputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetInputFormat")
            .outputFormat("org.apache.hadoop.hive.ql.io.parquet.MapredParquetOutputFormat")
            .serdeInfo(SerDeInfo.builder()
                .serializationLibrary("org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe").build())
            .build()).build());

    Run run = tool("doctor", db);
    assertEquals(1, run.code(), run.out() + run.err());
    assertRow(run.out(), "crawled", "Hive SerDe", "no", "yes", "yes", "yes", "NO_PROVIDER_DELTA_LOG");
    assertTrue(run.out().contains("crawled: NO_PROVIDER_DELTA_LOG: the location " + delta + " holds a Delta table, "
        + "but the entry is a Hive SerDe table (a crawler's?): drop the entry and register the table with "
        + "'register'\n"), run.out());
    assertTrue(run.out().contains("1 tables in " + db + ", 1 with problems, 0 repairable"), run.out());

    Run repair = tool("repair", db);
    assertEquals(1, repair.code(), repair.out());
    assertTrue(repair.out().contains("crawled: not repaired: NO_PROVIDER_DELTA_LOG (Hive SerDe: repair rewrites "
        + "Delta entries only)"), repair.out());

    // what the detail says to do
    GLUE.deleteTable(r -> r.databaseName(db).name("crawled"));
    Run register = tool("register", db + ".crawled", delta);
    assertEquals(0, register.code(), register.out() + register.err());
    Run after = tool("doctor", db);
    assertEquals(0, after.code(), after.out());
    assertRow(after.out(), "crawled", "gluecat Delta", "yes", "yes", "yes", "yes", "-");
  }

  /** Entries gluecat's entry reader refuses: the row says which readers still load them, the detail why. */
  @Test
  void invalidEntryCarriesTheReadersMessage() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    putEntry(db, "bad_schema", "delta", SCHEMA, List.of("day"), delta, Map.of());
    Table bs = glueTable(db, "bad_schema");
    GLUE.updateTable(r -> r.databaseName(db).tableInput(input(bs).parameters(withKey(bs.parameters(),
        "spark.sql.sources.schema", "{\"type\":\"struct\",\"fields\":[")).build()));
    putEntry(db, "bad_partition", "parquet", SCHEMA, List.of("day"), emptyDir, Map.of());
    Table bp = glueTable(db, "bad_partition");
    GLUE.updateTable(r -> r.databaseName(db).tableInput(input(bp).parameters(withKey(bp.parameters(),
        "spark.sql.sources.schema.partCol.0", "month")).build()));
    create(db, TableInput.builder().name("no_provider").tableType("EXTERNAL_TABLE")
        .storageDescriptor(StorageDescriptor.builder().location(emptyDir).columns(col("id", "bigint")).build())
        .build());

    Run run = tool("doctor", db);
    assertEquals(1, run.code(), run.out() + run.err());
    String out = run.out();
    assertRow(out, "bad_schema", "gluecat Delta", "no", "yes", "yes", "no", "INVALID_ENTRY");
    assertRow(out, "bad_partition", "file source", "no", "yes", "yes", "no", "INVALID_ENTRY");
    assertRow(out, "no_provider", "unreadable", "no", "no", "no", "no", "INVALID_ENTRY");
    assertTrue(out.contains("bad_schema: INVALID_ENTRY: Table glue." + db + ".bad_schema has a schema "
        + "(spark.sql.sources.schema) that is not valid schema JSON: "), out);
    assertTrue(out.contains("bad_partition: INVALID_ENTRY: Table glue." + db + ".bad_partition names partition "
        + "column 'month', which is not in its schema (id, name, day)\n"), out);
    assertTrue(out.contains("no_provider: INVALID_ENTRY: no spark.sql.sources.provider and no SerDe: no reader can "
        + "tell what the table is\n"), out);
    assertTrue(out.contains("3 tables in " + db + ", 3 with problems, 0 repairable"), out);
  }

  /**
   * AWS Glue lower-cases table names, but MiniStack (like entries written around Glue's API) keeps them as
   * given: two names that differ only in case are one table to Spark.
   */
  @Test
  void tablesWhoseNamesDifferOnlyInCase() throws Exception {
    // Opts out of Glue's lower-case names: AWS Glue cannot hold "Events" next to "events", so the entries a
    // writer around Glue's API leaves (which doctor must report) exist only on the raw emulator.
    try (AutoCloseable keepCase = GlueSemantics.off(GlueSemantics.Behaviour.LOWER_CASE_NAMES)) {
      namesThatDifferOnlyInCaseAreReported();
    }
  }

  private void namesThatDifferOnlyInCaseAreReported() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    TableInput entry = entryOf(db, "events", "parquet", SCHEMA, emptyDir, Optional.empty());
    create(db, entry.toBuilder().name("Events").build());
    create(db, entry);
    create(db, entry.toBuilder().name("other").build());
    assertEquals(List.of("Events", "events", "other"), GLUE.getTables(r -> r.databaseName(db)).tableList().stream()
        .map(Table::name).sorted().collect(Collectors.toList()), "MiniStack keeps both names");

    Run run = tool("doctor", db);
    assertEquals(1, run.code(), run.out() + run.err());
    String out = run.out();
    assertRow(out, "Events", "file source", "yes", "yes", "yes", "yes", "CASE_ONLY_NAMES");
    assertRow(out, "events", "file source", "yes", "yes", "yes", "yes", "CASE_ONLY_NAMES");
    assertRow(out, "other", "file source", "yes", "yes", "yes", "yes", "-");
    assertTrue(out.contains("Events: CASE_ONLY_NAMES: tables whose names differ only in case: Events, events\n"), out);
    assertTrue(out.contains("events: CASE_ONLY_NAMES: tables whose names differ only in case: Events, events\n"), out);
    assertTrue(out.contains("3 tables in " + db + ", 2 with problems, 0 repairable"), out);
  }

  /** From 100 entries on, doctor says how far it is on stderr, every 50 tables and at the end; stdout is the report. */
  @Test
  void doctorShowsProgressOnStderrFromAHundredEntries() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    TableInput entry = entryOf(db, "t000", "parquet", SCHEMA, emptyDir, Optional.empty());
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      names.add(String.format("t%03d", i));
      create(db, entry.toBuilder().name(names.get(i)).build());
    }

    Run run = tool("doctor", db);
    assertEquals(0, run.code(), run.out() + run.err());
    assertEquals(List.of("doctor: " + db + ": 50 of 120 tables checked", "doctor: " + db + ": 100 of 120 tables checked",
        "doctor: " + db + ": 120 of 120 tables checked"), run.err().lines().collect(Collectors.toList()));
    assertRow(run.out(), "t000", "file source", "yes", "yes", "yes", "yes", "-");
    assertRow(run.out(), "t119", "file source", "yes", "yes", "yes", "yes", "-");
    assertFalse(run.out().contains("tables checked"), run.out());
    assertTrue(run.out().contains("120 tables in " + db + ", 0 with problems"), run.out());

    // 99 entries: no progress
    List<String> args = new ArrayList<>(List.of("doctor", db));
    args.addAll(names.subList(0, 99));
    Run fewer = tool(args.toArray(new String[0]));
    assertEquals(0, fewer.code(), fewer.out() + fewer.err());
    assertEquals("", fewer.err());
    assertTrue(fewer.out().contains("99 tables in " + db + ", 0 with problems"), fewer.out());
  }

  /**
   * A file table's entry written before gluecat wrote classification (parquet, csv), or with another value:
   * doctor reports MISSING_CLASSIFICATION, repair adds the crawler's value and changes nothing else; a text
   * table's entry takes none and a Delta entry none either.
   */
  @Test
  void missingClassificationIsReportedAndRepairAddsIt() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    String data = newDirectory("classified");
    spark().sql("SELECT id FROM range(3)").write().mode("overwrite").parquet(data);
    for (String[] t : new String[][] {{"old_parquet", "parquet", null}, {"old_csv", "csv", null},
        {"upper_orc", "orc", "ORC"}, {"old_text", "text", null}}) {
      TableInput entry = entryOf(db, t[0], t[1], new StructType().add("id", DataTypes.LongType), data,
          Optional.empty());
      Map<String, String> params = new LinkedHashMap<>(entry.parameters());
      params.remove(EntryFormat.CLASSIFICATION);
      if (t[2] != null) {
        params.put(EntryFormat.CLASSIFICATION, t[2]);
      }
      params.put("trino_version", "476");
      create(db, entry.toBuilder().parameters(params).build());
    }
    putEntry(db, "delta_table", "delta", SCHEMA, List.of("day"), delta, Map.of());

    Run run = tool("doctor", db);
    assertEquals(1, run.code(), run.out() + run.err());
    String out = run.out();
    assertRow(out, "old_parquet", "file source", "yes", "yes", "yes", "yes", "MISSING_CLASSIFICATION");
    assertRow(out, "old_csv", "file source", "yes", "no", "no", "yes", "SPARK_SPECIFIC_FORM,MISSING_CLASSIFICATION");
    assertRow(out, "upper_orc", "file source", "yes", "yes", "yes", "yes", "MISSING_CLASSIFICATION");
    assertRow(out, "old_text", "file source", "yes", "no", "no", "yes", "SPARK_SPECIFIC_FORM");
    assertRow(out, "delta_table", "gluecat Delta", "yes", "yes", "yes", "yes", "-");
    assertTrue(out.contains("old_parquet: MISSING_CLASSIFICATION (repair fixes): classification is not set; Glue "
        + "crawlers write 'parquet' for provider parquet\n"), out);
    assertTrue(out.contains("upper_orc: MISSING_CLASSIFICATION (repair fixes): classification is 'ORC'; Glue "
        + "crawlers write 'orc' for provider orc\n"), out);
    assertTrue(out.contains("5 tables in " + db + ", 4 with problems, 3 repairable"), out);

    Run dry = tool("repair", db, "--dry-run");
    assertEquals(1, dry.code(), dry.out() + dry.err()); // old_text's SPARK_SPECIFIC_FORM cannot be fixed
    List<String> lines = dry.out().lines().collect(Collectors.toList());
    int at = lines.indexOf("old_parquet: would change (MISSING_CLASSIFICATION):");
    assertTrue(at >= 0, dry.out());
    assertEquals("  Parameters.classification: (none) -> 'parquet'", lines.get(at + 1), dry.out());
    assertFalse(lines.get(at + 2).startsWith("  "), "the one change: " + dry.out());
    assertTrue(dry.out().contains("upper_orc: would change (MISSING_CLASSIFICATION):\n"
        + "  Parameters.classification: 'ORC' -> 'orc'\n"), dry.out());
    assertTrue(dry.out().contains("old_text: not repaired: SPARK_SPECIFIC_FORM (file source: repair only adds a "
        + "file table's classification)"), dry.out());
    assertTrue(dry.out().contains("would repair 3 of 5 tables"), dry.out());

    Table before = glueTable(db, "old_parquet");
    Run repair = tool("repair", db);
    assertEquals(1, repair.code(), repair.out() + repair.err());
    assertTrue(repair.out().contains("old_csv: repaired (MISSING_CLASSIFICATION)\n"
        + "  Parameters.classification: (none) -> 'csv'\nold_csv: still has SPARK_SPECIFIC_FORM\n"), repair.out());
    assertTrue(repair.out().contains("repaired 3 of 5 tables"), repair.out());

    Table after = glueTable(db, "old_parquet");
    Map<String, String> expected = new LinkedHashMap<>(before.parameters());
    expected.put(EntryFormat.CLASSIFICATION, "parquet");
    assertEquals(expected, after.parameters(), "only classification added; trino_version and the rest kept");
    assertEquals(before.storageDescriptor(), after.storageDescriptor());
    assertEquals("csv", glueTable(db, "old_csv").parameters().get(EntryFormat.CLASSIFICATION));
    assertEquals("orc", glueTable(db, "upper_orc").parameters().get(EntryFormat.CLASSIFICATION));
    assertFalse(glueTable(db, "old_text").parameters().containsKey(EntryFormat.CLASSIFICATION));
    assertFalse(glueTable(db, "delta_table").parameters().containsKey(EntryFormat.CLASSIFICATION));
    assertEquals(3L, spark().sql("SELECT * FROM " + newCatalog() + "." + db + ".old_parquet").count());

    Run clean = tool("doctor", db, "old_parquet", "upper_orc");
    assertEquals(0, clean.code(), clean.out());
  }

  // ------------------------------------------------------------------ repair

  @Test
  void repairMakesFixableEntriesLoadableAndKeepsForeignKeys() {
    String db = seededDatabase();
    String before = glueTable(db, "hive_ctas").versionId();
    GlueCallRecorder.reset();

    Run dry = tool("repair", db, "--dry-run");
    System.out.println("repair --dry-run (docs/operations.md shows it):\n" + dry.out());
    assertEquals(1, dry.code(), dry.out() + dry.err()); // some entries cannot be fixed
    assertTrue(dry.out().contains("hive_ctas: would change (MISSING_TABLE_TYPE,PLACEHOLDER_LOCATION,PLACEHOLDER_SCHEMA):"),
        dry.out());
    assertTrue(dry.out().contains("  StorageDescriptor.Location: '" + databaseDir + "/hive_ctas-__PLACEHOLDER__' -> '"
        + delta + "'"), dry.out());
    assertTrue(dry.out().contains("  StorageDescriptor.Columns: '(col array<string>)' -> '(id bigint, name string, day string)'"),
        dry.out());
    assertTrue(dry.out().contains("  Parameters.table_type: (none) -> 'DELTA'"), dry.out());
    assertTrue(dry.out().contains("no_log: not repaired: NO_DELTA_LOG"), dry.out());
    assertTrue(dry.out().contains("would repair 6 of 14 tables"), dry.out());
    assertEquals(before, glueTable(db, "hive_ctas").versionId(), "--dry-run wrote nothing");
    assertEquals(List.of(), GlueCallRecorder.callsOf("UpdateTable"));

    Run run = tool("repair", db);
    assertEquals(1, run.code(), run.out() + run.err());
    assertTrue(run.out().contains("repaired 6 of 14 tables"), run.out());

    Run after = tool("doctor", db, "good_delta", "hive_ctas", "trino_delta", "out_of_sync", "path_differs", "path_wrong", "parts_missing");
    assertEquals(0, after.code(), after.out());
    for (String t : List.of("hive_ctas", "trino_delta", "out_of_sync", "path_differs", "path_wrong", "parts_missing")) {
      assertRow(after.out(), t, row(after.out(), t).get(1), "yes", "yes", "yes", "yes", "-");
    }

    Table hive = glueTable(db, "hive_ctas");
    assertEquals("finance", hive.parameters().get("owner_team"));
    assertEquals("DELTA", hive.parameters().get("table_type"));
    assertEquals(delta, hive.storageDescriptor().location());
    assertEquals(delta, hive.storageDescriptor().serdeInfo().parameters().get("path"));
    assertEquals("4.1.0", hive.parameters().get("spark.sql.create.version"), "create version kept");
    assertEquals(delta, glueTable(db, "path_wrong").storageDescriptor().serdeInfo().parameters().get("path"));
    Table trino = glueTable(db, "trino_delta");
    assertEquals("20261201_000000_00001_abcde", trino.parameters().get("trino_query_id"));
    assertEquals("476", trino.parameters().get("trino_version"));
    assertEquals(List.of("id", "name", "day"),
        trino.storageDescriptor().columns().stream().map(Column::name).collect(Collectors.toList()));

    String catalog = newCatalog();
    for (String t : List.of("hive_ctas", "trino_delta", "parts_missing")) {
      assertEquals(List.of("[0,n0,even]", "[1,n1,odd]", "[2,n2,even]", "[3,n3,odd]"), strings(
          sql("SELECT id, name, day FROM " + catalog + "." + db + "." + t + " ORDER BY id")), t);
    }
    // the data was not touched: the Delta log has its one commit
    assertEquals(List.of("00000000000000000000.json"), logFiles(delta));
  }

  @Test
  void repairUnderAConcurrentUpdateFailsThatTableAndGoesOn() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    HostileEntries.Locations at = new HostileEntries.Locations(delta, emptyDir, emptyDir, databaseDir);
    create(db, HostileEntries.base(HostileEntries.Base.HIVE_PATH_DELTA_CTAS, "raced", at));
    create(db, HostileEntries.base(HostileEntries.Base.HIVE_PATH_DELTA_CTAS, "calm", at));

    // Another writer changes "raced" after repair read it and just before repair's update reaches Glue.
    AtomicBoolean changed = new AtomicBoolean();
    try (Fault.Handle h = GlueFaults.inject(Fault.glue("UpdateTable").when(c -> {
      if ("raced".equals(c.tableName()) && changed.compareAndSet(false, true)) {
        Table current = glueTable(db, "raced");
        GLUE.updateTable(r -> r.databaseName(db).tableInput(withParameter(input(current).build(), "changed_by", "other")));
      }
      return false; // no injected fault: Glue itself refuses the stale VersionId
    }).always().concurrentModification().build())) {
      Run run = tool("repair", db);
      assertEquals(1, run.code(), run.out() + run.err());
      assertTrue(run.out().contains("raced: CONCURRENT_CHANGE: the entry changed in Glue since repair read it; nothing "
          + "was written"), run.out());
      assertTrue(run.out().contains("calm: repaired"), run.out());
      assertTrue(run.out().contains("repaired 1 of 2 tables"), run.out());
    }
    assertTrue(changed.get());
    Table raced = glueTable(db, "raced");
    assertEquals("other", raced.parameters().get("changed_by"), "the concurrent change stands");
    assertEquals("col", raced.storageDescriptor().columns().get(0).name(), "repair wrote nothing over it");
    assertEquals("DELTA", glueTable(db, "calm").parameters().get("table_type"));

    Run again = tool("repair", db, "raced");
    assertEquals(0, again.code(), again.out());
    Table fixed = glueTable(db, "raced");
    assertEquals("other", fixed.parameters().get("changed_by"));
    assertEquals("DELTA", fixed.parameters().get("table_type"));
  }

  // ------------------------------------------------------------------ register

  @Test
  void registerAfterGlueFailedLeavesALoadableTable() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    String catalog = newCatalog();
    DeltaCommittedButGlueFailedException failure;
    try (Fault.Handle h = GlueFaults.inject(Fault.glue("CreateTable").always().accessDenied().build())) {
      failure = (DeltaCommittedButGlueFailedException) rootOf(assertThrows(Exception.class,
          () -> sql("CREATE TABLE " + catalog + "." + db + ".orders USING delta AS SELECT id, id * 2 AS total FROM range(3)")),
          DeltaCommittedButGlueFailedException.class);
    }
    assertTrue(GLUE.getTables(r -> r.databaseName(db)).tableList().isEmpty());

    Run run = tool("register", db + ".orders", failure.location());
    assertEquals(0, run.code(), run.out() + run.err());
    assertTrue(run.out().contains(db + ".orders: registered at " + failure.location()), run.out());
    assertEquals(List.of("[0,0]", "[1,2]", "[2,4]"),
        strings(sql("SELECT id, total FROM " + catalog + "." + db + ".orders ORDER BY id")));
    Table entry = glueTable(db, "orders");
    assertEquals("DELTA", entry.parameters().get("table_type"));
    assertEquals(List.of("id", "total"),
        entry.storageDescriptor().columns().stream().map(Column::name).collect(Collectors.toList()));

    // an existing entry is reported, never overwritten
    Run again = tool("register", db + ".orders", failure.location());
    assertEquals(0, again.code(), again.out());
    assertTrue(again.out().contains("already registered"), again.out());
    Run elsewhere = tool("register", db + ".orders", delta);
    assertEquals(1, elsewhere.code(), elsewhere.out());
    assertTrue(elsewhere.out().contains(db + ".orders: an entry exists (at " + failure.location() + "); entry left as it is"),
        elsewhere.out());
    assertEquals(entry.versionId(), glueTable(db, "orders").versionId());

    Run noTable = tool("register", db + ".nothing", emptyDir);
    assertEquals(1, noTable.code(), noTable.out());
    assertTrue(noTable.out().contains("has no _delta_log"), noTable.out());
  }

  @Test
  void registerScanCataloguesEveryDeltaTableUnderAPrefix() throws IOException {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    String lake = newDirectory("lake");
    copy(Path.of(delta.substring("file:".length())), Path.of(lake.substring("file:".length()), "sales", "orders"));
    copy(Path.of(delta.substring("file:".length())), Path.of(lake.substring("file:".length()), "returns"));
    Files.createDirectories(Path.of(lake.substring("file:".length()), "not_delta"));

    Run run = tool("register", db, "--scan", lake);
    assertEquals(0, run.code(), run.out() + run.err());
    assertTrue(run.out().contains("2 Delta tables under " + lake + ", 2 registered in " + db), run.out());
    String catalog = newCatalog();
    assertEquals(List.of("[4]"), strings(sql("SELECT count(*) FROM " + catalog + "." + db + ".orders")));
    assertEquals(lake + "/returns", glueTable(db, "returns").storageDescriptor().location());

    Run doctor = tool("doctor", db);
    assertEquals(0, doctor.code(), doctor.out());
  }

  /**
   * repair --partitions brings a partitioned parquet table's Glue partitions in line with its directories
   * after a write gluecat did not see (another job's files); with --dry-run it only says what it would do.
   */
  @Test
  void repairPartitionsSyncsGluePartitionsWithTheDirectories() {
    String db = newDatabase(databaseDir + "/" + unique("db"));
    String catalog = newCatalog();
    sql("CREATE TABLE " + catalog + "." + db + ".events USING parquet PARTITIONED BY (day) AS "
        + "SELECT id, IF(id % 2 = 0, 'even', 'odd') AS day FROM range(4)");
    spark().range(9, 10).selectExpr("id").write().parquet(
        GLUE.getTable(r -> r.databaseName(db).name("events")).table().storageDescriptor().location() + "/day=extra");
    assertEquals(List.of("[even]", "[odd]"), gluePartitions(db, "events"));

    Run dryRun = tool("repair", db, "events", "--partitions", "--dry-run");
    assertEquals(0, dryRun.code(), dryRun.out() + dryRun.err());
    assertTrue(dryRun.out().contains("events: partitions: 3 directories, would create 1 and would delete 0"),
        dryRun.out());
    assertEquals(List.of("[even]", "[odd]"), gluePartitions(db, "events"));

    Run repair = tool("repair", db, "events", "--partitions");
    assertEquals(0, repair.code(), repair.out() + repair.err());
    assertTrue(repair.out().contains("events: partitions: 3 directories, created 1 and deleted 0"), repair.out());
    assertEquals(List.of("[even]", "[extra]", "[odd]"), gluePartitions(db, "events"));
  }

  private static List<String> gluePartitions(String db, String table) {
    return GLUE.getPartitions(r -> r.databaseName(db).tableName(table)).partitions().stream()
        .map(p -> p.values().toString()).sorted().collect(Collectors.toList());
  }

  // ------------------------------------------------------------------ usage and access errors

  @Test
  void usageAndAccessErrorsExitTwo() throws IOException {
    Run none = toolWithout();
    assertEquals(2, none.code());
    assertTrue(none.err().contains("usage: gluecat <command>"), none.err());

    Run unknown = tool("diagnose", "x");
    assertEquals(2, unknown.code());
    assertTrue(unknown.err().contains("unknown command 'diagnose'"), unknown.err());

    Run noDatabase = tool("doctor");
    assertEquals(2, noDatabase.code());
    assertTrue(noDatabase.err().contains("doctor: name a database"), noDatabase.err());

    Run badOption = toolWithout("doctor", "x", "--conf", "region=nowhere");
    assertEquals(2, badOption.code());
    assertTrue(badOption.err().contains("option region (spark.sql.catalog.glue.region) 'nowhere' must be an AWS region"),
        badOption.err());

    Run unknownOption = toolWithout("doctor", "x", "--conf", "glue.idd=123456789012");
    assertEquals(2, unknownOption.code());
    assertTrue(unknownOption.err().contains("unknown option 'glue.idd'"), unknownOption.err());

    Run missing = tool("doctor", "no_such_database_here");
    assertEquals(2, missing.code());
    assertTrue(missing.err().contains("database 'no_such_database_here' does not exist in Glue"), missing.err());

    String db = newDatabase(databaseDir + "/" + unique("db"));
    try (Fault.Handle h = GlueFaults.inject(Fault.glue("GetTables").always().accessDenied().build())) {
      Run denied = tool("doctor", db);
      assertEquals(2, denied.code());
      assertTrue(denied.err().contains("cannot list the tables of database '" + db + "'"), denied.err());
    }

    Run noTable = tool("doctor", db, "ghost");
    assertEquals(2, noTable.code());
    assertTrue(noTable.err().contains("no table ghost in database '" + db + "'"), noTable.err());

    // the same options from a Spark properties file
    Path file = Files.createTempFile("gluecat-tools", ".conf");
    StringBuilder conf = new StringBuilder("spark.sql.catalog.lake   io.gluecat.GlueCatalog\n");
    ministackOptions().forEach((k, v) -> conf.append("spark.sql.catalog.lake.").append(k).append(" = ").append(v).append('\n'));
    Files.writeString(file, conf.toString());
    Run fromFile = toolWithout("doctor", db, "--properties-file", file.toString());
    assertEquals(0, fromFile.code(), fromFile.out() + fromFile.err());
    assertTrue(fromFile.out().contains("0 tables in " + db), fromFile.out());
    Run wrongName = toolWithout("doctor", db, "--properties-file", file.toString(), "--catalog", "other");
    assertEquals(2, wrongName.code());
    assertTrue(wrongName.err().contains("has no spark.sql.catalog.other.* settings"), wrongName.err());
  }

  // ------------------------------------------------------------------ helpers

  private static Throwable rootOf(Throwable e, Class<?> type) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (type.isInstance(t)) {
        return t;
      }
    }
    throw new AssertionError("no " + type.getSimpleName() + " in", e);
  }

  private static List<String> strings(List<Row> rows) {
    return rows.stream().map(Row::toString).collect(Collectors.toList());
  }

  private static List<String> logFiles(String location) {
    try (Stream<Path> files = Files.list(Path.of(location.substring("file:".length()), "_delta_log"))) {
      return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).sorted()
          .collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
  }
}
