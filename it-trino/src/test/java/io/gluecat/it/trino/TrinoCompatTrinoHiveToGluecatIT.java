package io.gluecat.it.trino;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.testkit.compat.CompatCase;
import java.util.List;
import org.junit.jupiter.api.Test;
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
   * field, which gluecat reads as null (Trino and Hive read it back as an empty string), and a quote inside a value
   * doubled.
   */
  private static final List<String> ALL_ROWS_AS_VARCHAR = List.of(
      "[1,ann,12.50,2024-01-02,2024-01-02 03:04:05.678,true,eu]",
      "[2,null,3.25,2024-02-29,2024-02-29 23:59:59.000,false,us]",
      "[3,c, \"d\",0.01,2023-12-31,2023-12-31 00:00:00.001,null,apac]",
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
