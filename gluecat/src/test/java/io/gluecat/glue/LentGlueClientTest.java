package io.gluecat.glue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.cache.MetadataCache;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/** The catalog's Glue client as the Iceberg catalog behind its Iceberg tables gets it. */
class LentGlueClientTest {
  private final InMemoryGlue glue = new InMemoryGlue().database("db", "file:/tmp/db")
      .entry("db", TableInput.builder().name("orders").parameters(Map.of("table_type", "ICEBERG",
          "metadata_location", "file:/tmp/db/orders/metadata/00001.metadata.json")).build());
  /** The catalog's cache, here across statements (the unit test runs in none). */
  private final MetadataCache cache = new MetadataCache(Duration.ofMinutes(5), 100);
  private final LentGlueClient lent = new LentGlueClient(glue, cache,
      new GlueErrors(io.gluecat.config.CatalogOptions.parse("lake", Map.of("region", "us-east-1"))));

  private Table read(String table) {
    return lent.client().getTable(r -> r.databaseName("db").name(table)).table();
  }

  @Test
  void aLoadTakesTheEntryTheCatalogReadInsteadOfReadingItAgainOnce() {
    Table gluecatsRead = glue.getTable(r -> r.databaseName("db").name("orders")).table();
    glue.clearCalls();

    List<Table> icebergsReads = lent.handingOver(new TableName("db", "orders"), new StoredTable(gluecatsRead),
        () -> List.of(read("orders"), read("orders")));

    assertSame(gluecatsRead, icebergsReads.get(0), "the first read is the catalog's");
    assertEquals(gluecatsRead.parameters(), icebergsReads.get(1).parameters());
    assertEquals(List.of("GetTable db.orders"), glue.callNames(), "only the second read goes to Glue");
  }

  @Test
  void otherTablesAndLaterCallsGoToGlue() {
    Table gluecatsRead = glue.getTable(r -> r.databaseName("db").name("orders")).table();
    glue.entry("db", TableInput.builder().name("other").build());
    glue.clearCalls();

    lent.handingOver(new TableName("db", "orders"), new StoredTable(gluecatsRead), () -> read("other"));
    read("orders"); // after the load: Glue's current entry, as for every commit

    assertEquals(List.of("GetTable db.other", "GetTable db.orders"), glue.callNames());
  }

  @Test
  void icebergCannotCloseTheCatalogsClient() {
    GlueClient client = lent.client();
    client.close();
    assertEquals("orders", read("orders").name(), "still open");
  }

  @Test
  void icebergsChangesOfAnEntryAreReportedToTheCatalogsCache() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    MetadataCache.Loader<Table, RuntimeException> fromGlue = () -> {
      reads.incrementAndGet();
      return glue.getTable(r -> r.databaseName("db").name("orders")).table();
    };
    String key = MetadataCache.tableKey("db", "orders");
    cache.read(key, RuntimeException.class, fromGlue);
    cache.read(key, RuntimeException.class, fromGlue);
    assertEquals(1, reads.get(), "cached");

    // Iceberg's commit: a new metadata location at the entry's version
    String version = glue.getTable(r -> r.databaseName("db").name("orders")).table().versionId();
    lent.client().updateTable(r -> r.databaseName("db").versionId(version).tableInput(t -> t.name("orders")
        .parameters(Map.of("table_type", "ICEBERG", "metadata_location", "file:/tmp/db/orders/metadata/2.json"))));

    Table after = cache.read(key, RuntimeException.class, fromGlue);
    assertEquals(2, reads.get(), "the catalog reads the entry Iceberg changed from Glue again");
    assertEquals("file:/tmp/db/orders/metadata/2.json", after.parameters().get("metadata_location"));
  }

  @Test
  void aRefusalByIamIsGluesAccessDeniedWithTheCatalogsMessage() {
    glue.fail("UpdateTable", 1, InMemoryGlue.accessDenied("UpdateTable"));
    software.amazon.awssdk.services.glue.model.AccessDeniedException e = org.junit.jupiter.api.Assertions.assertThrows(
        software.amazon.awssdk.services.glue.model.AccessDeniedException.class,
        () -> lent.client().updateTable(r -> r.databaseName("db").tableInput(t -> t.name("orders"))));
    assertEquals(400, e.statusCode(), "Glue's refusal as Glue answers it, which Iceberg reports as a refusal");
    org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("Access denied: catalog 'lake' may not "
        + "glue:UpdateTable on table 'db.orders'"), e.getMessage());
  }
}
