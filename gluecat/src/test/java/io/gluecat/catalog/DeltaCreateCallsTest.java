package io.gluecat.catalog;

import static io.gluecat.catalog.InMemoryCatalogs.CATALOG;
import static io.gluecat.catalog.InMemoryCatalogs.DATABASE;
import static io.gluecat.catalog.InMemoryCatalogs.table;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.DeltaCommittedButGlueFailedException;
import io.gluecat.GlueCatalogException;
import io.gluecat.glue.InMemoryGlue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.DynamicNode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.glue.model.SerDeInfo;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * A Delta CREATE TABLE, CTAS, RTAS and CREATE OR REPLACE through the catalog (issue #42): the Glue calls each makes,
 * in order, and what a user sees when one of them fails, as docs/how-it-works.md ("Delta tables") and the fault
 * tables of docs/reliability.md give it. Delta writes its log by path (here to a local directory), then gluecat
 * writes the entry: a failure before Delta's commit changes nothing, in Glue or in the log; a failure of the Glue
 * write after it is a {@link DeltaCommittedButGlueFailedException} naming the table, its location and the statement
 * that recovers, with no entry pointing at nothing and the committed data still in the log; a failure after the
 * write (reading the new table back) leaves the create standing. The catalog is called as Spark calls it: the
 * statements with a query get a staged table, which Spark commits after writing into it.
 */
class DeltaCreateCallsTest {
  private static final StructType SCHEMA = StructType.fromDDL("id BIGINT, amount DOUBLE");
  /** A replace's new columns, so that Glue's columns show whether the replace reached the entry. */
  private static final StructType NEW_SCHEMA = StructType.fromDDL("id BIGINT, amount DOUBLE, note STRING");
  private static final String QUALIFIED = CATALOG + "." + DATABASE + ".orders";
  private static SparkSession spark;

  @TempDir
  Path warehouse;

  @BeforeAll
  static void startSession() {
    spark = InMemoryCatalogs.startDeltaSession("delta-create-calls");
  }

  @AfterAll
  static void stopSession() {
    spark.stop();
  }

  /** The statements, each as Spark calls the catalog for it, and the Glue calls each makes without faults. */
  enum Statement {
    /** CREATE TABLE t (..) USING delta: the database (for the location), the name free, the entry, the read-back. */
    CREATE(false, "GetDatabase sales", "GetTable sales.orders", "CreateTable sales.orders", "GetTable sales.orders"),
    /** CREATE TABLE t USING delta AS SELECT: the same reads, then the entry once Delta committed. */
    CTAS(false, "GetDatabase sales", "GetTable sales.orders", "CreateTable sales.orders"),
    /** REPLACE TABLE t USING delta AS SELECT: the entry read once, then updated at the VersionId read. */
    RTAS(true, "GetDatabase sales", "GetTable sales.orders", "UpdateTable sales.orders"),
    /** CREATE OR REPLACE TABLE t USING delta AS SELECT on an existing table: a replace. */
    CREATE_OR_REPLACE(true, "GetDatabase sales", "GetTable sales.orders", "UpdateTable sales.orders"),
    /** CREATE OR REPLACE TABLE t USING delta AS SELECT with no entry: a create. */
    CREATE_OR_REPLACE_NEW(false, "GetDatabase sales", "GetTable sales.orders", "CreateTable sales.orders");

    final boolean replaces;
    final List<String> calls;

    Statement(boolean replaces, String... calls) {
      this.replaces = replaces;
      this.calls = List.of(calls);
    }

    /** The Glue write that follows Delta's commit. */
    String write() {
      return (replaces ? "UpdateTable" : "CreateTable") + " sales.orders";
    }

    void run(AbstractGlueCatalog catalog) throws Exception {
      StructType schema = replaces ? NEW_SCHEMA : SCHEMA;
      Transform[] none = new Transform[0];
      switch (this) {
        case CREATE -> catalog.createTable(table("orders"), schema, none, delta());
        case CTAS -> catalog.stageCreate(table("orders"), schema, none, delta()).commitStagedChanges();
        case RTAS -> catalog.stageReplace(table("orders"), schema, none, delta()).commitStagedChanges();
        default -> catalog.stageCreateOrReplace(table("orders"), schema, none, delta()).commitStagedChanges();
      }
    }
  }

  private static Map<String, String> delta() {
    return Map.of(TableCatalog.PROP_PROVIDER, "delta");
  }

  /** A Glue (with the database, at {@code root}/sales.db) and its catalog; for a replace, with orders in place. */
  private record Setup(InMemoryGlue glue, AbstractGlueCatalog catalog, Path root, Table before) {}

  /**
   * A replace's table: created through the catalog, 3 rows appended by path (Delta log versions 0 and 1), its
   * calls forgotten.
   */
  private Setup setUp(Statement statement, Path root) throws Exception {
    InMemoryGlue glue = InMemoryCatalogs.glueWithDatabase(root);
    AbstractGlueCatalog catalog = InMemoryCatalogs.catalog(glue);
    Table before = null;
    if (statement.replaces) {
      Statement.CREATE.run(catalog);
      before = glue.table(DATABASE, "orders").orElseThrow();
      spark.range(3).selectExpr("id", "CAST(id AS DOUBLE) AS amount").write().format("delta").mode("append")
          .save(before.storageDescriptor().location());
    }
    glue.clearCalls();
    return new Setup(glue, catalog, root, before);
  }

  @TestFactory
  Stream<DynamicTest> eachStatementMakesItsGlueCallsInOrder() {
    return Stream.of(Statement.values()).map(statement -> DynamicTest.dynamicTest(statement.name(), () -> {
      Setup setup = setUp(statement, Files.createTempDirectory(warehouse, statement.name()));

      statement.run(setup.catalog());

      assertEquals(statement.calls, setup.glue().callNames());
      Table entry = setup.glue().table(DATABASE, "orders").orElseThrow();
      String location = entry.storageDescriptor().location();
      assertEquals("delta", entry.parameters().get("spark.sql.sources.provider"));
      assertEquals(statement.replaces ? 3 : 2, entry.storageDescriptor().columns().size(), "Glue's columns");
      assertEquals(statement.replaces ? 2 : 0, logVersion(location), "Delta's log at the entry's location");
      if (statement.replaces) {
        assertEquals(setup.before().storageDescriptor().location(), location, "a replace stays where the table is");
        assertEquals(3, spark.read().format("delta").option("versionAsOf", 1).load(location).count(),
            "the replaced rows stay in the table's history");
      }
    }));
  }

  /** For each statement, one test per Glue call it makes, that call failing with an error outlasting the retries. */
  @TestFactory
  Stream<DynamicNode> aFailureAtEachGlueCallEndsAsTheDocsSay() {
    return Stream.of(Statement.values()).map(statement -> {
      List<DynamicTest> tests = new ArrayList<>();
      Map<String, Integer> nth = new HashMap<>();
      int write = statement.calls.indexOf(statement.write());
      for (int i = 0; i < statement.calls.size(); i++) {
        String call = statement.calls.get(i);
        String operation = call.substring(0, call.indexOf(' '));
        int onCall = nth.merge(operation, 1, Integer::sum);
        int at = i;
        tests.add(DynamicTest.dynamicTest(call + " (call " + onCall + " of " + operation + ") fails",
            () -> failAt(statement, call, operation, onCall, at < write ? Phase.BEFORE_DELTA
                : at == write ? Phase.GLUE_WRITE : Phase.AFTER_WRITE)));
      }
      return DynamicContainer.dynamicContainer(statement.name(), tests);
    });
  }

  private enum Phase { BEFORE_DELTA, GLUE_WRITE, AFTER_WRITE }

  private void failAt(Statement statement, String call, String operation, int onCall, Phase phase) throws Exception {
    Setup setup = setUp(statement, Files.createTempDirectory(warehouse, "fault"));
    InMemoryGlue glue = setup.glue().fail(operation, onCall, InMemoryGlue.internalError(operation));
    switch (phase) {
      case AFTER_WRITE -> {
        // only reading the new table back failed: the create stands
        statement.run(setup.catalog());
        assertTrue(glue.table(DATABASE, "orders").isPresent());
      }
      case BEFORE_DELTA -> {
        GlueCatalogException e = assertThrows(GlueCatalogException.class, () -> statement.run(setup.catalog()));
        String on = call.contains(".") ? "table '" + call.substring(call.indexOf(' ') + 1) + "'"
            : "database '" + DATABASE + "'";
        assertTrue(e.getMessage().contains("Glue " + operation + " on " + on), e.getMessage());
        assertTrue(e.getMessage().contains("InternalServiceException"), e.getMessage());
        assertEquals(call, glue.callNames().get(glue.callNames().size() - 1),
            "the failed call is the last one: " + glue.callNames());
        assertNothingChanged(statement, setup);
      }
      case GLUE_WRITE -> {
        DeltaCommittedButGlueFailedException e = assertThrows(DeltaCommittedButGlueFailedException.class,
            () -> statement.run(setup.catalog()));
        assertEquals(QUALIFIED, e.table());
        assertTrue(e.getMessage().startsWith("The Delta commit for table " + QUALIFIED + " succeeded at "
            + e.location()), e.getMessage());
        assertTrue(e.getMessage().contains("Glue " + operation + " on table 'sales.orders'"), e.getMessage());
        if (statement.replaces) {
          assertReplaceRecoverable(setup, e);
        } else {
          assertCreateRecoverable(setup, e);
        }
      }
    }
  }

  /** A failure before Delta's commit: Glue as it was, and no Delta commit (for a create, no log at all). */
  private void assertNothingChanged(Statement statement, Setup setup) throws Exception {
    if (!statement.replaces) {
      assertTrue(setup.glue().table(DATABASE, "orders").isEmpty(), "no entry is left");
      assertEquals(List.of(), deltaLogs(setup.root()), "Delta wrote nothing");
      return;
    }
    Table after = setup.glue().table(DATABASE, "orders").orElseThrow();
    assertEquals(setup.before(), after, "the entry is as it was");
    assertEquals(1, logVersion(after.storageDescriptor().location()), "Delta committed nothing more");
  }

  /**
   * The create's Glue write failed after Delta committed: no entry points anywhere, the table is complete at the
   * location the message names, and the statement the message gives registers it.
   */
  private void assertCreateRecoverable(Setup setup, DeltaCommittedButGlueFailedException e) throws Exception {
    assertTrue(setup.glue().table(DATABASE, "orders").isEmpty(), "no entry");
    assertEquals(0, logVersion(e.location()), "Delta's commit is at the location");
    String recovery = "CREATE TABLE " + QUALIFIED + " USING delta LOCATION '" + e.location() + "'";
    assertTrue(e.getMessage().endsWith("Register it with: " + recovery), e.getMessage());

    setup.catalog().createTable(table("orders"), new StructType(), new Transform[0],
        Map.of(TableCatalog.PROP_PROVIDER, "delta", TableCatalog.PROP_LOCATION, e.location()));

    Table entry = setup.glue().table(DATABASE, "orders").orElseThrow();
    assertEquals(e.location(), entry.storageDescriptor().location());
    assertEquals(2, entry.storageDescriptor().columns().size());
  }

  /**
   * The replace's Glue update failed after Delta committed: the entry is the old one (the old columns, Delta's
   * readers do not use them), the replace is in the log with the replaced rows in its history, and REFRESH TABLE
   * re-syncs the columns, as the message says.
   */
  private void assertReplaceRecoverable(Setup setup, DeltaCommittedButGlueFailedException e) throws Exception {
    Table after = setup.glue().table(DATABASE, "orders").orElseThrow();
    assertEquals(setup.before(), after, "the entry is the old one");
    assertEquals(after.storageDescriptor().location(), e.location());
    assertEquals(2, logVersion(e.location()), "Delta's replace is committed");
    assertEquals(3, spark.read().format("delta").option("versionAsOf", 1).load(e.location()).count(),
        "the replaced rows stay in the table's history");
    assertTrue(e.getMessage().endsWith("re-sync them with: REFRESH TABLE " + QUALIFIED), e.getMessage());

    setup.catalog().invalidateTable(table("orders"));

    assertEquals(3, setup.glue().table(DATABASE, "orders").orElseThrow().storageDescriptor().columns().size(),
        "REFRESH TABLE re-synced the columns");
  }

  @Test
  void aCreateOfATakenNameIsRefusedBeforeDeltaWritesAnything() throws Exception {
    Setup setup = setUp(Statement.RTAS, warehouse);
    for (Statement create : List.of(Statement.CREATE, Statement.CTAS)) {
      setup.glue().clearCalls();
      assertThrows(org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException.class,
          () -> create.run(setup.catalog()));
      assertEquals(List.of("GetDatabase sales", "GetTable sales.orders"), setup.glue().callNames(), create.name());
      assertEquals(setup.before(), setup.glue().table(DATABASE, "orders").orElseThrow());
      assertEquals(1, logVersion(setup.before().storageDescriptor().location()), "Delta committed nothing");
    }
  }

  @Test
  void aReplaceOfAMissingTableIsRefusedBeforeDeltaWritesAnything() throws Exception {
    Setup setup = setUp(Statement.CTAS, warehouse);

    assertThrows(org.apache.spark.sql.catalyst.analysis.NoSuchTableException.class,
        () -> Statement.RTAS.run(setup.catalog()));

    assertEquals(List.of("GetDatabase sales", "GetTable sales.orders"), setup.glue().callNames());
    assertEquals(List.of(), deltaLogs(warehouse), "Delta wrote nothing");
  }

  @Test
  void aReplaceOfAHiveFormatEntryIsRefusedBeforeDeltaWritesAnything() throws Exception {
    String serde = "org.apache.hadoop.hive.ql.io.parquet.serde.ParquetHiveSerDe";
    InMemoryGlue glue = InMemoryCatalogs.glueWithDatabase(warehouse).entry(DATABASE, TableInput.builder()
        .name("orders").tableType("EXTERNAL_TABLE").storageDescriptor(StorageDescriptor.builder()
            .location(warehouse.resolve("crawled").toUri().toString())
            .serdeInfo(SerDeInfo.builder().serializationLibrary(serde).build()).build()).build());
    AbstractGlueCatalog catalog = InMemoryCatalogs.catalog(glue);
    Table before = glue.table(DATABASE, "orders").orElseThrow();
    for (Statement replace : List.of(Statement.RTAS, Statement.CREATE_OR_REPLACE)) {
      glue.clearCalls();

      UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, () -> replace.run(catalog));

      assertTrue(e.getMessage().startsWith("Table " + QUALIFIED + " is a Hive-format table (SerDe " + serde + ")"),
          e.getMessage());
      assertEquals(List.of("GetDatabase sales", "GetTable sales.orders"), glue.callNames(), replace.name());
      assertEquals(before, glue.table(DATABASE, "orders").orElseThrow());
      assertEquals(List.of(), deltaLogs(warehouse), "Delta wrote nothing");
    }
  }

  // ---- the Delta log ----

  /** The latest version in the Delta log at {@code location}, or -1 when there is none. */
  private static long logVersion(String location) throws Exception {
    Path log = Path.of(java.net.URI.create(location.endsWith("/") ? location : location + "/")).resolve("_delta_log");
    if (!Files.isDirectory(log)) {
      return -1;
    }
    try (Stream<Path> files = Files.list(log)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.matches("\\d{20}\\.json"))
          .mapToLong(n -> Long.parseLong(n.substring(0, 20))).max().orElse(-1);
    }
  }

  /** Every Delta log under {@code root}. */
  private static List<Path> deltaLogs(Path root) throws Exception {
    try (Stream<Path> all = Files.walk(root)) {
      return all.filter(p -> p.getFileName().toString().equals("_delta_log")).toList();
    }
  }
}
