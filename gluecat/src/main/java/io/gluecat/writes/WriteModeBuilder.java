package io.gluecat.writes;

import java.util.List;
import java.util.Map;
import org.apache.spark.sql.connector.write.SupportsDynamicOverwrite;
import org.apache.spark.sql.connector.write.SupportsOverwrite;
import org.apache.spark.sql.connector.write.Write;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.sources.Filter;

/**
 * The write builder of every file write: records which {@link WriteMode} Spark asks for, checks an overwrite's
 * filters while the statement is planned (before anything is written), and builds the table kind's write.
 */
public final class WriteModeBuilder implements SupportsOverwrite, SupportsDynamicOverwrite {
  /** The table kind's write for a mode and an overwrite's filters (empty unless {@link WriteMode#OVERWRITE}). */
  public interface WriteFactory {
    Write build(WriteMode mode, Filter[] filters);
  }

  private final String table;
  private final String kind;
  private final List<String> partitionColumns;
  private final WriteFactory factory;
  private WriteMode mode = WriteMode.APPEND;
  private Filter[] filters = new Filter[0];

  /**
   * @param table catalog.database.table, for messages
   * @param kind how messages name the table's kind, e.g. "Hive-format table"
   */
  public WriteModeBuilder(String table, String kind, List<String> partitionColumns, WriteFactory factory) {
    this.table = table;
    this.kind = kind;
    this.partitionColumns = partitionColumns;
    this.factory = factory;
  }

  @Override
  public WriteBuilder overwrite(Filter[] filters) {
    for (Filter f : filters) {
      WriteMode.selects(table, kind, partitionColumns, f, Map.of());
    }
    this.mode = WriteMode.OVERWRITE;
    this.filters = filters.clone();
    return this;
  }

  /** An unpartitioned table has one "partition": a dynamic overwrite of it replaces the whole table. */
  @Override
  public WriteBuilder overwriteDynamicPartitions() {
    this.mode = partitionColumns.isEmpty() ? WriteMode.OVERWRITE : WriteMode.DYNAMIC;
    return this;
  }

  @Override
  public Write build() {
    return factory.build(mode, filters);
  }
}
