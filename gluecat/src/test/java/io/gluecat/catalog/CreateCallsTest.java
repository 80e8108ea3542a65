package io.gluecat.catalog;

import static io.gluecat.catalog.InMemoryCatalogs.DATABASE;
import static io.gluecat.catalog.InMemoryCatalogs.table;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.GlueCatalogException;
import io.gluecat.files.FileTable;
import io.gluecat.glue.InMemoryGlue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * CREATE TABLE t (..) USING parquet through the catalog (issue #42): the Glue calls it makes, in order, and the
 * outcome of a failure at each of them, as docs/reliability.md's fault tables give it for that statement: before
 * the entry is written, the statement fails naming the call and the table (or database) and nothing is left in
 * Glue ("nothing changed"); once the entry is written, only reading it back can fail, and the create stands.
 */
class CreateCallsTest {
  private static final StructType SCHEMA = StructType.fromDDL("id BIGINT, amount DOUBLE");
  /** What a create of sales.orders asks Glue: the database (for its location), that no entry is there, the entry. */
  private static final List<String> WRITING_CALLS =
      List.of("GetDatabase sales", "GetTable sales.orders", "CreateTable sales.orders");
  private static SparkSession spark;

  @TempDir
  Path warehouse;

  @BeforeAll
  static void startSession() {
    spark = InMemoryCatalogs.startSession("create-calls");
  }

  @AfterAll
  static void stopSession() {
    spark.stop();
  }

  private static Table create(AbstractGlueCatalog catalog) throws Exception {
    return catalog.createTable(table("orders"), SCHEMA, new Transform[0],
        Map.of(TableCatalog.PROP_PROVIDER, "parquet"));
  }

  /** The directories under the database's location that a managed create of orders made (orders-<uuid>). */
  private static List<Path> tableDirectories(Path root) throws java.io.IOException {
    Path database = root.resolve(DATABASE + ".db");
    if (!Files.isDirectory(database)) {
      return List.of();
    }
    try (java.util.stream.Stream<Path> children = Files.list(database)) {
      return children.filter(p -> p.getFileName().toString().startsWith("orders")).toList();
    }
  }

  /** The calls of a create without faults: the writing calls, then reading the new table back. */
  private List<InMemoryGlue.Call> faultFreeCalls() throws Exception {
    InMemoryGlue glue = InMemoryCatalogs.glueWithDatabase(warehouse.resolve("fault-free"));
    create(InMemoryCatalogs.catalog(glue));
    return glue.calls();
  }

  @Test
  void aCreateReadsTheDatabaseChecksTheNameIsFreeThenWritesTheEntry() throws Exception {
    InMemoryGlue glue = InMemoryCatalogs.glueWithDatabase(warehouse);

    Table created = create(InMemoryCatalogs.catalog(glue));

    List<String> expected = new ArrayList<>(WRITING_CALLS);
    // the table returned is loaded as any load is: from Glue here, outside a statement (within one, its cache
    // holds what the create wrote)
    expected.add("GetTable sales.orders");
    assertEquals(expected, glue.callNames());
    assertInstanceOf(FileTable.class, created);
    assertEquals(SCHEMA, created.schema());
    var entry = glue.table(DATABASE, "orders").orElseThrow();
    assertEquals("parquet", entry.parameters().get("spark.sql.sources.provider"));
    List<Path> made = tableDirectories(warehouse);
    assertEquals(1, made.size(), "one managed directory: " + made);
    assertEquals(made.get(0).toUri().toString().replaceAll("/$", ""),
        entry.storageDescriptor().location().replaceAll("/$", ""), "the entry points at the directory made for it");
  }

  /** One test per Glue call of the fault-free create, that call failing with an error that outlasts the retries. */
  @TestFactory
  List<DynamicTest> aFailureAtEachGlueCallEndsAsTheFaultTableSays() throws Exception {
    List<InMemoryGlue.Call> calls = faultFreeCalls();
    List<DynamicTest> tests = new ArrayList<>();
    java.util.Map<String, Integer> nth = new java.util.HashMap<>();
    for (int i = 0; i < calls.size(); i++) {
      InMemoryGlue.Call call = calls.get(i);
      int onCall = nth.merge(call.operation(), 1, Integer::sum);
      boolean entryWritten = i >= WRITING_CALLS.size();
      tests.add(DynamicTest.dynamicTest(call + " (call " + onCall + " of " + call.operation() + ") fails",
          () -> failAt(call, onCall, entryWritten)));
    }
    return tests;
  }

  private void failAt(InMemoryGlue.Call call, int onCall, boolean entryWritten) throws Exception {
    Path root = Files.createTempDirectory(warehouse, "fault");
    InMemoryGlue glue = InMemoryCatalogs.glueWithDatabase(root)
        .fail(call.operation(), onCall, InMemoryGlue.internalError(call.operation()));
    AbstractGlueCatalog catalog = InMemoryCatalogs.catalog(glue);
    if (entryWritten) {
      // only reading the new table back failed: the create stands (the fault table's "success")
      Table created = create(catalog);
      assertEquals(SCHEMA, created.schema());
      assertTrue(glue.table(DATABASE, "orders").isPresent());
      return;
    }
    GlueCatalogException e = assertThrows(GlueCatalogException.class, () -> create(catalog));
    String on = call.table() == null ? "database '" + call.database() + "'" : "table '" + call.database() + "."
        + call.table() + "'";
    assertTrue(e.getMessage().contains("Glue " + call.operation() + " on " + on), e.getMessage());
    assertTrue(e.getMessage().contains("InternalServiceException"), e.getMessage());
    assertTrue(glue.table(DATABASE, "orders").isEmpty(), "no entry is left");
    if (!call.operation().equals("CreateTable")) {
      assertEquals(List.of(), tableDirectories(root), "no directory is made before the name was found free");
    }
    assertEquals(call.toString(), glue.callNames().get(glue.callNames().size() - 1),
        "the failed call is the last one: " + glue.callNames());
  }

  @Test
  void aCreateTableGlueRefusesLeavesNeitherEntryNorDirectory() throws Exception {
    InMemoryGlue glue = InMemoryCatalogs.glueWithDatabase(warehouse)
        .fail("CreateTable", 1, InMemoryGlue.accessDenied("CreateTable"));
    AbstractGlueCatalog catalog = InMemoryCatalogs.catalog(glue);

    GlueCatalogException e = assertThrows(GlueCatalogException.class, () -> create(catalog));

    assertTrue(e.getMessage().contains("glue:CreateTable"), e.getMessage());
    assertTrue(e.getMessage().contains("sales.orders"), e.getMessage());
    assertTrue(e.getMessage().contains("Nothing was left behind"), e.getMessage());
    assertTrue(glue.table(DATABASE, "orders").isEmpty());
    assertEquals(List.of(), tableDirectories(warehouse), "the directory the create made is removed again");
  }

  @Test
  void aNameAlreadyTakenIsRefusedBeforeAnythingIsWritten() throws Exception {
    InMemoryGlue glue = InMemoryCatalogs.glueWithDatabase(warehouse);
    AbstractGlueCatalog catalog = InMemoryCatalogs.catalog(glue);
    create(catalog);
    glue.clearCalls();

    assertThrows(org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException.class, () -> create(catalog));

    assertFalse(glue.callNames().contains("CreateTable sales.orders"), "calls: " + glue.callNames());
  }
}
