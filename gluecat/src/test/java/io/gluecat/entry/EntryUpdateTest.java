package io.gluecat.entry;

import static io.gluecat.entry.Tables.table;
import static io.gluecat.entry.Tables.withComment;
import static org.junit.jupiter.api.Assertions.*;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/** The rewrites the repair tool makes, and the changes it prints for them (issue #42). */
class EntryUpdateTest {
  private final EntryWriter writer = new EntryWriter("3.5.7", EntryFormat.DEFAULT_SCHEMA_THRESHOLD);

  private static StoredTable stored(TableInput in) {
    return new StoredTable(EntryReaderTest.stored(in));
  }

  @Test
  void classifiedAddsTheClassificationAndSaysSo() {
    TableInput entry = writer.newEntry(table("parquet", "a INT", List.of(), "s3://b/t"), Optional.empty(),
        Optional.empty());
    Map<String, String> withoutIt = new HashMap<>(entry.parameters());
    withoutIt.remove(EntryFormat.CLASSIFICATION);
    StoredTable older = stored(entry.toBuilder().parameters(withoutIt).build());

    EntryUpdate update = EntryUpdate.classified(older);
    assertEquals(EntryEdits.classified(older.sdkTable()), update.sdkInput());
    assertSame(older, update.before());
    assertEquals("orders", update.name());
    assertEquals(List.of("Parameters.classification: (none) -> 'parquet'"), update.changes());

    assertEquals(List.of(), EntryUpdate.classified(stored(entry)).changes(), "nothing to change");
  }

  @Test
  void rewrittenIsTheWritersUpdateWithItsChangesFieldByField() {
    TableDefinition before = table("delta", "a INT", List.of(), "s3://b/t");
    Table read = EntryReaderTest.stored(writer.newEntry(before, Optional.empty(), Optional.empty()));
    StoredTable older = new StoredTable(read.toBuilder().storageDescriptor(read.storageDescriptor().toBuilder()
        .location("s3://b/t-__PLACEHOLDER__").build()).build());
    TableDefinition after = withComment(table("delta", "a INT COMMENT 'the a', b STRING", List.of(), "s3://b/t"),
        "Orders");

    EntryUpdate update = EntryUpdate.rewritten(writer, older, after, Set.of(), Optional.empty());
    assertEquals(writer.updatedEntry(older.sdkTable(), after, Set.of(), Optional.empty()), update.sdkInput());
    assertEquals(List.of(
        "Description: (none) -> 'Orders' (6 bytes)",
        "StorageDescriptor.Location: 's3://b/t-__PLACEHOLDER__' -> 's3://b/t'",
        "StorageDescriptor.Columns: '(a int)' -> '(a int, b string)'",
        "StorageDescriptor.Columns.a.Comment: (none) -> 'the a' (5 bytes)",
        "Parameters.comment: (none) -> 'Orders'",
        // a value over 120 characters is cut to 117 and "..."
        "Parameters.spark.sql.sources.schema: "
            + "'{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"integer\",\"nullable\":true,\"metadata\":{}}]}' -> "
            + "'{\"type\":\"struct\",\"fields\":[{\"name\":\"a\",\"type\":\"integer\",\"nullable\":true,"
            + "\"metadata\":{\"comment\":\"the a\"}},{\"name\":\"b\",\"...'"), update.changes());

    assertEquals(List.of(), EntryUpdate.rewritten(writer, stored(writer.newEntry(after, Optional.empty(),
        Optional.empty())), after, Set.of(), Optional.empty()).changes(), "an entry as the log gives it");
  }

  @Test
  void longValuesAreCutAndCommentsShowTheirSize() {
    String longComment = "é".repeat(130);
    TableDefinition definition = table("delta", "a INT", List.of(), "s3://b/t");
    TableInput in = writer.newEntry(definition, Optional.empty(), Optional.empty());
    StoredTable older = stored(in.toBuilder().storageDescriptor(in.storageDescriptor().toBuilder()
        .columns(Column.builder().name("A").type("int").comment(longComment).build()).build()).build());

    List<String> changes = EntryUpdate.rewritten(writer, older, definition, Set.of(), Optional.empty()).changes();
    assertEquals(List.of("StorageDescriptor.Columns: '(A int)' -> '(a int)'",
        "StorageDescriptor.Columns.a.Comment: '" + "é".repeat(117) + "...' (260 bytes) -> (none)"), changes);
  }
}
