package io.gluecat.catalog;

import static io.gluecat.catalog.InMemoryCatalogs.DATABASE;
import static io.gluecat.catalog.InMemoryCatalogs.table;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.GlueCatalogException;
import io.gluecat.glue.InMemoryGlue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * ALTER TABLE t RENAME TO t2 (issue #42; CatalogRenames): Glue has no rename, so the entry is created under the
 * new name and then the old one deleted. A failure before the new entry exists changes nothing; a failure to
 * delete the old one leaves both, pointing at the same data, and DROP TABLE of the old name finishes the
 * rename (docs/reliability.md, the RENAME rows of the fault tables).
 */
class RenameCallsTest {
  private static final StructType SCHEMA = StructType.fromDDL("id BIGINT, amount DOUBLE");
  private static SparkSession spark;

  @TempDir
  Path warehouse;
  private InMemoryGlue glue;
  private AbstractGlueCatalog catalog;
  private Table before;

  @BeforeAll
  static void startSession() {
    spark = InMemoryCatalogs.startSession("rename-calls");
  }

  @AfterAll
  static void stopSession() {
    spark.stop();
  }

  @BeforeEach
  void catalogWithATable() {
    glue = InMemoryCatalogs.glueWithDatabase(warehouse)
        .entry(DATABASE, InMemoryCatalogs.fileEntry(warehouse, "orders", "parquet", SCHEMA));
    catalog = InMemoryCatalogs.catalog(glue);
    before = glue.table(DATABASE, "orders").orElseThrow();
  }

  private void rename() throws Exception {
    catalog.renameTable(table("orders"), table("orders_2025"));
  }

  @Test
  void aRenameCreatesTheNewEntryThenDeletesTheOldOne() throws Exception {
    rename();

    assertEquals(List.of("GetTable sales.orders", "CreateTable sales.orders_2025", "DeleteTable sales.orders"),
        glue.callNames());
    assertTrue(glue.table(DATABASE, "orders").isEmpty());
    Table after = glue.table(DATABASE, "orders_2025").orElseThrow();
    assertEquals(before.storageDescriptor(), after.storageDescriptor(), "the data does not move");
    assertEquals(before.parameters(), after.parameters());
  }

  @Test
  void aRenameOntoAnExistingTableChangesNothing() {
    glue.entry(DATABASE, InMemoryCatalogs.fileEntry(warehouse, "orders_2025", "parquet", SCHEMA));

    assertThrows(TableAlreadyExistsException.class, this::rename);

    assertEquals(before, glue.table(DATABASE, "orders").orElseThrow());
    assertFalse(glue.callNames().contains("DeleteTable sales.orders"), "calls: " + glue.callNames());
  }

  /** One test per Glue call of the fault-free rename, that call failing with an error that outlasts the retries. */
  @TestFactory
  List<DynamicTest> aFailureAtEachGlueCallEndsAsTheFaultTableSays() throws Exception {
    rename();
    List<InMemoryGlue.Call> calls = glue.calls();
    List<DynamicTest> tests = new ArrayList<>();
    Map<String, Integer> nth = new HashMap<>();
    for (InMemoryGlue.Call call : calls) {
      int onCall = nth.merge(call.operation(), 1, Integer::sum);
      tests.add(DynamicTest.dynamicTest(call + " (call " + onCall + " of " + call.operation() + ") fails", () -> {
        catalogWithATable();
        glue.fail(call.operation(), onCall, InMemoryGlue.internalError(call.operation()));
        if (call.operation().equals("DeleteTable")) {
          oldEntryLeftBehind();
        } else {
          nothingChanged(call);
        }
      }));
    }
    return tests;
  }

  private void nothingChanged(InMemoryGlue.Call call) {
    GlueCatalogException e = assertThrows(GlueCatalogException.class, this::rename);
    assertTrue(e.getMessage().contains("Glue " + call.operation() + " on table '" + call.database() + "."
        + call.table() + "'"), e.getMessage());
    assertEquals(before, glue.table(DATABASE, "orders").orElseThrow(), "the old entry is as it was");
    assertTrue(glue.table(DATABASE, "orders_2025").isEmpty(), "no new entry");
  }

  /** Recoverable: both entries point at the same data; DROP TABLE of the old name, as the message says, finishes. */
  private void oldEntryLeftBehind() throws Exception {
    GlueCatalogException e = assertThrows(GlueCatalogException.class, this::rename);
    assertTrue(e.getMessage().contains("Renamed glue.sales.orders to glue.sales.orders_2025, but the old entry "
        + "could not be deleted"), e.getMessage());
    assertTrue(e.getMessage().contains("run DROP TABLE glue.sales.orders "), e.getMessage());
    assertEquals(before.storageDescriptor(), glue.table(DATABASE, "orders_2025").orElseThrow().storageDescriptor());
    assertEquals(before, glue.table(DATABASE, "orders").orElseThrow());

    assertTrue(catalog.dropTable(table("orders")));

    assertTrue(glue.table(DATABASE, "orders").isEmpty());
    assertEquals(before.storageDescriptor(), glue.table(DATABASE, "orders_2025").orElseThrow().storageDescriptor(),
        "the rename is finished and the data never moved");
  }
}
