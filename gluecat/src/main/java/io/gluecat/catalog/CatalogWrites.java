package io.gluecat.catalog;

import io.gluecat.config.CatalogOptions;
import io.gluecat.entry.GlueEntry;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.files.FileWriteTable;
import io.gluecat.files.InsertTable;
import io.gluecat.files.WriterCall;
import io.gluecat.glue.GlueEntries;
import io.gluecat.glue.GlueGateway;
import io.gluecat.partitions.PartitionSync;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;

/**
 * Which table a load with write privileges gets ({@code loadTable(ident, writePrivileges)}, which Spark calls for
 * DataFrameWriter's {@code saveAsTable}/{@code insertInto} and for the target of SQL {@code INSERT}, on every
 * line). DataFrameWriter gets a file source table as a {@link FileWriteTable}, which keeps its write in this
 * catalog (see {@link WriterCall}); SQL {@code INSERT} into a partitioned Hive-compatible file source table gets an
 * {@link InsertTable}, which writes with Spark's file format writer and then syncs the Glue partitions in the
 * same statement (Spark's V1 insert of the {@code V1Table} would write without telling the catalog). Every other
 * load is the catalog's usual one.
 */
final class CatalogWrites {
  private final String name;
  private final CatalogOptions options;
  private final GlueEntries stored;
  private final CatalogHadoopConf hadoop;
  private final EntryCatalog entries;
  private final PartitionSync partitions;
  private final CatalogNames names;

  CatalogWrites(String name, CatalogOptions options, GlueGateway glue, CatalogHadoopConf hadoop, EntryCatalog entries,
      PartitionSync partitions, CatalogNames names) {
    this.name = name;
    this.options = options;
    this.stored = new GlueEntries(glue);
    this.hadoop = hadoop;
    this.entries = entries;
    this.partitions = partitions;
    this.names = names;
  }

  /**
   * Drops the statistics ANALYZE TABLE stored for a file source table about to be written: the write makes them
   * stale, and Spark's own catalog drops them after a write (its size auto-update is off by default). Done before
   * the write, because Spark's V1 insert would otherwise clear them in its built-in catalog, where the table is not.
   */
  void dropStatistics(Identifier ident) throws NoSuchTableException {
    TableName table = names.tableName(ident);
    Optional<StoredTable> raw = table == null ? Optional.empty() : stored.find(table);
    if (raw.isEmpty() || !raw.get().hasStatistics() || raw.get().isView() || raw.get().isHiveFormat()
        || raw.get().isDelta() || raw.get().isIceberg()) {
      return;
    }
    stored.updateStatistics(table, raw.get(), java.util.Map.of());
    names.forgetCachedRelation(table);
  }

  /** The table a write of {@code ident} gets, or null when it gets the catalog's usual table. */
  Table forWrite(Identifier ident) throws NoSuchTableException {
    Optional<WriterCall> call = WriterCall.current();
    TableName table = names.tableName(ident);
    if (table == null || (call.isEmpty() && !options.syncPartitionsAfterWrite())) {
      return null;
    }
    StoredTable raw = stored.get(table);
    if (raw.isIceberg()) {
      return null; // Iceberg's table, which Iceberg's catalog loads (CatalogIceberg)
    }
    if (call.isPresent()) {
      if (raw.isHiveFormat()) {
        return null; // a HiveTable, which Spark writes as any V2 table (HiveWrite)
      }
      GlueEntry entry = entries.entry(table, raw);
      return entry.isDelta() ? null : new FileWriteTable(name + "." + table, entry, call.get(), hadoop, () -> {
        names.forgetCachedRelation(table);
        if (options.syncPartitionsAfterWrite()) {
          partitions.afterWrite(table, raw, false);
        }
      });
    }
    if (raw.isView() || raw.isHiveFormat() || PartitionSync.notApplicable(raw) != null) {
      return null; // SQL INSERT keeps Spark's V1 insert of the V1Table
    }
    GlueEntry entry = entries.entry(table, raw);
    return entry.isDelta() ? null : new InsertTable(name + "." + table, entry, hadoop,
        entries.partitionCommands(table, raw, entry), (written, removed) -> {
      names.forgetCachedData(table, entry.location());
      partitions.afterInsert(table, raw, written, removed);
    });
  }
}
