package io.gluecat.glue;

import io.gluecat.entry.EntryFormat;
import java.util.Map;
import java.util.Objects;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * Entry writes of {@link GlueGateway}, as pure functions: whether a stored entry already holds a write (a retried
 * call whose answer was lost), and the entry as written, which the statement's cache keeps.
 */
final class WrittenEntries {
  private WrittenEntries() {}

  /**
   * Whether the entry in Glue already holds everything {@code input} writes: its location, columns,
   * partition keys, description and parameters. After a create or update whose answer was lost (a timeout
   * or reset once the server had applied it), the SDK's retry meets AlreadyExists or, for an update at a
   * VersionId, ConcurrentModification, although the change landed; that is not a failure. A different
   * change by someone else never matches, and then the error stands. {@code input} is the entry as sent
   * (its locations as Glue stores them).
   */
  static boolean holds(Table stored, TableInput input) {
    StorageDescriptor want = input.storageDescriptor();
    StorageDescriptor have = stored.storageDescriptor();
    boolean sameStorage = want == null ? have == null : have != null
        && Objects.equals(want.location(), have.location())
        && Objects.equals(want.columns(), have.columns())
        && Objects.equals(want.serdeInfo() == null ? null : want.serdeInfo().parameters(),
            have.serdeInfo() == null ? null : have.serdeInfo().parameters());
    Map<String, String> haveParameters = stored.hasParameters() ? stored.parameters() : Map.of();
    boolean sameParameters = !input.hasParameters() || input.parameters().entrySet().stream()
        .allMatch(p -> p.getValue().equals(haveParameters.get(p.getKey())));
    return sameStorage && sameParameters
        && Objects.equals(input.partitionKeys(), stored.partitionKeys())
        && EntryFormat.sameDescription(input.description(), stored.description());
  }

  /**
   * The entry as this catalog just wrote it, for the rest of the statement: what was sent, in the form it is
   * read in. Glue adds a VersionId and times of its own; the VersionId stays unknown (see GlueGateway.updateTable).
   */
  static Table asWritten(String database, TableInput input, Table before) {
    return Table.builder()
        .name(input.name())
        .databaseName(database)
        .description(input.description())
        .owner(input.owner())
        .createTime(before != null && before.createTime() != null ? before.createTime() : java.time.Instant.now())
        .updateTime(java.time.Instant.now())
        .lastAccessTime(input.lastAccessTime())
        .lastAnalyzedTime(input.lastAnalyzedTime())
        .retention(input.retention())
        .storageDescriptor(input.storageDescriptor())
        .partitionKeys(input.partitionKeys())
        .viewOriginalText(input.viewOriginalText())
        .viewExpandedText(input.viewExpandedText())
        .tableType(input.tableType())
        .parameters(input.parameters())
        .targetTable(input.targetTable())
        .build();
  }
}
