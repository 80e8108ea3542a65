package io.gluecat.files;

import io.gluecat.create.StagedGlueTable;
import io.gluecat.entry.TableDefinition;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;

/**
 * The staged table of a file source CTAS or replace: Spark hands it the query's rows, which are written at
 * the table's new location by Spark's own file source (partitioned, with the table's options); on commit
 * the Glue entry is created or switched to the new definition. Nothing reaches Glue unless the files were
 * written.
 */
public final class FileStagedTable implements StagedTable, SupportsWrite {
  private final String name;
  private final TableDefinition definition;
  private final Transform[] partitions;
  private final CatalogHadoopConf hadoop;
  private final StagedGlueTable.AfterCommit register;

  FileStagedTable(String name, TableDefinition definition, Transform[] partitions, CatalogHadoopConf hadoop,
      StagedGlueTable.AfterCommit register) {
    this.name = name;
    this.definition = definition;
    this.hadoop = hadoop;
    this.partitions = partitions;
    this.register = register;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public StructType schema() {
    return definition.schema();
  }

  @Override
  public Transform[] partitioning() {
    return partitions;
  }

  @Override
  public Map<String, String> properties() {
    return definition.properties();
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.V1_BATCH_WRITE, TableCapability.TRUNCATE);
  }

  /** The location was checked empty when the statement was staged, so appending and overwriting agree. */
  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new FileWriteTable.Builder(definition.provider(), definition.location(), definition.partitionColumns(),
        definition.bucketing(), hadoop.writeOptions(name, definition.storageProperties(),
        info.options().asCaseSensitiveMap()), () -> { });
  }

  @Override
  public void commitStagedChanges() {
    register.run();
  }

  @Override
  public void abortStagedChanges() {
    // nothing reached Glue; files a failed query may have written stay (gluecat never deletes data)
  }
}
