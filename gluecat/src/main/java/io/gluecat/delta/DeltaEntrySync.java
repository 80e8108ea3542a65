package io.gluecat.delta;

import io.gluecat.GlueConcurrentModificationException;
import io.gluecat.compat.SparkCompat;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.EntryUpdate;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueEntries;
import io.gluecat.glue.GlueGateway;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Table;

/**
 * A Delta table's Glue entry rewritten from its log: columns, schema, partition columns and description as
 * Delta's latest snapshot has them, at the VersionId the entry was read with. {@link DeltaTables} uses it after
 * its creates, ALTERs and REFRESH, the {@link SchemaFollower} it owns when a log moved on without the entry.
 */
final class DeltaEntrySync {
  private final String catalog;
  private final GlueGateway glue;
  private final GlueEntries entries;
  private final CatalogHadoopConf hadoop;
  private final SchemaFollower follower;

  DeltaEntrySync(String catalog, GlueGateway glue, CatalogHadoopConf hadoop) {
    this.catalog = catalog;
    this.glue = glue;
    this.entries = new GlueEntries(glue);
    this.hadoop = hadoop;
    this.follower = new SchemaFollower(catalog, this::followLog);
  }

  SchemaFollower follower() {
    return follower;
  }

  /** Concurrent re-syncs of one entry: attempts before a VersionId conflict is reported. */
  private static final int RESYNC_ATTEMPTS = 5;

  /**
   * {@link #resync} after a change Delta committed: when another writer changed the entry meanwhile (its
   * VersionId moved on), the entry is read again and the columns recomputed from the log as it is now, so
   * the last re-sync to land always carries the latest log. Safe to repeat: it only copies the log.
   */
  void resyncLatest(TableName name, StoredTable entry, String location) {
    StoredTable current = entry;
    for (int attempt = 1; ; attempt++) {
      try {
        resync(name, current, location);
        return;
      } catch (GlueConcurrentModificationException e) {
        if (attempt >= RESYNC_ATTEMPTS) {
          throw e;
        }
        try {
          current = entries.get(name);
        } catch (NoSuchTableException gone) {
          throw new IllegalStateException(String.format("Table %s.%s disappeared from Glue while its columns were "
              + "being re-synced", catalog, name), gone);
        }
      }
    }
  }

  /**
   * Rewrites the entry's columns, schema, partition columns and description from the Delta table at
   * {@code location}, at the VersionId {@code entry} was read with; nothing is written when they already
   * match. Parameters the format does not own, the table properties among them, are kept.
   */
  void resync(TableName name, StoredTable entry, String location) {
    LogSchema log = logSchema(location);
    TableDefinition definition = definition(name, location, log, Map.of());
    EntryUpdate updated = EntryUpdate.rewritten(EntryWriter.forRunningSpark(), entry, definition, Set.of(),
        () -> entry.placeholderBase().or(() -> glue.databaseLocation(name.database())));
    if (!updated.keepsDefinition()) {
      try {
        entries.update(name.database(), updated, entry.versionId());
      } catch (NoSuchTableException e) {
        throw new IllegalStateException(String.format("Table %s.%s disappeared from Glue while it was being "
            + "updated", catalog, name), e);
      }
    }
    follower.synced(name, log);
  }

  /** Re-syncs the entry of {@code name} from its log, when it is still a Delta entry (SchemaFollower). */
  private void followLog(TableName name) {
    Optional<StoredTable> entry = entries.find(name);
    if (entry.isEmpty() || entry.get().isView() || !entry.get().isDelta()) {
      return; // dropped or replaced meanwhile: nothing of this log to follow
    }
    resyncLatest(name, entry.get(), EntryReader.read(catalog, name.database(), entry.get()).location());
  }

  /** What the entry is written from: the log's columns, partitioning and comment, and {@code properties}. */
  static TableDefinition definition(TableName name, String location, LogSchema log,
      Map<String, String> properties) {
    return new TableDefinition(name, EntryFormat.DELTA, log.schema, log.partitionColumns, location, log.comment,
        properties, Map.of());
  }

  /** What Glue keeps of the Delta table at {@code location}, from its latest snapshot (see LogSchema). */
  LogSchema logSchema(String location) {
    hadoop.open(location);
    // Opened with the catalog's settings as Delta options: rebuilding the snapshot may run on executors.
    Table delta = SparkCompat.deltaTableAt(SparkSession.active(), location, hadoop.deltaLogOptions());
    return LogSchema.of(SparkSession.active(),
        ((org.apache.spark.sql.delta.catalog.DeltaTableV2) delta).initialSnapshot());
  }
}
