package io.gluecat.catalog;

import io.gluecat.config.CatalogOptions;
import io.gluecat.delta.DeltaTables;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueGateway;
import io.gluecat.partitions.PartitionSync;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.Map;

/**
 * The pieces of an initialized catalog that gluecat's command-line tools ({@code io.gluecat.tools}) reuse,
 * so that they read Glue, open locations and describe Delta tables exactly as the catalog does: its
 * options, its Glue gateway, its Hadoop settings, and the table definition Delta's log gives. Not for
 * Spark; a catalog hands it out through {@link AbstractGlueCatalog#parts()}.
 */
public final class CatalogParts {
  private final CatalogOptions options;
  private final GlueGateway glue;
  private final CatalogHadoopConf hadoop;
  private final DeltaTables deltaTables;
  private final PartitionSync partitionSync;

  CatalogParts(CatalogOptions options, GlueGateway glue, CatalogHadoopConf hadoop, DeltaTables deltaTables,
      PartitionSync partitionSync) {
    this.options = options;
    this.glue = glue;
    this.hadoop = hadoop;
    this.deltaTables = deltaTables;
    this.partitionSync = partitionSync;
  }

  public CatalogOptions options() { return options; }
  public GlueGateway glue() { return glue; }
  public CatalogHadoopConf hadoop() { return hadoop; }
  /** The catalog's Glue partition sync (what its writes run; the tools' repair --partitions). */
  public PartitionSync partitionSync() { return partitionSync; }

  /**
   * The table as the Delta log at {@code location} describes it now (columns, partition columns, comment),
   * with {@code properties} as its user properties, read by Delta itself (the active SparkSession's Delta)
   * after the location's file system was opened with this catalog's settings. The same definition the
   * catalog writes on CREATE and REFRESH.
   */
  public TableDefinition deltaDefinition(TableName name, String location, Map<String, String> properties) {
    return deltaTables.definitionFromDelta(name, location, properties);
  }
}
