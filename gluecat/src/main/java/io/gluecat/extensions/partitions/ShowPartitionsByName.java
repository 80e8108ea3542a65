package io.gluecat.extensions.partitions;

import io.gluecat.catalog.GlueTarget;
import io.gluecat.compat.GlueCommandPlan;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.glue.PartitionExpressions;
import io.gluecat.hive.HiveTable;
import io.gluecat.partitions.PartitionSync;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.catalog.CatalogTableType;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.V1Table;
import org.apache.spark.sql.errors.QueryCompilationErrors;

/**
 * SHOW PARTITIONS [PARTITION (k = v, ...)] of a gluecat file source table or Hive-format table: the partition
 * objects Glue holds for it, as Hive names them ({@code k=v/k2=v2}, escaped as in directory names), sorted. A
 * spec is sent to Glue as a GetPartitions expression where Glue's grammar can say it (PartitionExpressions); the
 * answer is filtered by the spec either way. Delta tables are not served here: Delta answers for them itself.
 */
final class ShowPartitionsByName extends GlueCommandPlan {
  private final GlueTarget target;
  private final Table table;
  private final Map<String, String> spec;

  ShowPartitionsByName(GlueTarget target, Table table, Map<String, String> spec, List<Attribute> output) {
    super(output);
    this.target = target;
    this.table = table;
    this.spec = spec;
  }

  /** Whether SHOW PARTITIONS of {@code table} is gluecat's to answer: a file source table or a Hive-format table. */
  static boolean served(Table table) {
    if (table instanceof HiveTable) {
      return true;
    }
    return table instanceof V1Table v1 && v1.v1Table().tableType() != CatalogTableType.VIEW()
        && !v1.v1Table().provider().getOrElse(() -> "").equalsIgnoreCase("delta");
  }

  @Override
  protected List<Row> execute(SparkSession spark) throws Exception {
    String qualified = target.qualified();
    if (table instanceof HiveTable hive && hive.projected()) {
      throw new UnsupportedOperationException(String.format("SHOW PARTITIONS %s: the table uses partition "
          + "projection (projection.enabled), so its partitions are computed from its projection.* properties "
          + "when it is read and Glue keeps no list of them; query its partition columns instead "
          + "(SELECT DISTINCT ...).", qualified));
    }
    TableName name = target.catalog().tableName(target.ident());
    var glue = target.catalog().parts().glue();
    StoredTable entry = glue.getStoredTable(name);
    boolean keysInGlue = entry.isPartitioned();
    if (table instanceof V1Table v1 ? v1.v1Table().partitionColumnNames().isEmpty() : !keysInGlue) {
      throw (Exception) QueryCompilationErrors.showPartitionNotAllowedOnTableNotPartitionedError(qualified);
    }
    // a file source table in Spark's own form gets no partition objects (PartitionSync), its keys maybe none
    String noObjects = !(table instanceof V1Table) ? null : keysInGlue ? PartitionSync.notApplicable(entry)
        : "stored in Spark's own form (csv, json, text, or columns Hive cannot hold)";
    if (noObjects != null) {
      throw new UnsupportedOperationException(String.format("SHOW PARTITIONS %s: gluecat keeps no Glue partition "
          + "objects for this table, which is %s; its partitions are the directories under its location (SELECT "
          + "DISTINCT its partition columns to see them).", qualified, noObjects));
    }
    List<PartitionExpressions.Key> keys = PartitionExpressions.keys(entry);
    Map<String, String> wanted = normalized(spark, keys, qualified);
    Optional<List<String>> expressions = wanted.isEmpty() ? Optional.empty()
        : PartitionExpressions.selecting(keys, List.of(wanted));
    List<String> names = new ArrayList<>();
    for (List<String> values : glue.partitions().values(name, expressions)) {
      if (PartitionExpressions.selected(values, keys, List.of(wanted))) {
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < keys.size(); i++) {
          parts.add(ExternalCatalogUtils.getPartitionPathString(keys.get(i).name(), values.get(i)));
        }
        names.add(String.join("/", parts));
      }
    }
    List<Row> rows = new ArrayList<>();
    for (String partition : names.stream().sorted().toList()) {
      rows.add(RowFactory.create(partition));
    }
    return rows;
  }

  /** The spec by the table's key names; a key the table lacks fails as Spark fails it, naming the table. */
  private Map<String, String> normalized(SparkSession spark, List<PartitionExpressions.Key> keys, String qualified)
      throws Exception {
    boolean caseSensitive = spark.sessionState().conf().caseSensitiveAnalysis();
    Map<String, String> normalized = new LinkedHashMap<>();
    for (Map.Entry<String, String> e : spec.entrySet()) {
      Optional<String> key = keys.stream().map(PartitionExpressions.Key::name)
          .filter(k -> caseSensitive ? k.equals(e.getKey()) : k.equalsIgnoreCase(e.getKey())).findFirst();
      if (key.isEmpty()) {
        throw (Exception) QueryCompilationErrors.invalidPartitionColumnKeyInTableError(e.getKey(), qualified);
      }
      normalized.put(key.get(), e.getValue() == null ? ExternalCatalogUtils.DEFAULT_PARTITION_NAME() : e.getValue());
    }
    return normalized;
  }

  @Override
  public String simpleString(int maxFields) {
    return "ShowPartitionsByName " + target.qualified() + (spec.isEmpty() ? "" : " " + spec);
  }
}
