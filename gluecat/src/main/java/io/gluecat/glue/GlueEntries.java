package io.gluecat.glue;

import io.gluecat.entry.EntryEdits;
import io.gluecat.entry.EntryUpdate;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.NewEntry;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;

/**
 * The gateway's table entry calls in gluecat's terms: entries read whole as {@link StoredTable}s and rewritten
 * from {@link EntryUpdate}s, for the tools (doctor, repair, register) and views, which stay off Glue's SDK model
 * (issue #42). Apart from GlueGateway, which is at its size limit.
 */
public final class GlueEntries {
  private final GlueGateway glue;

  public GlueEntries(GlueGateway glue) {
    this.glue = glue;
  }

  /** The entry at {@code name}, table or view; empty when nothing or no database is there. */
  public Optional<StoredTable> find(TableName name) {
    return glue.findTable(name).map(StoredTable::new);
  }

  /** The entry read with its statistics replaced, written at the version read ({@link GlueGateway#updateStatistics}). */
  public void updateStatistics(TableName name, StoredTable read, java.util.Map<String, String> statistics)
      throws NoSuchTableException {
    glue.updateStatistics(name, read, statistics);
  }

  /** The entry at {@code name}, table or view. */
  public StoredTable get(TableName name) throws NoSuchTableException {
    return glue.getStoredTable(name);
  }

  /** Every entry of the database, tables and views, as one paged listing returns them. */
  public List<StoredTable> list(String database) throws NoSuchNamespaceException {
    return glue.listTables(database).stream().map(StoredTable::new).toList();
  }

  /**
   * Writes {@code update} over the entry, but only if it is still at {@code versionId}
   * ({@link GlueGateway#updateTable}): a concurrent change is never overwritten.
   */
  public void update(String database, EntryUpdate update, String versionId) throws NoSuchTableException {
    glue.updateTable(database, update.sdkInput(), versionId);
  }

  /**
   * A new entry of {@code definition}, in the form {@code writer} writes ({@link EntryWriter#newEntry}); Glue refuses
   * it when the name is taken.
   */
  public void create(String database, EntryWriter writer, TableDefinition definition, Optional<String> owner,
      Optional<String> databaseLocation) throws TableAlreadyExistsException, NoSuchNamespaceException {
    create(database, NewEntry.of(writer, definition, owner, databaseLocation));
  }

  /** Creates {@code entry}; Glue refuses it when the name is taken. */
  public void create(String database, NewEntry entry) throws TableAlreadyExistsException, NoSuchNamespaceException {
    glue.createTable(database, entry.sdkInput());
  }

  /** RENAME's first step: {@code existing} entered again under {@code target}, every other field as it was. */
  public void createRenamed(StoredTable existing, TableName target)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    glue.createTable(target.database(), EntryEdits.renamed(existing.sdkTable(), target.table()));
  }
}
