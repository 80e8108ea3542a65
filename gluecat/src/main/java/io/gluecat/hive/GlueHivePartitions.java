package io.gluecat.hive;

import io.gluecat.GlueCatalogException;
import io.gluecat.entry.NewPartition;
import io.gluecat.entry.StoredPartition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GluePartitions;
import java.util.List;
import java.util.Optional;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;

/** One Hive-format table's partitions, bound to its catalog's Glue partition calls. */
final class GlueHivePartitions implements HivePartitions {
  private final GluePartitions glue;
  private final TableName name;
  private final String qualified;

  GlueHivePartitions(GluePartitions glue, TableName name, String qualified) {
    this.glue = glue;
    this.name = name;
    this.qualified = qualified;
  }

  @Override
  public List<StoredPartition> partitions(Optional<String> expression) {
    try {
      // a listing no filter narrows reads every partition: in parallel segments
      return expression.isPresent() ? glue.list(name, expression) : glue.listAll(name);
    } catch (NoSuchTableException e) {
      throw new GlueCatalogException(String.format("Table %s was dropped while it was read", qualified), e);
    }
  }

  @Override
  public List<StoredPartition> partitions(List<String> expressions) {
    try {
      return glue.list(name, expressions);
    } catch (NoSuchTableException e) {
      throw new GlueCatalogException(String.format("Table %s was dropped while it was written", qualified), e);
    }
  }

  @Override
  public void create(List<NewPartition> partitions) {
    glue.create(name, partitions);
  }

  @Override
  public void delete(List<List<String>> values) {
    glue.delete(name, values);
  }
}
