package io.gluecat.hive;

import io.gluecat.InvalidGlueEntryException;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GluePartitions;
import io.gluecat.storage.CatalogHadoopConf;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** Hive-format entries (crawlers', Athena's, Trino's Hive connector's) as the tables Spark reads and writes. */
public final class HiveTables {
  private HiveTables() {}

  /**
   * The table of a Hive-format entry, its location opened with the catalog's settings, its partitions read
   * from Glue when a scan lists its files and added there by its writes.
   *
   * @param catalog the catalog's name
   */
  public static HiveTable load(String catalog, TableName name, io.gluecat.entry.StoredTable stored,
      CatalogHadoopConf hadoop, GluePartitions partitions) {
    String qualified = catalog + "." + name;
    HiveEntry entry = HiveEntry.read(catalog, name.database(), stored, HiveTable.avroAvailable());
    refuseDeltaLocation(qualified, entry, hadoop.open(qualified, entry.location()));
    return new HiveTable(qualified, entry.serde(), entry.source(), entry.location(),
        hadoop.storageProperties(qualified, entry.source().options()), entry.properties(), stored,
        new GlueHivePartitions(partitions, name, qualified));
  }

  /**
   * A Hive-format entry is never replaced: its replacement would be an entry in Spark's format over new files,
   * which its other readers and writers (crawlers, Athena, Trino's Hive connector) no longer share. Other
   * entries pass.
   *
   * @param qualified catalog.database.table, for the message
   */
  public static void refuseReplacing(String qualified, io.gluecat.entry.StoredTable entry) {
    if (!entry.isHiveFormat()) {
      return;
    }
    String serde = entry.serializationLibrary().orElse(null);
    throw new UnsupportedOperationException(String.format("Table %s is a Hive-format table (SerDe %s); gluecat "
        + "does not replace it, because the replacement would rewrite its entry in Spark's format. Write its rows "
        + "with INSERT OVERWRITE, or drop it first (DROP TABLE never deletes data). Nothing was written.",
        qualified, serde));
  }

  /**
   * A crawler that finds a Delta table catalogs its files as a plain parquet table. Its files include the ones
   * Delta has removed, so reading them as parquet would return deleted rows: such an entry is refused.
   */
  private static void refuseDeltaLocation(String qualified, HiveEntry entry, FileSystem fs) {
    Path log = new Path(entry.location(), "_delta_log");
    boolean delta;
    try {
      delta = fs.exists(log);
    } catch (IOException e) {
      throw new UncheckedIOException(String.format("Cannot read the location of %s, %s: %s", qualified,
          entry.location(), e.getMessage()), e);
    }
    if (delta) {
      throw new InvalidGlueEntryException(String.format("Table %s is a Hive-format entry (SerDe %s, no "
          + "spark.sql.sources.provider), but its location %s holds a Delta table (%s): read as plain files it "
          + "would return rows Delta has removed. Drop the entry (the data stays) and register the table as a "
          + "Delta table with gluecat's 'register' tool.", qualified, entry.serde(), entry.location(), log));
    }
  }
}
