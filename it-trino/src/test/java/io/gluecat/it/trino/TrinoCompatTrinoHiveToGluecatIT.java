package io.gluecat.it.trino;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.testkit.compat.CompatCase;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * Trino's Hive connector creates Hive-format tables in each of its write formats, partitioned and not, on its
 * native local file system, and inserts rows into them; gluecat loads the entries (no
 * {@code spark.sql.sources.provider}: SerDe, input format and Glue partition objects as Trino wrote them) and reads
 * the same rows (issue 24). Named mode here; the session-mode subclass runs the same cases with gluecat as
 * spark_catalog.
 */
class TrinoCompatTrinoHiveToGluecatIT extends TrinoCompatTest {

  /** The first rows (CREATE TABLE AS SELECT): id, name, amount, day, ts, flag, region. */
  private static final String FIRST_ROWS = "(1, 'ann', '12.50', '2024-01-02', '2024-01-02 03:04:05.678', true, 'eu'), "
      + "(2, NULL, '3.25', '2024-02-29', '2024-02-29 23:59:59.000', false, 'us')";
  /** The rows of the later INSERT: one into an existing partition, one into a new one; a value with ',' and '"'. */
  private static final String LATER_ROWS = "(3, 'c, \"d\"', '0.01', '2023-12-31', '2023-12-31 00:00:00.001', NULL, "
      + "'apac'), (4, 'dee', '-7.00', '2024-03-01', '2024-03-01 12:00:00.500', true, 'eu')";
  /** What Spark shows of all four rows, by id. */
  private static final List<String> ALL_ROWS = List.of(
      "[1,ann,12.50,2024-01-02,2024-01-02 03:04:05.678,true,eu]",
      "[2,null,3.25,2024-02-29,2024-02-29 23:59:59.0,false,us]",
      "[3,c, \"d\",0.01,2023-12-31,2023-12-31 00:00:00.001,null,apac]",
      "[4,dee,-7.00,2024-03-01,2024-03-01 12:00:00.5,true,eu]");
  /**
   * The same of the varchar-only CSV tables: the values as Trino wrote them. Trino writes a null as an empty unquoted
   * field, which OpenCSVSerde, Trino and gluecat read back as an empty string, and a quote inside a value doubled.
   */
  private static final List<String> ALL_ROWS_AS_VARCHAR = List.of(
      "[1,ann,12.50,2024-01-02,2024-01-02 03:04:05.678,true,eu]",
      "[2,,3.25,2024-02-29,2024-02-29 23:59:59.000,false,us]",
      "[3,c, \"d\",0.01,2023-12-31,2023-12-31 00:00:00.001,,apac]",
      "[4,dee,-7.00,2024-03-01,2024-03-01 12:00:00.500,true,eu]");

  private String hiveName(String table) {
    return TRINO_HIVE + "." + db + "." + table;
  }

  @Test
  @CompatCase(id = "trino-hive-orc-read", writer = "trino-hive", reader = "gluecat",
      title = "ORC tables (partitioned and not) Trino's Hive connector created and inserted into: every row")
  void gluecatReadsOrc() {
    readsWhatTrinoWrote("ORC", "org.apache.hadoop.hive.ql.io.orc.OrcSerde");
  }

  @Test
  @CompatCase(id = "trino-hive-parquet-read", writer = "trino-hive", reader = "gluecat",
      title = "PARQUET tables (partitioned and not) Trino's Hive connector created and inserted into: every row")
  void gluecatReadsParquet() {
    readsWhatTrinoWrote("PARQUET", "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe");
  }

  @Test
  @CompatCase(id = "trino-hive-textfile-read", writer = "trino-hive", reader = "gluecat",
      title = "TEXTFILE tables (partitioned and not) Trino's Hive connector created and inserted into: every row")
  void gluecatReadsTextfile() {
    readsWhatTrinoWrote("TEXTFILE", "org.apache.hadoop.hive.serde2.lazy.LazySimpleSerDe");
  }

  @Test
  @CompatCase(id = "trino-hive-csv-read", writer = "trino-hive", reader = "gluecat",
      title = "CSV tables (all columns varchar; partitioned and not) Trino's Hive connector created and inserted "
          + "into: every row")
  void gluecatReadsCsv() {
    readsWhatTrinoWrote("CSV", "org.apache.hadoop.hive.serde2.OpenCSVSerde");
  }

  @Test
  @CompatCase(id = "trino-hive-json-read", writer = "trino-hive", reader = "gluecat",
      title = "JSON tables (partitioned and not) Trino's Hive connector created and inserted into: every row")
  void gluecatReadsJson() {
    readsWhatTrinoWrote("JSON", "org.apache.hive.hcatalog.data.JsonSerDe");
  }

  @Test
  @CompatCase(id = "trino-hive-openx-json-read", writer = "trino-hive", reader = "gluecat",
      title = "OPENX_JSON tables (partitioned and not) Trino's Hive connector created and inserted into: every row")
  void gluecatReadsOpenxJson() {
    readsWhatTrinoWrote("OPENX_JSON", "org.openx.data.jsonserde.JsonSerDe");
  }

  @Test
  @CompatCase(id = "trino-hive-avro-read", writer = "trino-hive", reader = "gluecat",
      title = "AVRO tables (partitioned and not) Trino's Hive connector created and inserted into: every row")
  void gluecatReadsAvro() {
    readsWhatTrinoWrote("AVRO", "org.apache.hadoop.hive.serde2.avro.AvroSerDe");
  }

  /**
   * Trino creates a partitioned and an unpartitioned table of {@code format} with two rows each (CREATE TABLE AS
   * SELECT), then inserts two more (one into a new partition); gluecat reads all four from each, and the rows of one
   * partition. Trino's CSV format holds only varchar columns, so there every column is varchar.
   */
  private void readsWhatTrinoWrote(String format, String serde) {
    boolean varcharOnly = format.equals("CSV");
    String partitioned = "by_region";
    String plain = "plain";
    trinoRun("CREATE TABLE " + hiveName(partitioned) + " WITH (format = '" + format
        + "', partitioned_by = ARRAY['region']) AS " + typed(FIRST_ROWS, varcharOnly));
    trinoRun("CREATE TABLE " + hiveName(plain) + " WITH (format = '" + format + "') AS "
        + typed(FIRST_ROWS, varcharOnly));
    trinoRun("INSERT INTO " + hiveName(partitioned) + " " + typed(LATER_ROWS, varcharOnly));
    trinoRun("INSERT INTO " + hiveName(plain) + " " + typed(LATER_ROWS, varcharOnly));

    Table entry = glueTable(db, partitioned);
    assertNull(entry.parameters().get("spark.sql.sources.provider"), "a Hive-format entry: " + entry.parameters());
    assertEquals(serde, entry.storageDescriptor().serdeInfo().serializationLibrary());
    List<Partition> partitions = GLUE.getPartitions(r -> r.databaseName(db).tableName(partitioned)).partitions();
    assertEquals(List.of("apac", "eu", "us"), partitions.stream().map(p -> p.values().get(0)).sorted().toList(),
        "Trino's Glue partitions");

    for (String table : List.of(partitioned, plain)) {
      assertEquals(varcharOnly ? ALL_ROWS_AS_VARCHAR : ALL_ROWS,
          rows("SELECT id, name, amount, day, ts, flag, region FROM " + t(table) + " ORDER BY id"),
          format + " table " + table);
      assertEquals(List.of("[1]", "[4]"), rows("SELECT id FROM " + t(table) + " WHERE region = 'eu' ORDER BY id"),
          format + " table " + table + ", rows of region eu");
    }
  }

  @Test
  @CompatCase(id = "gluecat-inserts-into-trino-hive-orc", writer = "gluecat", reader = "trino-hive",
      title = "Rows gluecat inserts into ORC tables Trino's Hive connector created (INSERT INTO a new and an existing "
          + "partition, INSERT OVERWRITE of a partition and of a whole table): every row")
  void trinoReadsGluecatInsertsIntoOrc() {
    trinoReadsWhatGluecatInserted("ORC");
  }

  @Test
  @CompatCase(id = "gluecat-inserts-into-trino-hive-parquet", writer = "gluecat", reader = "trino-hive",
      title = "Rows gluecat inserts into PARQUET tables Trino's Hive connector created (INSERT INTO a new and an "
          + "existing partition, INSERT OVERWRITE of a partition and of a whole table): every row")
  void trinoReadsGluecatInsertsIntoParquet() {
    trinoReadsWhatGluecatInserted("PARQUET");
  }

  @Test
  @CompatCase(id = "gluecat-inserts-into-trino-hive-textfile", writer = "gluecat", reader = "trino-hive",
      title = "Rows gluecat inserts into TEXTFILE tables Trino's Hive connector created (INSERT INTO a new and an "
          + "existing partition, INSERT OVERWRITE of a partition and of a whole table): every row")
  void trinoReadsGluecatInsertsIntoTextfile() {
    trinoReadsWhatGluecatInserted("TEXTFILE");
  }

  /**
   * Trino creates a partitioned and an unpartitioned table of {@code format} with two rows each; gluecat inserts
   * rows into a new and an existing partition, then overwrites one partition (and the whole unpartitioned table);
   * Trino's Hive connector reads exactly the rows gluecat left, through the partitions gluecat added to Glue.
   */
  private void trinoReadsWhatGluecatInserted(String format) {
    String partitioned = "by_region";
    String plain = "plain";
    trinoRun("CREATE TABLE " + hiveName(partitioned) + " WITH (format = '" + format
        + "', partitioned_by = ARRAY['region']) AS " + typed(FIRST_ROWS, false));
    trinoRun("CREATE TABLE " + hiveName(plain) + " WITH (format = '" + format + "') AS " + typed(FIRST_ROWS, false));
    String later = "(3, 'c', 0.01, DATE '2023-12-31', TIMESTAMP '2023-12-31 00:00:00.001', NULL, 'apac'), "
        + "(4, 'dee', -7.00, DATE '2024-03-01', TIMESTAMP '2024-03-01 12:00:00.5', true, 'eu')";
    for (String table : List.of(partitioned, plain)) {
      run("INSERT INTO " + t(table) + " VALUES " + later);
    }
    run("INSERT OVERWRITE " + t(partitioned) + " PARTITION (region = 'us') "
        + "VALUES (5, 'five', 5.00, DATE '2024-05-05', TIMESTAMP '2024-05-05 05:05:05', false)");

    List<String> rows = List.of(
        "[1, ann, 12.50, 2024-01-02, 2024-01-02 03:04:05.678, true, eu]",
        "[3, c, 0.01, 2023-12-31, 2023-12-31 00:00:00.001, null, apac]",
        "[4, dee, -7.00, 2024-03-01, 2024-03-01 12:00:00.5, true, eu]",
        "[5, five, 5.00, 2024-05-05, 2024-05-05 05:05:05.0, false, us]");
    String columns = "SELECT id, name, amount, day, ts, flag, region FROM ";
    assertEquals(rows, trinoRows(columns + hiveName(partitioned) + " ORDER BY id"), format + " partitioned");
    assertEquals(List.of("apac", "eu", "us"), GLUE.getPartitions(r -> r.databaseName(db).tableName(partitioned))
        .partitions().stream().map(p -> p.values().get(0)).sorted().toList(), "Glue partitions");
    assertEquals(List.of(rows.get(0), "[2, null, 3.25, 2024-02-29, 2024-02-29 23:59:59.0, false, us]", rows.get(1),
        rows.get(2)), trinoRows(columns + hiveName(plain) + " ORDER BY id"), format + " unpartitioned");

    run("INSERT OVERWRITE " + t(plain) + " VALUES (6, 'six', 6.00, DATE '2024-06-06', TIMESTAMP '2024-06-06 06:06:06', "
        + "true, 'eu')");
    assertEquals(List.of("[6, six, 6.00, 2024-06-06, 2024-06-06 06:06:06.0, true, eu]"),
        trinoRows(columns + hiveName(plain)), format + " unpartitioned, overwritten");
  }

  // ---- empty strings and nulls in text tables (issue 37) ----

  /** What both engines answer of a text table's note column: the rows, then count(note) and the empty notes. */
  private static final String NOTES = "SELECT id, note FROM %s ORDER BY id";
  private static final String NOTE_COUNTS = "SELECT count(note), count_if(note = '') FROM %s";

  /**
   * gluecat reads the table as Trino's Hive connector does (Trino's rows printed as Spark prints them): the rows
   * and counts given, which are Hive's.
   */
  private void bothRead(String table, List<String> notes, String counts) {
    assertEquals(notes, rows(String.format(NOTES, t(table))), "gluecat's rows of " + table);
    assertEquals(List.of(counts), rows(String.format(NOTE_COUNTS, t(table))), "gluecat's counts of " + table);
    assertEquals(notes, sparkStyle(trinoRows(String.format(NOTES, hiveName(table)))), "Trino's rows of " + table);
    assertEquals(List.of(counts), sparkStyle(trinoRows(String.format(NOTE_COUNTS, hiveName(table)))),
        "Trino's counts of " + table);
  }

  /** Trino's rows as Spark prints them ("[1, x]" to "[1,x]"): the values here hold no ", ". */
  private static List<String> sparkStyle(List<String> trinoRows) {
    return trinoRows.stream().map(r -> r.replace(", ", ",")).toList();
  }

  @Test
  @CompatCase(id = "trino-hive-text-empty-and-null-read", writer = "trino-hive", reader = "gluecat",
      title = "An empty string and a NULL in TEXTFILE and CSV tables Trino's Hive connector wrote: the same rows, "
          + "count(note) and note = '' in both engines")
  void gluecatReadsTrinosEmptyStringsAndNulls() {
    String rows = "(1, ''), (2, NULL), (3, 'x')";
    trinoRun("CREATE TABLE " + hiveName("notes_text") + " WITH (format = 'TEXTFILE') AS SELECT CAST(id AS bigint) id, "
        + "CAST(note AS varchar) note FROM (VALUES " + rows + ") AS v(id, note)");
    trinoRun("CREATE TABLE " + hiveName("notes_csv") + " WITH (format = 'CSV') AS SELECT CAST(id AS varchar) id, "
        + "CAST(note AS varchar) note FROM (VALUES " + rows + ") AS v(id, note)");

    // TEXTFILE: NULL is \N, an empty string nothing; CSV: a NULL is written as an empty field, read back as ''
    bothRead("notes_text", List.of("[1,]", "[2,null]", "[3,x]"), "[2,1]");
    bothRead("notes_csv", List.of("[1,]", "[2,]", "[3,x]"), "[3,2]");
  }

  @Test
  @CompatCase(id = "gluecat-text-empty-and-null-read-by-trino-hive", writer = "gluecat", reader = "trino-hive",
      title = "An empty string and a NULL gluecat inserts into a TEXTFILE table Trino's Hive connector created: the "
          + "same rows, count(note) and note = '' in both engines")
  void trinoReadsGluecatsEmptyStringsAndNulls() {
    trinoRun("CREATE TABLE " + hiveName("gluecat_notes") + " (id bigint, note varchar) WITH (format = 'TEXTFILE')");
    run("INSERT INTO " + t("gluecat_notes") + " VALUES (1, ''), (2, NULL), (3, 'x')");

    bothRead("gluecat_notes", List.of("[1,]", "[2,null]", "[3,x]"), "[2,1]");
  }

  @Test
  @CompatCase(id = "crawler-text-empty-and-null-read-by-both", writer = "glue-crawler", reader = "trino-hive",
      title = "Crawler-shaped text files with empty fields, quoted and not, and \\N (OpenCSVSerde; LazySimpleSerDe "
          + "with and without serialization.null.format): the same rows in gluecat and Trino")
  void crawledEmptyFieldsReadTheSameInBothEngines() throws java.io.IOException {
    String serdes = "org.apache.hadoop.hive.serde2.";
    crawled("open_csv", serdes + "OpenCSVSerde", Map.of("separatorChar", ",", "quoteChar", "\""),
        "\"1\",\"\"\n\"2\",\n\"3\",\"x\"\n");
    crawled("lazy_simple", serdes + "lazy.LazySimpleSerDe", Map.of("field.delim", ","), "1,\n2,\\N\n3,x\n");
    crawled("lazy_simple_empty_null", serdes + "lazy.LazySimpleSerDe",
        Map.of("field.delim", ",", "serialization.null.format", ""), "1,\n2,\\N\n3,x\n");

    // OpenCSVSerde has no null; LazySimpleSerDe's null is its null format
    bothRead("open_csv", List.of("[1,]", "[2,]", "[3,x]"), "[3,2]");
    bothRead("lazy_simple", List.of("[1,]", "[2,null]", "[3,x]"), "[2,1]");
    bothRead("lazy_simple_empty_null", List.of("[1,null]", "[2,\\N]", "[3,x]"), "[2,0]");
  }

  /** A crawler-shaped Glue entry (id, note: strings) over one file under Trino's local file system. */
  private void crawled(String table, String serde, Map<String, String> serdeParameters, String content)
      throws java.io.IOException {
    String location = newTrinoDirectory(db + "_" + table);
    java.nio.file.Files.writeString(localRoot().resolve("data").resolve(db + "_" + table).resolve("data.csv"),
        content);
    GLUE.createTable(r -> r.databaseName(db).tableInput(ti -> ti.name(table).tableType("EXTERNAL_TABLE")
        .parameters(Map.of("classification", "csv"))
        .storageDescriptor(sd -> sd.location(location).inputFormat("org.apache.hadoop.mapred.TextInputFormat")
            .outputFormat("org.apache.hadoop.hive.ql.io.HiveIgnoreKeyTextOutputFormat")
            .columns(Column.builder().name("id").type("string").build(),
                Column.builder().name("note").type("string").build())
            .serdeInfo(s -> s.serializationLibrary(serde).parameters(serdeParameters)))));
  }

  /** The rows as a SELECT of Trino types: bigint, varchar, decimal(10,2), date, timestamp(3), boolean, varchar. */
  private static String typed(String rows, boolean varcharOnly) {
    // unbounded varchar: a CTAS of literals would make varchar(n) columns, too short for later rows
    String columns = varcharOnly
        ? "CAST(id AS varchar) id, CAST(name AS varchar) name, CAST(amount AS varchar) amount, "
            + "CAST(day AS varchar) day, CAST(ts AS varchar) ts, CAST(flag AS varchar) flag, "
            + "CAST(region AS varchar) region"
        : "CAST(id AS bigint) id, CAST(name AS varchar) name, CAST(amount AS decimal(10,2)) amount, "
            + "CAST(day AS date) day, CAST(ts AS timestamp(3)) ts, flag, CAST(region AS varchar) region";
    return "SELECT " + columns + " FROM (VALUES " + rows + ") AS v(id, name, amount, day, ts, flag, region)";
  }
}
