package io.gluecat.hive;

import io.gluecat.InvalidGlueEntryException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.expressions.Cast;
import org.apache.spark.sql.catalyst.expressions.EqualNullSafe;
import org.apache.spark.sql.catalyst.expressions.EqualTo;
import org.apache.spark.sql.catalyst.expressions.Expression;
import org.apache.spark.sql.catalyst.expressions.In;
import org.apache.spark.sql.catalyst.expressions.InSet;
import org.apache.spark.sql.catalyst.expressions.Literal;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.DateType;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.TimestampType;

/**
 * Athena's projection types (enum, integer, date, injected): one partition key's {@code projection.<key>.*}
 * parameters, checked when the entry is read, to the key's candidate values for a scan; PartitionProjection
 * combines the keys into partitions and locations (and uses this class, never the other way).
 */
final class ProjectionTypes {
  static final String ENABLED = "projection.enabled";
  /** Beyond this many partitions a scan is refused rather than listing them all (Athena has a limit too). */
  static final int MAX_PARTITIONS = 1_000_000;

  private ProjectionTypes() {}

  static InvalidGlueEntryException refused(String table, String problem) {
    return new InvalidGlueEntryException("Table " + table + " uses Athena's partition projection and " + problem + ".");
  }

  /** Athena's relative date bounds: NOW, NOW-3DAYS, NOW + 1 YEAR. */
  private static final Pattern NOW = Pattern.compile(
      "\\s*NOW\\s*(?:([+-])\\s*(\\d+)\\s*(YEAR|MONTH|WEEK|DAY|HOUR|MINUTE|SECOND)S?\\s*)?", Pattern.CASE_INSENSITIVE);

  /** A value of one key: as the partition's value, and as it is written into the location. */
  record Value(String value, String inLocation) {}

  /** One projected key. */
  interface Column {
    /** The key's candidate values for a scan with these filters. */
    List<Value> values(List<Expression> filters);
  }

  /** The projection of one partition key, refused (naming table, key and parameter) when its parameters are wrong. */
  static Column column(String table, Map<String, String> parameters, StructField key) {
    String name = key.name();
    String typeKey = property(name, "type");
    String type = parameter(parameters, name, "type");
    if (type == null) {
      throw refused(table, String.format("enables partition projection (%s = true) but its partition key '%s' has "
          + "no %s", ENABLED, name, typeKey));
    }
    return switch (type.trim().toLowerCase(Locale.ROOT)) {
      case "enum" -> enumColumn(table, parameters, key);
      case "integer" -> integerColumn(table, parameters, key);
      case "date" -> dateColumn(table, parameters, key);
      case "injected" -> injectedColumn(table, key);
      default -> throw refused(table, String.format("has %s = '%s' for its partition key '%s'; Athena's projection "
          + "types are enum, integer, date and injected", typeKey, type.trim(), name));
    };
  }

  private static Column enumColumn(String table, Map<String, String> parameters, StructField key) {
    List<String> values = split(required(table, parameters, key.name(), "values"));
    if (values.isEmpty()) {
      throw badProperty(table, parameters, key.name(), "values", "lists no value");
    }
    for (String v : values) {
      requireOfType(table, parameters, key, "values", v);
    }
    List<Value> all = values.stream().map(v -> new Value(v, v)).toList();
    return filters -> all;
  }

  private static Column integerColumn(String table, Map<String, String> parameters, StructField key) {
    String name = key.name();
    List<String> range = split(required(table, parameters, name, "range"));
    long from;
    long to;
    try {
      if (range.size() != 2) {
        throw new NumberFormatException();
      }
      from = Long.parseLong(range.get(0));
      to = Long.parseLong(range.get(1));
    } catch (NumberFormatException e) {
      throw badProperty(table, parameters, name, "range", "is not two integers, first,last");
    }
    long interval = positive(table, parameters, name, "interval");
    String digitsValue = parameter(parameters, name, "digits");
    int digits;
    try {
      digits = digitsValue == null ? 0 : Integer.parseInt(digitsValue.trim());
      if (digits < 0 || digits > 64) {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw badProperty(table, parameters, name, "digits", "is not a number of digits");
    }
    if ((to - from) / interval >= MAX_PARTITIONS) {
      throw badProperty(table, parameters, name, "range", "spans more than " + MAX_PARTITIONS + " values");
    }
    List<Value> all = new ArrayList<>();
    for (long v = from; v <= to; v += interval) {
      String text = digits == 0 ? Long.toString(v) : String.format("%0" + digits + "d", v);
      all.add(new Value(text, text));
    }
    if (!all.isEmpty()) {
      requireOfType(table, parameters, key, "range", all.get(0).value());
    }
    return filters -> all;
  }

  private static Column dateColumn(String table, Map<String, String> parameters, StructField key) {
    String name = key.name();
    DataType type = key.dataType();
    if (!(type instanceof StringType || type instanceof DateType || type instanceof TimestampType)) {
      throw refused(table, String.format("projects its partition key '%s' of type %s as a date (%s); date "
          + "projections are of string, date or timestamp keys", name, type.simpleString(), property(name, "type")));
    }
    String pattern = required(table, parameters, name, "format");
    DateTimeFormatter format;
    try {
      format = new DateTimeFormatterBuilder().appendPattern(pattern)
          .parseDefaulting(ChronoField.MONTH_OF_YEAR, 1).parseDefaulting(ChronoField.DAY_OF_MONTH, 1)
          .parseDefaulting(ChronoField.HOUR_OF_DAY, 0).parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
          .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0).toFormatter(Locale.ENGLISH).withZone(ZoneOffset.UTC);
    } catch (IllegalArgumentException e) {
      throw badProperty(table, parameters, name, "format", "is not a date format: " + e.getMessage());
    }
    List<String> range = split(required(table, parameters, name, "range"));
    if (range.size() != 2) {
      throw badProperty(table, parameters, name, "range", "is not two dates, first,last");
    }
    for (String bound : range) {
      if (!NOW.matcher(bound).matches()) {
        try {
          LocalDateTime.parse(bound, format);
        } catch (RuntimeException e) {
          throw badProperty(table, parameters, name, "range", String.format("has '%s', which is neither a date "
              + "in the format '%s' nor NOW, NOW-3DAYS style", bound, pattern));
        }
      }
    }
    if (!NOW.matcher(range.get(0)).matches() && !NOW.matcher(range.get(1)).matches()
        && bound(range.get(0), format).isAfter(bound(range.get(1), format))) {
      throw badProperty(table, parameters, name, "range", "ends before it starts");
    }
    long interval = positive(table, parameters, name, "interval");
    ChronoUnit unit;
    String unitValue = parameter(parameters, name, "interval.unit");
    if (unitValue != null) {
      unit = unit(unitValue);
      if (unit == null) {
        throw badProperty(table, parameters, name, "interval.unit", "is not one of YEARS, MONTHS, WEEKS, DAYS, "
            + "HOURS, MINUTES, SECONDS");
      }
    } else {
      String fields = pattern.replaceAll("'[^']*'", "");
      if (fields.matches(".*[HhKkmsSaA].*")) {
        throw refused(table, String.format("projects its partition key '%s' as a date in the format '%s', finer "
            + "than a day, without %s", name, pattern, property(name, "interval.unit")));
      }
      unit = fields.matches(".*[dDE].*") ? ChronoUnit.DAYS : fields.matches(".*[ML].*") ? ChronoUnit.MONTHS
          : ChronoUnit.YEARS;
    }
    ChronoUnit step = unit;
    return filters -> {
      // NOW is now: bounds are computed per scan, then cut to the format's precision as Athena does
      LocalDateTime first = bound(range.get(0), format);
      LocalDateTime last = bound(range.get(1), format);
      if (first.isAfter(last)) {
        throw badProperty(table, parameters, name, "range", "ends before it starts");
      }
      Set<String> seen = new LinkedHashSet<>();
      List<Value> all = new ArrayList<>();
      for (LocalDateTime t = first; !t.isAfter(last); t = t.plus(interval, step)) {
        String text = format.format(t);
        if (seen.add(text)) {
          String value = type instanceof DateType ? t.toLocalDate().toString()
              : type instanceof TimestampType ? t.format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss")) : text;
          all.add(new Value(value, text));
        }
        if (all.size() > MAX_PARTITIONS) {
          throw badProperty(table, parameters, name, "range", "spans more than " + MAX_PARTITIONS + " values");
        }
      }
      return all;
    };
  }

  private static LocalDateTime bound(String text, DateTimeFormatter format) {
    Matcher m = NOW.matcher(text);
    if (!m.matches()) {
      return LocalDateTime.parse(text.trim(), format);
    }
    LocalDateTime now = LocalDateTime.ofInstant(Instant.now(), ZoneOffset.UTC);
    if (m.group(1) != null) {
      long amount = Long.parseLong(m.group(2)) * (m.group(1).equals("-") ? -1 : 1);
      now = now.plus(amount, unit(m.group(3)));
    }
    return LocalDateTime.parse(format.format(now), format);
  }

  private static ChronoUnit unit(String text) {
    String u = text.trim().toUpperCase(Locale.ROOT);
    u = u.endsWith("S") ? u : u + "S";
    return switch (u) {
      case "YEARS" -> ChronoUnit.YEARS;
      case "MONTHS" -> ChronoUnit.MONTHS;
      case "WEEKS" -> ChronoUnit.WEEKS;
      case "DAYS" -> ChronoUnit.DAYS;
      case "HOURS" -> ChronoUnit.HOURS;
      case "MINUTES" -> ChronoUnit.MINUTES;
      case "SECONDS" -> ChronoUnit.SECONDS;
      default -> null;
    };
  }

  /** Athena requires the query to name an injected key's values: equality or IN over literals. */
  private static Column injectedColumn(String table, StructField key) {
    return filters -> {
      Set<String> values = null;
      for (Expression filter : filters) {
        for (Expression conjunct : PartitionFilters.conjuncts(filter)) {
          Optional<Set<String>> equal = equalValues(conjunct, key.name());
          if (equal.isPresent()) {
            if (values == null) {
              values = new LinkedHashSet<>(equal.get());
            } else {
              values.retainAll(equal.get());
            }
          }
        }
      }
      if (values == null) {
        throw new IllegalArgumentException(String.format("Table %s projects its partition key '%s' as injected "
            + "(%s = injected): a query must filter it with equality (%s = value, or IN of values), as Athena "
            + "requires; this one does not", table, key.name(), property(key.name(), "type"), key.name()));
      }
      return values.stream().map(v -> new Value(v, v)).toList();
    };
  }

  /** The values a conjunct allows the key, when it is an equality or IN of literals on the key itself. */
  private static Optional<Set<String>> equalValues(Expression e, String key) {
    List<Expression> literals = new ArrayList<>();
    Expression subject;
    if (e instanceof EqualTo || e instanceof EqualNullSafe) {
      Expression left = e.children().apply(0);
      Expression right = e.children().apply(1);
      subject = left instanceof Literal ? right : left;
      literals.add(left instanceof Literal ? left : right);
    } else if (e instanceof In in) {
      subject = in.value();
      literals.addAll(io.gluecat.compat.Scala.javaList(in.list()));
    } else if (e instanceof InSet inSet) {
      subject = inSet.child();
      for (Object v : io.gluecat.compat.Scala.javaList(inSet.hset().toList())) {
        literals.add(Literal.create(v, inSet.child().dataType()));
      }
    } else {
      return Optional.empty();
    }
    if (!(subject instanceof Attribute a) || !a.name().equalsIgnoreCase(key)) {
      return Optional.empty();
    }
    Set<String> values = new LinkedHashSet<>();
    for (Expression literal : literals) {
      if (!(literal instanceof Literal)) {
        return Optional.empty();
      }
      Object v = new Cast(literal, DataTypes.StringType, scala.Option.apply("UTC")).eval(null);
      if (v != null) {
        values.add(v.toString());
      }
    }
    return Optional.of(values);
  }

  // ---- parameters ----

  private static String property(String key, String suffix) {
    return "projection." + key + "." + suffix;
  }

  /** A key's projection parameter; Glue lower-cases column names, so the lower-case spelling is read too. */
  private static String parameter(Map<String, String> parameters, String key, String suffix) {
    String value = parameters.get(property(key, suffix));
    return value != null ? value : parameters.get(property(key.toLowerCase(Locale.ROOT), suffix));
  }

  private static String required(String table, Map<String, String> parameters, String key, String suffix) {
    String value = parameter(parameters, key, suffix);
    if (value == null || value.isBlank()) {
      throw refused(table, String.format("projects its partition key '%s' as %s but has no %s", key,
          parameter(parameters, key, "type").trim(), property(key, suffix)));
    }
    return value;
  }

  private static long positive(String table, Map<String, String> parameters, String key, String suffix) {
    String value = parameter(parameters, key, suffix);
    if (value == null) {
      return 1;
    }
    try {
      long n = Long.parseLong(value.trim());
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw badProperty(table, parameters, key, suffix, "is not a positive whole number");
  }

  /** A projected value must be a value of its key's type, else the partition would read as a null key. */
  private static void requireOfType(String table, Map<String, String> parameters, StructField key, String suffix,
      String value) {
    Object cast;
    try {
      cast = new Cast(Literal.create(value, DataTypes.StringType), key.dataType(), scala.Option.apply("UTC"))
          .eval(null);
    } catch (RuntimeException e) {
      cast = null;
    }
    if (cast == null) {
      throw badProperty(table, parameters, key.name(), suffix, String.format("has '%s', which is not a %s (the "
          + "key's type)", value, key.dataType().simpleString()));
    }
  }

  /** Athena's lists: comma-separated, blanks around values dropped. */
  private static List<String> split(String value) {
    List<String> out = new ArrayList<>();
    for (String part : value.split(",")) {
      if (!part.trim().isEmpty()) {
        out.add(part.trim());
      }
    }
    return out;
  }

  private static InvalidGlueEntryException badProperty(String table, Map<String, String> parameters, String key,
      String suffix, String problem) {
    String value = parameter(parameters, key, suffix);
    return refused(table, String.format("has %s = '%s' for its partition key '%s', which %s", property(key, suffix),
        value, key, problem));
  }

}
