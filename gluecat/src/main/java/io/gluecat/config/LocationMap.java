package io.gluecat.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A catalog's location map (option {@code location.map}): pairs of location prefixes, the one stored in
 * Glue and the one Hadoop opens. Other engines store locations no Hadoop file system resolves, such as
 * Trino's {@code local:///} paths (relative to its {@code local.location}); with
 * {@code location.map = local:///=file:/data/trino/} gluecat reads {@code local:///db/t} at
 * {@code file:/data/trino/db/t}, and writes {@code local:///...} back for any location under
 * {@code file:/data/trino/}, so the other engine keeps reading what gluecat writes.
 *
 * <p>It is applied where entries cross the Glue boundary (GlueGateway, through glue's MappedLocations): to a
 * table's StorageDescriptor.Location and SerDe {@code path}, and to a database's LocationUri. The first pair
 * whose prefix matches wins. Both prefixes of a pair end with {@code /}, so a prefix never matches half a
 * directory name.
 */
public final class LocationMap {
  private final List<String[]> pairs;

  private LocationMap(List<String[]> pairs) {
    this.pairs = pairs;
  }

  public static final LocationMap NONE = new LocationMap(List.of());

  /**
   * Parses {@code <stored>=<hadoop>[,<stored>=<hadoop>...]}.
   *
   * @param problem turns a description of what is wrong into the exception to throw (it names the option)
   */
  public static LocationMap parse(String value, java.util.function.Function<String, RuntimeException> problem) {
    List<String[]> pairs = new ArrayList<>();
    for (String item : value.split(",")) {
      String pair = item.trim();
      int eq = pair.indexOf('=');
      if (eq <= 0 || eq == pair.length() - 1) {
        throw problem.apply("has '" + pair + "', which is not <stored prefix>=<hadoop prefix>, such as "
            + "local:///=file:/data/trino/");
      }
      String stored = pair.substring(0, eq).trim();
      String hadoop = pair.substring(eq + 1).trim();
      for (String prefix : new String[] {stored, hadoop}) {
        if (!prefix.endsWith("/") || !prefix.matches("[A-Za-z][A-Za-z0-9+.-]*:.*")) {
          throw problem.apply("has the prefix '" + prefix + "', which must be a URI prefix with a scheme, "
              + "ending with '/' (such as local:/// or file:/data/trino/)");
        }
      }
      pairs.add(new String[] {stored, hadoop});
    }
    return new LocationMap(List.copyOf(pairs));
  }

  public boolean isEmpty() {
    return pairs.isEmpty();
  }

  /** Where Hadoop opens a location stored in Glue. */
  public String toHadoop(String stored) {
    return rewrite(stored, 0, 1);
  }

  /** What Glue stores for a location Hadoop opens. */
  public String toStored(String hadoop) {
    return rewrite(hadoop, 1, 0);
  }

  private String rewrite(String location, int from, int to) {
    if (location == null || pairs.isEmpty()) {
      return location;
    }
    String plain = withoutEmptyAuthority(location);
    for (String[] pair : pairs) {
      String prefix = withoutEmptyAuthority(pair[from]);
      if (plain.startsWith(prefix)) {
        return pair[to] + plain.substring(prefix.length());
      }
    }
    return location;
  }

  /** {@code file:///x} and {@code file:/x} name the same place; Hadoop prints the second. */
  private static String withoutEmptyAuthority(String location) {
    int colon = location.indexOf(':');
    if (colon > 0 && location.startsWith(":///", colon)) {
      return location.substring(0, colon + 1) + location.substring(colon + 3);
    }
    return location;
  }

  @Override
  public String toString() {
    return Optional.of(pairs).filter(p -> !p.isEmpty()).map(p -> {
      List<String> items = new ArrayList<>();
      p.forEach(pair -> items.add(pair[0] + "=" + pair[1]));
      return String.join(",", items);
    }).orElse("");
  }
}
