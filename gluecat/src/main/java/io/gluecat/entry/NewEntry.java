package io.gluecat.entry;

import java.util.Optional;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * An entry about to be created, in the form the entry format writes for a definition ({@link EntryWriter#newEntry}),
 * for code outside {@code glue} and {@code entry} (issue #42): {@code glue} sends it ({@link #sdkInput}), and what
 * reads the entry right after (the partition sync) gets it as Glue will hold it ({@link #written}).
 */
public final class NewEntry {
  private final TableInput input;

  private NewEntry(TableInput input) {
    this.input = input;
  }

  /** The entry of {@code definition} as {@code writer} writes a new one. */
  public static NewEntry of(EntryWriter writer, TableDefinition definition, Optional<String> owner,
      Optional<String> databaseLocation) {
    return new NewEntry(writer.newEntry(definition, owner, databaseLocation));
  }

  /** The entry to send, for {@code glue} only. */
  public TableInput sdkInput() { return input; }

  /** The entry as Glue holds it once created ({@link StoredTable#written}). */
  public StoredTable written() { return StoredTable.written(input); }
}
