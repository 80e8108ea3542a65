package io.gluecat.testkit;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * A GetPartitions {@code Expression} evaluated as AWS Glue evaluates it, for
 * {@link GlueSemantics#filterAndPagePartitions()} (MiniStack ignores the expression). The grammar is the
 * documented SQL {@code WHERE} subset:
 * comparisons ({@code = <> != < <= > >=}), {@code [NOT] BETWEEN}, {@code [NOT] IN (...)}, {@code [NOT] LIKE},
 * {@code IS [NOT] NULL}, {@code AND}, {@code OR}, {@code NOT} and parentheses, between a partition key and a
 * quoted string or a number. A literal is read as its key's type (string, char, varchar, the integer types,
 * decimal, date, timestamp), so {@code year = '2024'} and {@code year = 2024} match the same int partitions and
 * {@code day < '2024-01-02'} compares dates; a literal that is not a value of its key's type, a name that is
 * no partition key, a key of another type, or text outside the grammar is refused as Glue refuses it, with
 * {@code InvalidInputException} ({@link Invalid} here). A partition value that is not of its key's type (Hive's
 * {@code __HIVE_DEFAULT_PARTITION__} under an int key) compares as unknown: no comparison on it holds.
 */
public final class PartitionExpression {

  /** An expression Glue refuses as input; the recorder answers it with {@code InvalidInputException}. */
  public static final class Invalid extends RuntimeException {
    Invalid(String message) {
      super(message);
    }
  }

  /** Evaluates to TRUE, FALSE or null (unknown), as SQL's three-valued logic. */
  private interface Node {
    Boolean eval(List<String> values);
  }

  private final String text;
  private final Node root;

  private PartitionExpression(String text, Node root) {
    this.text = text;
    this.root = root;
  }

  /**
   * Parses {@code expression} against the table's partition keys (names and Glue types in key order).
   *
   * @throws Invalid when Glue would refuse the expression as input
   */
  public static PartitionExpression parse(String expression, List<Map.Entry<String, String>> keys) {
    Parser parser = new Parser(expression, keys);
    Node root = parser.expression();
    if (parser.peek() != null) {
      throw parser.invalid("unexpected '" + parser.peek().text + "'");
    }
    return new PartitionExpression(expression, root);
  }

  /** Whether a partition with these values (in key order) is in Glue's answer. */
  public boolean matches(List<String> values) {
    return Boolean.TRUE.equals(root.eval(values));
  }

  @Override
  public String toString() {
    return text;
  }

  // ---------------------------------------------------------------- types

  /** A key's type: how its literals and values are read, and whether they order. */
  private record Type(String name, Function<String, Comparable<?>> read) {
    /** The value as this type, or null when it is none. */
    Comparable<?> value(String text) {
      if (text == null) {
        return null;
      }
      try {
        return read.apply(text.trim());
      } catch (RuntimeException e) {
        return null;
      }
    }
  }

  private static final DateTimeFormatter TIMESTAMP = new DateTimeFormatterBuilder()
      .appendPattern("yyyy-MM-dd[ HH:mm[:ss]]").optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
      .optionalEnd().parseDefaulting(ChronoField.HOUR_OF_DAY, 0).toFormatter(Locale.ROOT);

  /** Glue's partition key types that expressions compare; any other type is refused when an expression names it. */
  private static Type type(String glueType) {
    String t = glueType.trim().toLowerCase(Locale.ROOT);
    if (t.equals("string") || t.startsWith("char") || t.startsWith("varchar")) {
      return new Type(t, s -> s);
    }
    if (t.equals("int") || t.equals("integer") || t.equals("bigint") || t.equals("long") || t.equals("smallint")
        || t.equals("tinyint")) {
      return new Type(t, Long::parseLong);
    }
    if (t.startsWith("decimal")) {
      return new Type(t, BigDecimal::new);
    }
    if (t.equals("date")) {
      return new Type(t, LocalDate::parse);
    }
    if (t.equals("timestamp")) {
      return new Type(t, s -> LocalDateTime.parse(s, TIMESTAMP));
    }
    return null;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int order(Comparable a, Comparable b) {
    return a.compareTo(b);
  }

  // ---------------------------------------------------------------- parsing

  private enum Kind { NAME, STRING, NUMBER, SYMBOL }

  private record Token(Kind kind, String text) {
    boolean is(String word) {
      return (kind == Kind.NAME || kind == Kind.SYMBOL) && text.equalsIgnoreCase(word);
    }
  }

  /** A partition key as it appears in the expression: its position and type. */
  private record Key(String name, int index, Type type) { }

  private static final class Parser {
    private final String source;
    private final List<Map.Entry<String, String>> keys;
    private final List<Token> tokens = new ArrayList<>();
    private int at;

    Parser(String source, List<Map.Entry<String, String>> keys) {
      this.source = source;
      this.keys = keys;
      tokenize();
    }

    Invalid invalid(String problem) {
      return new Invalid("Unsupported expression '" + source + "': " + problem);
    }

    private void tokenize() {
      int i = 0;
      int n = source.length();
      while (i < n) {
        char c = source.charAt(i);
        if (Character.isWhitespace(c)) {
          i++;
        } else if (c == '\'') {
          StringBuilder s = new StringBuilder();
          int j = i + 1;
          while (true) {
            if (j >= n) {
              throw invalid("unterminated string");
            }
            if (source.charAt(j) == '\'') {
              if (j + 1 < n && source.charAt(j + 1) == '\'') {
                s.append('\'');
                j += 2;
                continue;
              }
              break;
            }
            s.append(source.charAt(j++));
          }
          tokens.add(new Token(Kind.STRING, s.toString()));
          i = j + 1;
        } else if (c == '`' || c == '"') {
          int end = source.indexOf(c, i + 1);
          if (end < 0) {
            throw invalid("unterminated name");
          }
          tokens.add(new Token(Kind.NAME, source.substring(i + 1, end)));
          i = end + 1;
        } else if (Character.isDigit(c) || (c == '-' && i + 1 < n && Character.isDigit(source.charAt(i + 1)))) {
          int j = i + 1;
          while (j < n && (Character.isDigit(source.charAt(j)) || source.charAt(j) == '.')) {
            j++;
          }
          tokens.add(new Token(Kind.NUMBER, source.substring(i, j)));
          i = j;
        } else if (Character.isLetter(c) || c == '_') {
          int j = i + 1;
          while (j < n && (Character.isLetterOrDigit(source.charAt(j)) || source.charAt(j) == '_')) {
            j++;
          }
          tokens.add(new Token(Kind.NAME, source.substring(i, j)));
          i = j;
        } else {
          String two = i + 1 < n ? source.substring(i, i + 2) : "";
          if (two.equals("<>") || two.equals("!=") || two.equals("<=") || two.equals(">=")) {
            tokens.add(new Token(Kind.SYMBOL, two));
            i += 2;
          } else if ("=<>(),".indexOf(c) >= 0) {
            tokens.add(new Token(Kind.SYMBOL, String.valueOf(c)));
            i++;
          } else {
            throw invalid("unexpected character '" + c + "'");
          }
        }
      }
    }

    Token peek() {
      return at < tokens.size() ? tokens.get(at) : null;
    }

    private boolean accept(String word) {
      Token t = peek();
      if (t != null && t.is(word)) {
        at++;
        return true;
      }
      return false;
    }

    private void expect(String word) {
      if (!accept(word)) {
        throw invalid("expected " + word + (peek() == null ? " at the end" : " before '" + peek().text + "'"));
      }
    }

    private Token next() {
      Token t = peek();
      if (t == null) {
        throw invalid("unexpected end");
      }
      at++;
      return t;
    }

    Node expression() {
      Node left = conjunction();
      while (accept("OR")) {
        Node a = left;
        Node b = conjunction();
        left = v -> {
          Boolean x = a.eval(v);
          Boolean y = b.eval(v);
          return Boolean.TRUE.equals(x) || Boolean.TRUE.equals(y) ? Boolean.TRUE
              : x == null || y == null ? null : Boolean.FALSE;
        };
      }
      return left;
    }

    private Node conjunction() {
      Node left = negation();
      while (accept("AND")) {
        Node a = left;
        Node b = negation();
        left = v -> {
          Boolean x = a.eval(v);
          Boolean y = b.eval(v);
          return Boolean.FALSE.equals(x) || Boolean.FALSE.equals(y) ? Boolean.FALSE
              : x == null || y == null ? null : Boolean.TRUE;
        };
      }
      return left;
    }

    private Node negation() {
      if (accept("NOT")) {
        Node inner = negation();
        return v -> {
          Boolean x = inner.eval(v);
          return x == null ? null : !x;
        };
      }
      if (accept("(")) {
        Node inner = expression();
        expect(")");
        return inner;
      }
      return predicate();
    }

    private Node predicate() {
      Token first = next();
      if (first.kind() != Kind.NAME) {
        // a literal first: only a comparison with a key on the right
        String op = comparison(next());
        Token keyToken = next();
        if (keyToken.kind() != Kind.NAME) {
          throw invalid("a comparison needs a partition key");
        }
        Key key = key(keyToken);
        return compare(key, flipped(op), literal(key, first));
      }
      Key key = key(first);
      if (accept("IS")) {
        boolean not = accept("NOT");
        expect("NULL");
        return v -> (v.get(key.index()) == null) != not;
      }
      boolean not = accept("NOT");
      Node node;
      if (accept("BETWEEN")) {
        Comparable<?> low = literal(key, next());
        expect("AND");
        Comparable<?> high = literal(key, next());
        node = v -> {
          Comparable<?> x = key.type().value(v.get(key.index()));
          return x == null ? null : order(x, low) >= 0 && order(x, high) <= 0;
        };
      } else if (accept("IN")) {
        expect("(");
        List<Comparable<?>> items = new ArrayList<>();
        do {
          items.add(literal(key, next()));
        } while (accept(","));
        expect(")");
        node = v -> {
          Comparable<?> x = key.type().value(v.get(key.index()));
          return x == null ? null : items.stream().anyMatch(i -> order(x, i) == 0);
        };
      } else if (accept("LIKE")) {
        Token pattern = next();
        if (pattern.kind() != Kind.STRING || !(key.type().read().apply("0") instanceof String)) {
          throw invalid("LIKE compares a string key with a quoted pattern");
        }
        Pattern regex = like(pattern.text());
        node = v -> v.get(key.index()) == null ? null : regex.matcher(v.get(key.index())).matches();
      } else if (not) {
        throw invalid("NOT after a key needs BETWEEN, IN or LIKE");
      } else {
        String op = comparison(next());
        Token right = next();
        if (right.kind() == Kind.NAME) {
          throw invalid("a key can only be compared with a literal");
        }
        return compare(key, op, literal(key, right));
      }
      Node positive = node;
      return not ? v -> {
        Boolean x = positive.eval(v);
        return x == null ? null : !x;
      } : positive;
    }

    private String comparison(Token t) {
      for (String op : List.of("=", "<>", "!=", "<", "<=", ">", ">=")) {
        if (t.kind() == Kind.SYMBOL && t.text().equals(op)) {
          return op;
        }
      }
      throw invalid("expected a comparison before '" + t.text() + "'");
    }

    private static String flipped(String op) {
      return switch (op) {
        case "<" -> ">";
        case "<=" -> ">=";
        case ">" -> "<";
        case ">=" -> "<=";
        default -> op;
      };
    }

    private static Node compare(Key key, String op, Comparable<?> literal) {
      return v -> {
        Comparable<?> x = key.type().value(v.get(key.index()));
        if (x == null) {
          return null;
        }
        int c = order(x, literal);
        return switch (op) {
          case "=" -> c == 0;
          case "<>", "!=" -> c != 0;
          case "<" -> c < 0;
          case "<=" -> c <= 0;
          case ">" -> c > 0;
          default -> c >= 0;
        };
      };
    }

    private Key key(Token name) {
      for (int i = 0; i < keys.size(); i++) {
        if (keys.get(i).getKey().equalsIgnoreCase(name.text())) {
          Type type = type(keys.get(i).getValue());
          if (type == null) {
            throw invalid("partition key '" + name.text() + "' is of type " + keys.get(i).getValue()
                + ", which expressions do not support");
          }
          return new Key(keys.get(i).getKey(), i, type);
        }
      }
      throw invalid("'" + name.text() + "' is not a partition key");
    }

    /** A literal read as the key's type. */
    private Comparable<?> literal(Key key, Token t) {
      if (t.kind() != Kind.STRING && t.kind() != Kind.NUMBER) {
        throw invalid("expected a literal for '" + key.name() + "', not '" + t.text() + "'");
      }
      Comparable<?> value = key.type().value(t.text());
      if (value == null) {
        throw invalid("'" + t.text() + "' is not a " + key.type().name() + " (partition key '" + key.name() + "')");
      }
      return value;
    }

    private static Pattern like(String pattern) {
      StringBuilder regex = new StringBuilder();
      for (char c : pattern.toCharArray()) {
        regex.append(c == '%' ? ".*" : c == '_' ? "." : Pattern.quote(String.valueOf(c)));
      }
      return Pattern.compile(regex.toString(), Pattern.DOTALL);
    }
  }
}
