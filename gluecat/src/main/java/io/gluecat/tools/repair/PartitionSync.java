package io.gluecat.tools.repair;

import io.gluecat.CatalogParts;
import io.gluecat.TableName;
import java.util.Optional;
import java.util.ServiceLoader;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * The seam for {@code repair --partitions}: bringing the Glue partition objects of a partitioned parquet or
 * orc table in line with the directories under its location. This build has no implementation; the
 * partition sync of the catalog plugs in here (a class named in
 * {@code META-INF/services/io.gluecat.tools.repair.PartitionSync}, or {@link #use}), and repair calls it for
 * every non-Delta entry with partition columns.
 */
public interface PartitionSync {

  /**
   * Syncs one table's partitions; {@code dryRun} reports without writing.
   *
   * @return one line saying what changed (or would change), for repair's output
   */
  String sync(CatalogParts parts, TableName table, Table entry, boolean dryRun);

  /** The implementation in use: one set by {@link #use}, else the first one ServiceLoader finds. */
  static Optional<PartitionSync> find() {
    if (Holder.chosen != null) {
      return Optional.of(Holder.chosen);
    }
    return ServiceLoader.load(PartitionSync.class).findFirst();
  }

  /** Sets the implementation (for a build that wires one in code rather than by ServiceLoader). */
  static void use(PartitionSync sync) {
    Holder.chosen = sync;
  }

  /** Where {@link #use} keeps its choice. */
  final class Holder {
    private static volatile PartitionSync chosen;

    private Holder() {}
  }
}
