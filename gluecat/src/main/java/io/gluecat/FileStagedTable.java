package io.gluecat;

import io.gluecat.entry.TableDefinition;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.V1Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.InsertableRelation;
import org.apache.spark.sql.types.StructType;

/**
 * The staged table of a file source CTAS: Spark hands it the query's rows, which are written at the
 * table's location by Spark's own file source (partitioned, with the table's options); on commit the Glue
 * entry is created. Nothing reaches Glue unless the files were written.
 */
final class FileStagedTable implements StagedTable, SupportsWrite {
  private final String name;
  private final TableDefinition definition;
  private final Transform[] partitions;
  private final StagedGlueTable.AfterCommit register;

  FileStagedTable(String name, TableDefinition definition, Transform[] partitions,
      StagedGlueTable.AfterCommit register) {
    this.name = name;
    this.definition = definition;
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
    return Set.of(TableCapability.V1_BATCH_WRITE);
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    return new WriteBuilder() {
      @Override
      public V1Write build() {
        return () -> (InsertableRelation) (data, overwrite) -> write(data);
      }
    };
  }

  private void write(Dataset<Row> data) {
    data.write()
        .format(definition.provider())
        .options(definition.storageProperties())
        .partitionBy(definition.partitionColumns().toArray(new String[0]))
        .mode("append") // the location was checked empty when the CTAS was staged
        .save(definition.location());
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
