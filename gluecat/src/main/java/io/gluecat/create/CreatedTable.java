package io.gluecat.create;

import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * What createTable returns when the table was created (its Glue entry written) but loading it back failed,
 * for example because Glue refused or throttled that one GetTable: the create itself succeeded, so it is not
 * reported as failed. Spark's CREATE TABLE does not use the returned table; the next statement loads the
 * table again.
 */
public final class CreatedTable implements Table {
  private final String name;
  private final StructType schema;
  private final Transform[] partitions;
  private final Map<String, String> properties;

  public CreatedTable(String name, StructType schema, Transform[] partitions, Map<String, String> properties) {
    this.name = name;
    this.schema = schema;
    this.partitions = partitions;
    this.properties = Map.copyOf(properties);
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  @SuppressWarnings("deprecation")
  public StructType schema() {
    return schema;
  }

  @Override
  public Transform[] partitioning() {
    return partitions;
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of();
  }
}
