package io.gluecat;

import io.gluecat.compat.Scala;
import io.gluecat.config.SparkEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;
import static org.junit.jupiter.api.Assertions.*;

/**
 * matrix.yaml is the record of what each artifact supports. This test reads the row this module builds
 * (system property gluecat.matrix.row, set by the module's pom) and checks that the Spark, Scala, Delta,
 * Hadoop and Java this JVM runs on are exactly the ones that row names, so the pom cannot drift from it.
 */
public class MatrixRowTest {

  @Test
  void theClasspathIsTheMatrixRow() throws IOException {
    Map<String, String> row = row(System.getProperty("gluecat.matrix.row"));
    assertEquals(row.get("spark"), SparkEnvironment.sparkVersion(), "Spark");
    assertEquals(row.get("scala"), scala.util.Properties.versionNumberString().replaceAll("^(\\d+\\.\\d+).*", "$1"),
        "Scala");
    assertEquals(row.get("hadoop"), VersionInfo.getVersion(), "Hadoop");
    assertEquals(row.get("java"), Integer.toString(Runtime.version().feature()), "Java");
    assertEquals(row.get("delta"), deltaVersion(), "Delta");
  }

  /** The build info the catalog checks the running Spark against names this row's artifact and Spark. */
  @Test
  void theJarRecordsTheRowItIsBuiltFor() throws IOException {
    Map<String, String> row = row(System.getProperty("gluecat.matrix.row"));
    java.util.Properties built = new java.util.Properties();
    try (java.io.InputStream in = MatrixRowTest.class.getResourceAsStream("/io/gluecat/build-info.properties")) {
      assertNotNull(in, "io/gluecat/build-info.properties is not on the classpath");
      built.load(in);
    }
    assertEquals(row.get("artifact"), built.getProperty("artifact"), "artifact");
    assertEquals(row.get("spark"), built.getProperty("spark.version"), "Spark");
  }

  private static String deltaVersion() {
    return org.apache.spark.sql.delta.catalog.DeltaCatalog.class.getPackage().getImplementationVersion();
  }

  /** The ids of matrix.yaml's rows, in order. */
  public static List<String> ids() throws IOException {
    List<String> ids = new java.util.ArrayList<>();
    boolean inRows = false;
    for (String raw : Files.readAllLines(matrixFile())) {
      String line = raw.replaceAll("#.*$", "");
      if (!line.startsWith(" ") && !line.isBlank()) {
        inRows = line.trim().equals("rows:"); // not-covered: lists runtimes, not rows
      } else if (inRows && line.startsWith(ROW_START)) { // a row; the runtimes listed under it are indented further
        ids.add(line.substring(ROW_START.length()).trim());
      }
    }
    return ids;
  }

  /** How a row of matrix.yaml starts (rows are the list under {@code rows:}, indented by two). */
  private static final String ROW_START = "  - id:";

  /** matrix.yaml (system property gluecat.matrix.file, set by the parent pom). */
  public static Path matrixFile() {
    return Paths.get(System.getProperty("gluecat.matrix.file", "matrix.yaml"));
  }

  /** Reads one row of matrix.yaml: the flat "key: value" lines under "- id: <id>". */
  public static Map<String, String> row(String id) throws IOException {
    assertNotNull(id, "system property gluecat.matrix.row is not set");
    Path file = matrixFile();
    List<String> lines = Files.readAllLines(file);
    Map<String, String> row = null;
    boolean nested = false;
    for (String raw : lines) {
      String line = raw.replaceAll("#.*$", "").trim();
      if (!raw.startsWith(" ") && !line.isEmpty() && row != null) {
        break; // the next top-level key (not-covered:)
      }
      if (raw.startsWith(ROW_START)) {
        if (row != null) {
          break;
        }
        if (raw.substring(ROW_START.length()).replaceAll("#.*$", "").trim().equals(id)) {
          row = new LinkedHashMap<>();
          row.put("id", id);
        }
      } else if (row != null && line.endsWith(":") || row != null && line.equals("runtimes: []")) {
        nested = true; // the row's runtimes: their keys are not the row's
      } else if (row != null && !nested && line.contains(":")) {
        int colon = line.indexOf(':');
        row.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim().replace("\"", ""));
      }
    }
    assertNotNull(row, "matrix.yaml " + file + " has no row " + id);
    return row;
  }
}
