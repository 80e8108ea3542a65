package io.gluecat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The map in docs/architecture.md matches the tree, and the packages depend one way (issue #33). It reads the
 * main sources of gluecat/ and of every compat module as text (comments and string literals removed), so a
 * dependency is an import or a qualified name in code; a class named only in a string, as S3A's provider
 * class is, is not one.
 */
class ArchitectureTest {
  private static final String ROOT_PACKAGE = "io.gluecat";
  /** The class users configure; it wires the catalog, so it sits above it although it is in the root package. */
  private static final String ENTRY_POINT = "io.gluecat.GlueCatalog";
  private static final int MAX_LINES = 400;

  /**
   * Each package may use the packages of lower layers, and packages of its own layer as long as no cycle forms.
   * Infrastructure at the bottom, then the kinds of table, then the catalog that routes between them, then
   * what users run on top of catalogs.
   */
  private static final List<Set<String>> LAYERS = List.of(
      Set.of("io.gluecat", "compat"),
      Set.of("config", "metrics"),
      Set.of("cache", "entry"),
      Set.of("glue", "storage"),
      Set.of("s3a", "logstore", "partitions", "create", "writes"),
      Set.of("delta", "files", "hive", "iceberg", "views"),
      Set.of("catalog"),
      Set.of(ENTRY_POINT, "extensions", "extensions.delta", "extensions.views", "extensions.planning", "extensions.iceberg",
          "extensions.partitions", "extensions.statistics", "extensions.describe", "tools", "tools.cli", "tools.doctor",
          "tools.repair", "tools.register"));

  private static final Pattern PACKAGE = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
  private static final Pattern QUALIFIED = Pattern.compile("\\bio\\.gluecat\\.((?:[a-z]\\w*\\.)*)([A-Z]\\w*)");
  private static final Pattern COMMENT = Pattern.compile("/\\*.*?\\*/|//[^\\n]*", Pattern.DOTALL);
  private static final Pattern STRING = Pattern.compile("\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"|'(?:\\\\.|[^'\\\\])'",
      Pattern.DOTALL);

  /** One main source file: its package, the node of the graph it belongs to, class name, code and line count. */
  record Source(Path path, String pkg, String node, String className, String code, int lines) {}

  @Test
  void everyPackageHasARowInTheMapAndEveryRowAPackage() {
    Set<String> packages = sources().stream().map(s -> shortName(s.pkg())).collect(Collectors.toCollection(TreeSet::new));
    Set<String> rows = new TreeSet<>(packageRows().keySet());
    assertEquals(packages, rows, "docs/architecture.md's package table (\"Where things live\") must have one row "
        + "per package of gluecat/src/main and the compat modules, and no row for a package that is gone");
  }

  @Test
  void theClassesTheMapNamesExist() {
    Map<String, Set<String>> classes = new TreeMap<>();
    for (Source s : sources()) {
      classes.computeIfAbsent(shortName(s.pkg()), k -> new TreeSet<>()).add(s.className());
    }
    List<String> missing = new ArrayList<>();
    Pattern named = Pattern.compile("`((?:[a-z]\\w*\\.)*)([A-Z]\\w*)(?:\\.[A-Z]\\w*)?`");
    packageRows().forEach((pkg, row) -> {
      Matcher m = named.matcher(row.split("\\|")[0]); // the responsibility; the next cell names Spark's interfaces
      while (m.find()) {
        String in = m.group(1).isEmpty() ? pkg : m.group(1).substring(0, m.group(1).length() - 1);
        in = in.startsWith(ROOT_PACKAGE + ".") ? in.substring(ROOT_PACKAGE.length() + 1) : in;
        if (!classes.getOrDefault(in, Set.of()).contains(m.group(2))) {
          missing.add(pkg + " row names " + m.group(0) + ", which is not a class of " + in);
        }
      }
    });
    assertEquals(List.of(), missing, "docs/architecture.md's package table names classes that do not exist");
  }

  @Test
  void dependenciesPointDownTheLayers() {
    Map<String, Integer> layer = new LinkedHashMap<>();
    for (int i = 0; i < LAYERS.size(); i++) {
      for (String p : LAYERS.get(i)) {
        layer.put(p, i);
      }
    }
    List<String> wrong = new ArrayList<>();
    Map<String, Set<String>> graph = packageGraph();
    graph.forEach((from, tos) -> {
      Integer own = layer.get(from);
      if (own == null) {
        wrong.add("package " + from + " has no layer in ArchitectureTest.LAYERS");
        return;
      }
      for (String to : tos) {
        Integer other = layer.get(to);
        if (other != null && other > own) {
          wrong.add(from + " -> " + to + " (" + String.join(", ", users(from, to)) + ")");
        }
      }
    });
    assertEquals(List.of(), wrong, "packages must only use packages of their own or a lower layer");
  }

  @Test
  void packagesFormNoCycle() {
    assertEquals(List.of(), cycles(packageGraph()), "package dependency cycles");
  }

  /** The catalog's classes call each other one way too: it routes to its parts, which never call back. */
  @Test
  void theCatalogsClassesFormNoCycle() {
    List<Source> catalog = sources().stream().filter(s -> s.node().equals("catalog")).toList();
    Map<String, Set<String>> graph = new TreeMap<>();
    for (Source s : catalog) {
      Set<String> uses = new TreeSet<>();
      for (Source other : catalog) {
        if (other != s && Pattern.compile("\\b" + other.className() + "\\b").matcher(s.code()).find()) {
          uses.add(other.className());
        }
      }
      graph.put(s.className(), uses);
    }
    assertEquals(List.of(), cycles(graph), "class cycles inside io.gluecat.catalog");
  }

  @Test
  void noMainSourceFileIsLongerThanTheLimitUnlessTheMapNamesIt() {
    String doc = architectureDoc();
    List<String> longFiles = new ArrayList<>();
    for (Source s : sources()) {
      String relative = s.pkg().replace('.', '/') + "/" + s.className() + ".java";
      if (s.lines() > MAX_LINES && !doc.contains("`" + relative + "`")) {
        longFiles.add(relative + " (" + s.lines() + " lines)");
      }
    }
    assertEquals(List.of(), longFiles, "main source files over " + MAX_LINES + " lines; split them, or, if one is a "
        + "single cohesive converter, name it in docs/architecture.md's list of converters");
  }

  /**
   * Glue SDK model types stay in {@code glue} and {@code entry} (issue #42): the rest of gluecat speaks gluecat's
   * own types ({@code entry.StoredTable}, {@code StoredPartition}, {@code NewEntry}, {@code NewPartition},
   * {@code EntryUpdate}...), as Trino converts into its own model at the metastore boundary.
   */
  private static final String SDK_MODEL = "software/amazon/awssdk/services/glue/model/";
  private static final Set<String> SDK_MODEL_OWNERS = Set.of("glue", "entry");

  @Test
  void onlyGlueAndEntryUseTheGlueSdkModel() {
    Set<String> users = new TreeSet<>(sdkModelUsersCompiled());
    sdkModelUsersInSources().forEach(users::add);
    assertEquals(Set.of(), users, "classes outside " + SDK_MODEL_OWNERS + " refer to Glue SDK model types ("
        + SDK_MODEL.replace('/', '.') + "*); give glue/ or entry/ an API in gluecat's own types instead");
  }

  /**
   * The compiled main classes that name an SDK model type: the type's internal name is in the constant pool of
   * any class that refers to it (a field, a call's descriptor, a cast), imported or not. Nested and synthetic
   * classes count for their top-level class.
   */
  private static Set<String> sdkModelUsersCompiled() {
    Set<String> users = new TreeSet<>();
    Path classes;
    try {
      classes = Paths.get(io.gluecat.entry.TableName.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (java.net.URISyntaxException e) {
      throw new IllegalStateException(e);
    }
    assertTrue(Files.isDirectory(classes.resolve("io/gluecat/catalog")), "no compiled main classes at " + classes);
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".class")).toList()) {
        String binary = classes.relativize(f).toString().replace(java.io.File.separatorChar, '/');
        String name = binary.replaceAll("(\\$.*)?\\.class$", "").replace('/', '.');
        if (name.startsWith(ROOT_PACKAGE + ".") && !ownsSdkModel(shortName(name))
            // one char per byte: the constant pool's UTF-8 names of SDK types are ASCII
            && new String(Files.readAllBytes(f), java.nio.charset.StandardCharsets.ISO_8859_1).contains(SDK_MODEL)) {
          users.add(shortName(name));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return users;
  }

  /** The main sources that name an SDK model type in code (an import, or a qualified name). */
  private static Set<String> sdkModelUsersInSources() {
    String qualified = SDK_MODEL.replace('/', '.');
    return sources().stream().filter(s -> !ownsSdkModel(shortName(s.pkg()) + "." + s.className()) && s.code().contains(qualified))
        .map(s -> shortName(s.pkg() + "." + s.className())).collect(Collectors.toCollection(TreeSet::new));
  }

  private static boolean ownsSdkModel(String shortClassName) {
    int dot = shortClassName.lastIndexOf('.');
    return dot > 0 && SDK_MODEL_OWNERS.contains(shortClassName.substring(0, dot));
  }


  @Test
  void theTestReadsTheWholeTree() {
    Set<String> nodes = sources().stream().map(Source::node).collect(Collectors.toSet());
    assertTrue(nodes.containsAll(Set.of("catalog", "entry", "hive", ENTRY_POINT, "compat", "s3a")),
        "found only " + nodes);
  }

  // ---- reading the tree ----

  private static Path repo() {
    Path here = Paths.get("").toAbsolutePath();
    for (Path p = here; p != null; p = p.getParent()) {
      if (Files.exists(p.resolve("matrix.yaml")) && Files.isDirectory(p.resolve("gluecat"))) {
        return p;
      }
    }
    throw new IllegalStateException("no repository root (matrix.yaml) above " + here);
  }

  private static List<Source> sources() {
    List<Source> result = new ArrayList<>();
    try (Stream<Path> tops = Files.list(repo())) {
      // src/main/java, and the main sources some lines share apart (compat-spark4/src/since-4.1/java)
      List<Path> roots = tops.filter(p -> p.getFileName().toString().equals("gluecat")
              || p.getFileName().toString().startsWith("compat-"))
          .flatMap(ArchitectureTest::mainSourceRoots).sorted().toList();
      for (Path root : roots) {
        try (Stream<Path> files = Files.walk(root)) {
          for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
            result.add(read(f));
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return result;
  }

  private static Stream<Path> mainSourceRoots(Path module) {
    try (Stream<Path> kinds = Files.list(module.resolve("src"))) {
      return kinds.filter(k -> !k.getFileName().toString().equals("test")).map(k -> k.resolve("java"))
          .filter(Files::isDirectory).toList().stream();
    } catch (java.nio.file.NoSuchFileException e) {
      return Stream.empty();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Source read(Path file) throws IOException {
    String text = Files.readString(file);
    Matcher m = PACKAGE.matcher(text);
    if (!m.find()) {
      throw new IllegalStateException(file + " has no package declaration");
    }
    String className = file.getFileName().toString().replace(".java", "");
    String pkg = m.group(1);
    String node = (pkg + "." + className).equals(ENTRY_POINT) ? ENTRY_POINT : shortName(pkg);
    String code = STRING.matcher(COMMENT.matcher(text).replaceAll(" ")).replaceAll("\"\"");
    return new Source(file, pkg, node, className, code, (int) text.lines().count());
  }

  /** Package names as the map writes them: relative to io.gluecat, which stays whole. */
  private static String shortName(String pkg) {
    return pkg.startsWith(ROOT_PACKAGE + ".") ? pkg.substring(ROOT_PACKAGE.length() + 1) : pkg;
  }

  private static Map<String, Set<String>> packageGraph() {
    Map<String, Set<String>> graph = new TreeMap<>();
    for (Source s : sources()) {
      Set<String> uses = graph.computeIfAbsent(s.node(), k -> new TreeSet<>());
      for (String to : targets(s)) {
        if (!to.equals(s.node())) {
          uses.add(to);
        }
      }
    }
    return graph;
  }

  private static Set<String> targets(Source s) {
    Set<String> result = new TreeSet<>();
    Matcher m = QUALIFIED.matcher(s.code());
    while (m.find()) {
      String pkg = (ROOT_PACKAGE + "." + m.group(1)).replaceAll("\\.$", "");
      result.add((pkg + "." + m.group(2)).equals(ENTRY_POINT) ? ENTRY_POINT : shortName(pkg));
    }
    return result;
  }

  private static List<String> users(String from, String to) {
    return sources().stream().filter(s -> s.node().equals(from) && targets(s).contains(to))
        .map(s -> s.className() + ".java").toList();
  }

  /** Every cycle's nodes, as found by a depth-first search (one report per cycle found). */
  private static List<String> cycles(Map<String, Set<String>> graph) {
    List<String> found = new ArrayList<>();
    Map<String, Integer> state = new TreeMap<>(); // 1 on the stack, 2 done
    List<String> stack = new ArrayList<>();
    for (String start : graph.keySet()) {
      visit(start, graph, state, stack, found);
    }
    return found;
  }

  private static void visit(String node, Map<String, Set<String>> graph, Map<String, Integer> state,
      List<String> stack, List<String> found) {
    Integer s = state.get(node);
    if (s != null) {
      if (s == 1) {
        List<String> cycle = new ArrayList<>(stack.subList(stack.indexOf(node), stack.size()));
        cycle.add(node);
        found.add(String.join(" -> ", cycle));
      }
      return;
    }
    state.put(node, 1);
    stack.add(node);
    for (String next : graph.getOrDefault(node, Set.of())) {
      visit(next, graph, state, stack, found);
    }
    stack.remove(stack.size() - 1);
    state.put(node, 2);
  }

  // ---- reading the map ----

  private static String architectureDoc() {
    try {
      return Files.readString(repo().resolve("docs/architecture.md"));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The package table's rows, by the package named in their first cell. */
  private static Map<String, String> packageRows() {
    Map<String, String> rows = new TreeMap<>();
    Pattern row = Pattern.compile("^\\| `([\\w.]+)` \\|(.*)$", Pattern.MULTILINE);
    String doc = architectureDoc();
    int start = doc.indexOf("## Where things live");
    int end = doc.indexOf("\n## ", start + 1);
    Matcher m = row.matcher(doc.substring(start, end < 0 ? doc.length() : end));
    while (m.find()) {
      String previous = rows.put(m.group(1), m.group(2));
      if (previous != null) {
        throw new IllegalStateException("two rows for package " + m.group(1) + " in docs/architecture.md");
      }
    }
    return rows;
  }
}
