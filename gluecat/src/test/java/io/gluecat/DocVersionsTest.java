package io.gluecat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The versions a user reads (README, docs/, python/README.md, runtime/README.md) are the ones matrix.yaml and
 * the poms build: the README's version table and its build commands and jar paths, every Delta and gluecat
 * coordinate, and every PySpark version named. Run in each compat module, it checks every row each time.
 */
public class DocVersionsTest {
  private static final Pattern DELTA_COORDINATE = Pattern.compile("io\\.delta:(delta-spark[\\w.]*):([0-9][\\w.-]*)");
  private static final Pattern GLUECAT_ARTIFACT =
      Pattern.compile("gluecat-spark(?:-runtime)?-(\\d+\\.\\d+_\\d+\\.\\d+)(?::([<>\\w.-]+))?");
  private static final Pattern PYSPARK = Pattern.compile("pyspark(?:-client)?(?:\\[connect\\])?==(\\d+\\.\\d+\\.\\d+)");

  private final Path root = MatrixRowTest.matrixFile().toAbsolutePath().getParent();

  /** Each row's fields, plus module (spark42), delta.artifact (from its runtime pom) and suffix (4.2_2.13). */
  private List<Map<String, String>> rows() throws IOException {
    List<Map<String, String>> rows = new ArrayList<>();
    for (String id : MatrixRowTest.ids()) {
      Map<String, String> row = new LinkedHashMap<>(MatrixRowTest.row(id));
      String module = "spark" + row.get("spark").replaceAll("^(\\d+)\\.(\\d+).*", "$1$2");
      row.put("module", module);
      row.put("suffix", row.get("artifact").substring("gluecat-spark-".length()));
      row.put("delta.artifact", tag(read(root.resolve("runtime/" + module + "/pom.xml")), "row.delta.artifact"));
      rows.add(row);
    }
    return rows;
  }

  @Test
  void theReadmeTableIsTheMatrix() throws IOException {
    Set<String> documented = new TreeSet<>();
    for (String line : read(root.resolve("README.md")).split("\n")) {
      if (line.startsWith("| `io.gluecat:gluecat-spark-")) {
        String[] cells = line.split("\\|");
        documented.add(String.join(" ", cells[1].trim().replace("`io.gluecat:", "").replace("`", ""),
            cells[2].trim(), cells[3].trim(), cells[4].trim().split(" ")[0], cells[5].trim(), cells[6].trim()));
      }
    }
    Set<String> matrix = new TreeSet<>();
    for (Map<String, String> row : rows()) {
      matrix.add(String.join(" ", row.get("artifact"), row.get("spark"), row.get("scala"), row.get("delta"),
          row.get("hadoop"), row.get("java")));
    }
    assertEquals(matrix, documented, "README.md's table of artifacts against matrix.yaml");
  }

  /** "Get a jar": for each row, the command that builds its jars and the paths they land at. */
  @Test
  void theReadmeBuildsEachRowsJarsWhereItSays() throws IOException {
    String readme = read(root.resolve("README.md"));
    String version = projectVersion();
    for (Map<String, String> row : rows()) {
      String module = row.get("module");
      String command = "mvn -B -P " + row.get("maven-profile") + " -pl runtime/" + module + " -am package -DskipTests";
      assertTrue(readme.contains(command), "README.md has no command " + command);
      String runtimeArtifact = tag(read(root.resolve("runtime/" + module + "/pom.xml")), "artifactId");
      String plainArtifact = tag(read(root.resolve("compat-" + module + "/pom.xml")), "artifactId");
      assertEquals(row.get("artifact"), plainArtifact, "compat-" + module + "/pom.xml");
      assertEquals("gluecat-spark-runtime-" + row.get("suffix"), runtimeArtifact, "runtime/" + module + "/pom.xml");
      for (String jar : List.of("runtime/" + module + "/target/" + runtimeArtifact + "-" + version + ".jar",
          "compat-" + module + "/target/" + plainArtifact + "-" + version + ".jar")) {
        assertTrue(readme.contains("`" + jar + "`"), "README.md does not name the jar " + jar);
      }
    }
  }

  @Test
  void everyCoordinateAndPySparkVersionInTheDocsIsARows() throws IOException {
    List<Map<String, String>> rows = rows();
    String version = projectVersion();
    Set<String> suffixes = new TreeSet<>();
    Set<String> sparks = new TreeSet<>();
    Map<String, String> deltas = new LinkedHashMap<>();
    for (Map<String, String> row : rows) {
      suffixes.add(row.get("suffix"));
      sparks.add(row.get("spark"));
      deltas.put(row.get("delta.artifact"), row.get("delta"));
    }
    List<String> wrong = new ArrayList<>();
    for (Path doc : docs()) {
      String text = read(doc);
      String name = root.relativize(doc).toString();
      for (Matcher m = DELTA_COORDINATE.matcher(text); m.find(); ) {
        if (!m.group(2).equals(deltas.get(m.group(1)))) {
          wrong.add(name + ": " + m.group() + " (the rows use " + deltas + ")");
        }
      }
      for (Matcher m = GLUECAT_ARTIFACT.matcher(text); m.find(); ) {
        if (!suffixes.contains(m.group(1))) {
          wrong.add(name + ": " + m.group() + " is no row's artifact");
        } else if (m.group(2) != null && !m.group(2).equals("<version>") && !m.group(2).equals(version)) {
          wrong.add(name + ": " + m.group() + " (the project's version is " + version + ")");
        }
      }
      for (Matcher m = PYSPARK.matcher(text); m.find(); ) {
        if (!sparks.contains(m.group(1))) {
          wrong.add(name + ": " + m.group() + " is no row's Spark " + sparks);
        }
      }
    }
    assertEquals(List.of(), wrong);
  }

  /** What users read; the compatibility reports are generated, and say which release they were made for. */
  private List<Path> docs() throws IOException {
    List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md"), root.resolve("python/README.md"),
        root.resolve("runtime/README.md")));
    try (Stream<Path> files = Files.list(root.resolve("docs"))) {
      files.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  private String projectVersion() throws IOException {
    Matcher m = Pattern.compile("<artifactId>gluecat-parent</artifactId>\\s*<version>([^<]+)</version>")
        .matcher(read(root.resolve("pom.xml")));
    assertTrue(m.find(), "pom.xml has no version");
    return m.group(1);
  }

  /** The first element {@code name} after the pom's parent block. */
  private static String tag(String pom, String name) {
    String body = pom.contains("</parent>") ? pom.substring(pom.indexOf("</parent>")) : pom;
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">").matcher(body);
    assertTrue(m.find(), "no <" + name + "> in a pom");
    return m.group(1).trim();
  }

  private static String read(Path file) throws IOException {
    return Files.readString(file);
  }
}
