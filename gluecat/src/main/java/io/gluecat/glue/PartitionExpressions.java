package io.gluecat.glue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import io.gluecat.entry.StoredTable;
import software.amazon.awssdk.services.glue.model.Column;

/**
 * Glue's GetPartitions {@code Expression} grammar as gluecat writes it, in one place: which keys and values it
 * can name, how literals are written, how parts combine, its size limit. A scan's filters
 * ({@code hive.PartitionFilters}) and the partitions a write, {@code SHOW PARTITIONS} or partition DDL select
 * by value ({@link #selecting}) are both written through it. An expression only narrows a listing: where the
 * grammar cannot say something, the result is empty and the caller leaves that part out or lists every
 * partition, then keeps what it asked for from Glue's answer.
 *
 * <p>A spec is a partition's values by key name (Glue's values: unescaped, {@code __HIVE_DEFAULT_PARTITION__}
 * for null); a key it does not name may have any value.
 */
public final class PartitionExpressions {
  /** A partition key: its name and its type as Glue keeps it (Hive's names: string, int, bigint, date, ...). */
  public record Key(String name, String type) {}

  /** Glue's limit on an expression, in bytes. */
  public static final int MAX_BYTES = 2048;

  /**
   * Key types Glue's expressions compare by value: strings and dates quoted, integers bare. Timestamps are left
   * out: Spark reads a partition's timestamp string in the session's time zone, which Glue does not know.
   */
  private static final Set<String> TYPES = Set.of("string", "int", "bigint", "smallint", "tinyint", "date");
  private static final Set<String> QUOTED = Set.of("string", "date");

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

  private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
  private static final Pattern INTEGER = Pattern.compile("-?[0-9]+");
  private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{2}-[0-9]{2}");
  private static final Set<String> OPERATORS = Set.of("=", "<", "<=", ">", ">=");

  private PartitionExpressions() {}

  /** Whether Glue's expression parser reads {@code name} as one of its words (so it cannot name a key). */
  public static boolean isReserved(String name) {
    return RESERVED.contains(name.toLowerCase(Locale.ROOT));
  }

  /** Whether Glue's expressions compare keys of this Glue type by value. */
  public static boolean isComparable(String type) {
    return TYPES.contains(normalized(type));
  }

  /** The key as an expression names it, or empty: a type Glue does not compare, a word of its parser, no plain name. */
  public static Optional<String> name(Key key) {
    return isComparable(key.type()) && !isReserved(key.name()) && NAME.matcher(key.name()).matches()
        ? Optional.of(key.name().toLowerCase(Locale.ROOT)) : Optional.empty();
  }

  /**
   * A value (as Glue keeps it: {@code 2024-03-01}, {@code 7}) as a literal of the key's type, or empty: null, a
   * quote or backslash (which the literal would have to escape), or no value of the type.
   */
  public static Optional<String> literal(Key key, String value) {
    String type = normalized(key.type());
    if (!TYPES.contains(type) || value == null || value.contains("'") || value.contains("\\")) {
      return Optional.empty();
    }
    if (QUOTED.contains(type)) {
      return type.equals("date") && !DATE.matcher(value).matches() ? Optional.empty() : Optional.of("'" + value + "'");
    }
    return INTEGER.matcher(value).matches() ? Optional.of(value) : Optional.empty();
  }

  /** {@code key <operator> literal} ({@code = < <= > >=}), or empty when Glue's grammar cannot say it. */
  public static Optional<String> comparison(Key key, String operator, String value) {
    if (!OPERATORS.contains(operator)) {
      return Optional.empty();
    }
    return name(key).flatMap(n -> literal(key, value).map(l -> n + " " + operator + " " + l));
  }

  /** {@code key IN (literal, ...)}, or empty when the list is empty or a value has no literal. */
  public static Optional<String> in(Key key, List<String> values) {
    Optional<String> name = name(key);
    if (name.isEmpty() || values.isEmpty()) {
      return Optional.empty();
    }
    List<String> literals = new ArrayList<>();
    for (String value : values) {
      Optional<String> literal = literal(key, value);
      if (literal.isEmpty()) {
        return Optional.empty();
      }
      literals.add(literal.get());
    }
    return Optional.of(name.get() + " IN (" + String.join(", ", literals) + ")");
  }

  /** Expressions joined by AND, each in parentheses (any may hold an OR); one alone as it is. */
  public static String and(List<String> expressions) {
    return expressions.size() == 1 ? expressions.get(0) : "(" + String.join(") AND (", expressions) + ")";
  }

  /** Two expressions joined by OR, each in parentheses. */
  public static String or(String left, String right) {
    return "(" + left + ") OR (" + right + ")";
  }

  /** Whether Glue takes an expression this long. */
  public static boolean fits(CharSequence expression) {
    return bytes(expression) <= MAX_BYTES;
  }

  /** A Glue entry's partition keys, of an entry kept whole. */
  public static List<Key> keys(StoredTable entry) {
    return keys(entry.sdkTable().partitionKeys());
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
   * The expressions that together select exactly the partitions of {@code specs} ({@code (k1 = 'a' AND k2 = 1) OR
   * (...)}; with a partial spec, every partition that has its values), each within Glue's limit: as many calls as
   * the specs need, however many partitions the table has. Empty, so that the caller lists every partition, when
   * a key or value cannot be written in the grammar (a null value among them), when a spec names no key (it
   * selects every partition), or when there is no spec.
   */
  public static Optional<List<String>> selecting(List<Key> keys, Collection<Map<String, String>> specs) {
    if (specs.isEmpty()) {
      return Optional.empty();
    }
    List<String> terms = new ArrayList<>();
    for (Map<String, String> spec : specs) {
      List<String> equal = new ArrayList<>();
      for (Key key : keys) {
        if (!spec.containsKey(key.name())) {
          continue;
        }
        String value = spec.get(key.name());
        // Hive's null, which the grammar has no literal for
        Optional<String> comparison = ExternalCatalogUtils.DEFAULT_PARTITION_NAME().equals(value) ? Optional.empty()
            : comparison(key, "=", value);
        if (comparison.isEmpty()) {
          return Optional.empty();
        }
        equal.add(comparison.get());
      }
      if (equal.isEmpty()) {
        return Optional.empty();
      }
      terms.add(equal.size() == 1 ? equal.get(0) : "(" + String.join(" AND ", equal) + ")");
    }
    List<String> expressions = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String term : terms) {
      if (!fits(term)) {
        return Optional.empty();
      }
      if (current.length() > 0 && !fits(current + " OR " + term)) {
        expressions.add(current.toString());
        current.setLength(0);
      }
      current.append(current.length() > 0 ? " OR " : "").append(term);
    }
    expressions.add(current.toString());
    return Optional.of(expressions);
  }

  /** Whether a partition's values (in key order) are those of one of {@code specs}. */
  public static boolean selected(List<String> values, List<Key> keys, Collection<Map<String, String>> specs) {
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

  private static String normalized(String type) {
    return type == null ? "" : type.trim().toLowerCase(Locale.ROOT);
  }

  private static int bytes(CharSequence s) {
    return s.toString().getBytes(StandardCharsets.UTF_8).length;
  }
}
