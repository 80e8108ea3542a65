package io.gluecat.create;

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
 * What gluecat hands Spark for CTAS, RTAS, saveAsTable and writeTo: Delta's own staged table for the
 * path identifier, wrapped so that Glue is written after Delta commits. Delta writes the query's data
 * inside its commit; if that fails, Spark aborts and Glue is never touched.
 */
public final class StagedGlueTable implements StagedTable, SupportsWrite {

  /** The Glue write that follows the data's commit. */
  public interface AfterCommit {
    void run();
  }

  private final String name;
  private final StagedTable delta;
  private final CatalogHadoopConf hadoop;
  private final AfterCommit afterCommit;

  public StagedGlueTable(String name, StagedTable delta, CatalogHadoopConf hadoop, AfterCommit afterCommit) {
    this.name = name;
    this.delta = delta;
    this.hadoop = hadoop;
    this.afterCommit = afterCommit;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  @SuppressWarnings("deprecation") // Table.schema() is what both Spark lines call on staged tables
  public StructType schema() {
    return delta.schema();
  }

  @Override
  public Transform[] partitioning() {
    return delta.partitioning();
  }

  @Override
  public Map<String, String> properties() {
    return delta.properties();
  }

  /** Delta's own capabilities: without them Spark would refuse to write into the staged table. */
  @Override
  public Set<TableCapability> capabilities() {
    return delta.capabilities();
  }

  /** Delta builds the Hadoop configuration of the write from its options: the catalog's settings go there. */
  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return ((SupportsWrite) delta).newWriteBuilder(hadoop.withDeltaWriteOptions(info));
  }

  @Override
  public void commitStagedChanges() {
    delta.commitStagedChanges();
    afterCommit.run();
  }

  @Override
  public void abortStagedChanges() {
    delta.abortStagedChanges();
  }
}
