package io.gluecat.hive;

import static io.gluecat.hive.ProjectionTypes.ENABLED;
import static io.gluecat.hive.ProjectionTypes.MAX_PARTITIONS;
import static io.gluecat.hive.ProjectionTypes.refused;

import io.gluecat.hive.ProjectionTypes.Column;
import io.gluecat.hive.ProjectionTypes.Value;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Athena's partition projection: an entry with {@code projection.enabled = true} has the partitions its
 * {@code projection.<key>.*} parameters describe, at the locations {@code storage.location.template} gives
 * (Hive's {@code key=value} directories under the table without one), and Athena and Trino never ask Glue
 * for them. The parameters are checked when the entry is read; the values are computed when a scan lists
 * its files, pruned by the scan's partition filters key by key before any location is listed. Each key's
 * parameters and values are its projection type's ({@link ProjectionTypes}); this class combines the keys.
 */
public final class PartitionProjection {
  static final String LOCATION_TEMPLATE = "storage.location.template";
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\{([^}]+)}");

  /** One partition: its values (Hive's strings, in key order) and its location. */
  record Partition(List<String> values, String location) {}

  /** Keeps the rows of one key's candidate values, or of whole partitions, that the filters may match. */
  interface Pruner {
    /** The indexes of {@code values} (strings for the keys of {@code schema}) the filters may match. */
    List<Integer> matching(StructType schema, List<List<String>> values, List<Expression> filters);
  }

  private final String table;
  private final String location;
  private final Optional<String> template;
  private final StructType keys;
  private final List<Column> columns;

  private PartitionProjection(String table, String location, Optional<String> template, StructType keys,
      List<Column> columns) {
    this.table = table;
    this.location = location;
    this.template = template;
    this.keys = keys;
    this.columns = columns;
  }

  /**
   * The projection of an entry, when its parameters enable one; refused, naming the table, key and parameter,
   * when they do not describe every partition key.
   */
  static Optional<PartitionProjection> of(String table, Map<String, String> parameters, String location,
      List<StructField> keys) {
    if (keys.isEmpty() || !"true".equalsIgnoreCase(String.valueOf(parameters.get(ENABLED)).trim())) {
      return Optional.empty();
    }
    List<Column> columns = new ArrayList<>();
    for (StructField key : keys) {
      columns.add(ProjectionTypes.column(table, parameters, key));
    }
    Optional<String> template = Optional.ofNullable(parameters.get(LOCATION_TEMPLATE)).map(String::trim)
        .filter(t -> !t.isEmpty());
    if (template.isPresent()) {
      for (StructField key : keys) {
        if (!template.get().contains("${" + key.name() + "}")) {
          throw refused(table, String.format("has %s = '%s' without the placeholder ${%s} of its partition key "
              + "'%s'", LOCATION_TEMPLATE, template.get(), key.name(), key.name()));
        }
      }
    }
    return Optional.of(new PartitionProjection(table, location, template,
        new StructType(keys.toArray(new StructField[0])), columns));
  }

  /** The partitions the filters may match, each key's values pruned before they are combined. */
  List<Partition> partitions(List<Expression> filters, Pruner pruner) {
    List<List<Value>> perKey = new ArrayList<>();
    long combinations = 1;
    for (int i = 0; i < columns.size(); i++) {
      List<Value> candidates = columns.get(i).values(filters);
      StructType one = new StructType(new StructField[] {keys.fields()[i]});
      List<List<String>> rows = candidates.stream().map(v -> List.of(v.value())).toList();
      List<Value> kept = new ArrayList<>();
      for (int index : pruner.matching(one, rows, filters)) {
        kept.add(candidates.get(index));
      }
      perKey.add(kept);
      combinations *= kept.size();
      if (combinations > MAX_PARTITIONS) {
        throw new IllegalArgumentException(String.format("Table %s projects more than %d partitions for this "
            + "query (partition projection); filter its partition keys %s", table, MAX_PARTITIONS,
            java.util.Arrays.toString(keys.fieldNames())));
      }
    }
    List<List<Value>> product = new ArrayList<>();
    product.add(List.of());
    for (List<Value> values : perKey) {
      List<List<Value>> next = new ArrayList<>();
      for (List<Value> prefix : product) {
        for (Value v : values) {
          List<Value> longer = new ArrayList<>(prefix);
          longer.add(v);
          next.add(longer);
        }
      }
      product = next;
    }
    List<List<String>> rows = product.stream().map(p -> p.stream().map(Value::value).toList()).toList();
    List<Partition> partitions = new ArrayList<>();
    for (int index : pruner.matching(keys, rows, filters)) {
      partitions.add(new Partition(rows.get(index), location(product.get(index))));
    }
    return partitions;
  }

  private String location(List<Value> values) {
    if (template.isPresent()) {
      // values go into a template as they are: the template decides the layout (Athena does not escape them)
      Matcher m = PLACEHOLDER.matcher(template.get());
      StringBuilder out = new StringBuilder();
      while (m.find()) {
        int index = java.util.Arrays.asList(keys.fieldNames()).indexOf(m.group(1));
        m.appendReplacement(out, Matcher.quoteReplacement(index < 0 ? m.group() : values.get(index).inLocation()));
      }
      m.appendTail(out);
      return out.toString();
    }
    StringBuilder out = new StringBuilder(location.endsWith("/") ? location : location + "/");
    for (int i = 0; i < values.size(); i++) {
      out.append(i == 0 ? "" : "/").append(ExternalCatalogUtils.escapePathName(keys.fields()[i].name())).append('=')
          .append(ExternalCatalogUtils.escapePathName(values.get(i).inLocation()));
    }
    return out.toString();
  }

  /** For messages and tests: the keys' names in order. */
  @Override
  public String toString() {
    Map<String, String> shown = new LinkedHashMap<>();
    for (StructField f : keys.fields()) {
      shown.put(f.name(), f.dataType().simpleString());
    }
    return "PartitionProjection(" + table + ", " + shown + template.map(t -> ", " + t).orElse("") + ")";
  }
}
