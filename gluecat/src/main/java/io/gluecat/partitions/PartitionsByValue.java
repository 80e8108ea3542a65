package io.gluecat.partitions;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.Partition;

/**
 * Glue partitions asked for by their values rather than listed: the GetPartitions expressions that select
 * exactly the partitions a write touched ({@code (k1 = 'a' AND k2 = 1) OR (...)}), or those a static overwrite's
 * values select (a spec that names some keys only). Both writes that add partitions use it: the partition sync
 * after a file source INSERT ({@link PartitionSync#afterInsert}) and the Hive-format write. A write's cost in
 * Glue thus follows the partitions it wrote, not the partitions the table has.
 *
 * <p>A spec is a partition's values by key name (Glue's values: unescaped, {@code __HIVE_DEFAULT_PARTITION__}
 * for null); a key it does not name may have any value.
 */
public final class PartitionsByValue {
  /** A partition key: its name and its type as Glue keeps it (Hive's names: string, int, bigint, date, ...). */
  public record Key(String name, String type) {}

  /** Glue's limit on a GetPartitions expression, in bytes. */
  public static final int MAX_EXPRESSION_BYTES = 2048;

  /** Key types whose values an expression compares as Glue does: strings and dates quoted, integers as numbers. */
  private static final Set<String> TYPES = Set.of("string", "int", "bigint", "smallint", "tinyint", "date");

  /**
   * Words of the SQL parser Glue evaluates expressions with (JSqlParser): a key of that name cannot be named in an
   * expression. Lower case; {@link #isReserved} compares ignoring case.
   */
  private static final Set<String> RESERVED = Set.of("as", "by", "do", "is", "in", "or", "on", "all", "and", "any",
      "key", "not", "set", "asc", "top", "end", "desc", "into", "null", "like", "drop", "join", "left", "from",
      "open", "case", "when", "then", "else", "some", "full", "with", "table", "where", "using", "union", "group",
      "begin", "index", "inner", "limit", "outer", "order", "right", "delete", "create", "select", "offset",
      "exists", "having", "insert", "update", "values", "escape", "primary", "natural", "replace", "between",
      "truncate", "distinct", "intersect");

  private PartitionsByValue() {}

  /** Whether Glue's expression parser reads {@code name} as one of its words (so it cannot name a key). */
  public static boolean isReserved(String name) {
    return RESERVED.contains(name.toLowerCase(Locale.ROOT));
  }

  /** A Glue entry's partition keys. */
  public static List<Key> keys(List<Column> columns) {
    return columns.stream().map(c -> new Key(c.name(), c.type())).toList();
  }

  /** A partition's values (in key order) as a spec naming every key. */
  public static Map<String, String> spec(List<Key> keys, List<String> values) {
    Map<String, String> spec = new LinkedHashMap<>();
    for (int i = 0; i < keys.size() && i < values.size(); i++) {
      spec.put(keys.get(i).name(), values.get(i));
    }
    return spec;
  }

  /**
   * The GetPartitions expressions that together select exactly the partitions of {@code specs} (with those of a
   * partial spec, every partition that has its values), each within Glue's limit: as many calls as the specs
   * need, however many partitions the table has. Empty, so that the caller lists every partition, when a key's
   * name or type, or a value, cannot be written in Glue's grammar (a timestamp or decimal key, a null value, a
   * quote), when a spec names no key (it selects every partition), or when there is no spec.
   */
  public static Optional<List<String>> expressions(List<Key> keys, Collection<Map<String, String>> specs) {
    if (specs.isEmpty()) {
      return Optional.empty();
    }
    List<String> terms = new ArrayList<>();
    for (Map<String, String> spec : specs) {
      List<String> ands = new ArrayList<>();
      for (Key key : keys) {
        if (!spec.containsKey(key.name())) {
          continue;
        }
        Optional<String> comparison = comparison(key, spec.get(key.name()));
        if (comparison.isEmpty()) {
          return Optional.empty();
        }
        ands.add(comparison.get());
      }
      if (ands.isEmpty()) {
        return Optional.empty();
      }
      terms.add(ands.size() == 1 ? ands.get(0) : "(" + String.join(" AND ", ands) + ")");
    }
    List<String> expressions = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String term : terms) {
      if (bytes(term) > MAX_EXPRESSION_BYTES) {
        return Optional.empty();
      }
      if (current.length() > 0 && bytes(current) + bytes(" OR ") + bytes(term) > MAX_EXPRESSION_BYTES) {
        expressions.add(current.toString());
        current.setLength(0);
      }
      current.append(current.length() > 0 ? " OR " : "").append(term);
    }
    expressions.add(current.toString());
    return Optional.of(expressions);
  }

  /** {@code key = literal}, or empty when Glue's grammar cannot say it. */
  private static Optional<String> comparison(Key key, String value) {
    String type = key.type() == null ? "" : key.type().trim().toLowerCase(Locale.ROOT);
    if (!TYPES.contains(type) || isReserved(key.name()) || !key.name().matches("[A-Za-z_][A-Za-z0-9_]*")
        || value == null || value.equals(ExternalCatalogUtils.DEFAULT_PARTITION_NAME()) || value.contains("'")
        || value.contains("\\")) {
      return Optional.empty();
    }
    boolean quoted = type.equals("string") || type.equals("date");
    if ((!quoted && !value.matches("-?[0-9]+")) || (type.equals("date") && !value.matches("[0-9]{4}-[0-9]{2}-[0-9]{2}"))) {
      return Optional.empty();
    }
    return Optional.of(key.name().toLowerCase(Locale.ROOT) + " = " + (quoted ? "'" + value + "'" : value));
  }

  private static int bytes(CharSequence s) {
    return s.toString().getBytes(StandardCharsets.UTF_8).length;
  }

  /** Whether a partition has the values of one of {@code specs} (as strings, as Glue keeps them). */
  public static boolean selected(Partition partition, List<Key> keys, Collection<Map<String, String>> specs) {
    List<String> values = partition.hasValues() ? partition.values() : List.of();
    for (Map<String, String> spec : specs) {
      boolean all = true;
      for (int i = 0; i < keys.size() && all; i++) {
        String want = spec.get(keys.get(i).name());
        all = !spec.containsKey(keys.get(i).name()) || (i < values.size() && want != null && want.equals(values.get(i)));
      }
      if (all && values.size() == keys.size()) {
        return true;
      }
    }
    return false;
  }
}
