package io.gluecat.glue;

import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.entry.ViewEntry;
import io.gluecat.entry.ViewFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;

/**
 * The gateway's entry calls in the terms {@code views.GlueViews} speaks: entries read whole as
 * {@link StoredTable}s and views written from {@link ViewEntry}s through {@link ViewFormat}, so that views stay
 * off Glue's SDK model (issue #42). Apart from GlueGateway, which is at its size limit.
 */
public final class GlueViewEntries {
  private final GlueGateway glue;
  private final GlueEntries entries;

  public GlueViewEntries(GlueGateway glue) {
    this.glue = glue;
    this.entries = new GlueEntries(glue);
  }

  /** The entry at {@code name}, table or view; empty when nothing or no database is there. */
  public Optional<StoredTable> find(TableName name) {
    return entries.find(name);
  }

  /** Every entry of the database, tables and views, as one listing returns them. */
  public List<StoredTable> list(String database) throws NoSuchNamespaceException {
    return entries.list(database);
  }

  /** Creates {@code view}'s entry, {@link ViewFormat#newEntry} of it. */
  public void create(String database, ViewEntry view, String sparkVersion, int schemaThreshold)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    glue.createTable(database, ViewFormat.newEntry(view, sparkVersion, schemaThreshold));
  }

  /**
   * Rewrites {@code existing} to define {@code view} ({@link ViewFormat#updatedEntry}, which keeps the entry's
   * other parameters and its owner), at the VersionId it was read at.
   */
  public void update(String database, StoredTable existing, ViewEntry view, Set<String> removedProperties,
      int schemaThreshold) throws NoSuchTableException {
    glue.updateTable(database, ViewFormat.updatedEntry(existing.sdkTable(), view, removedProperties,
        schemaThreshold), existing.versionId());
  }

  /** A rename's first step, as for tables ({@link GlueEntries#createRenamed}). */
  public void createRenamed(StoredTable entry, TableName to)
      throws TableAlreadyExistsException, NoSuchNamespaceException {
    entries.createRenamed(entry, to);
  }
}
