package io.gluecat.it.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The AWS runtime pair a module runs on, as matrix.yaml lists it under its row's {@code runtimes:} (system
 * properties {@code gluecat.matrix.row} and {@code gluecat.runtime.pair}, set by the module's pom): its Spark
 * and Delta, its status and, for status {@code limit}, what fails.
 */
record RuntimePair(String row, String id, String name, String spark, String delta, String status,
    Map<String, String> limits, String rowHadoop) {

  /** The known limit of journey step {@code step} on this pair; empty when it has none. */
  String limitOf(String step) {
    return limits.getOrDefault(step, "");
  }

  static RuntimePair fromMatrix() {
    String row = System.getProperty("gluecat.matrix.row");
    String id = System.getProperty("gluecat.runtime.pair");
    if (row == null || id == null) {
      throw new IllegalStateException("system properties gluecat.matrix.row and gluecat.runtime.pair must be set");
    }
    List<String> lines;
    try {
      lines = Files.readAllLines(Paths.get(System.getProperty("gluecat.matrix.file", "matrix.yaml")));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // rows start at "  - id:", their keys at four spaces, runtimes at "      - id:", their keys at eight
    Map<String, String> rowKeys = new LinkedHashMap<>();
    Map<String, String> pair = null;
    Map<String, String> limits = new LinkedHashMap<>();
    String step = null;
    boolean inRow = false;
    for (String raw : lines) {
      String line = raw.replaceAll("\\s+#.*$", "").replaceAll("^#.*$", "");
      if (line.startsWith("  - id:")) {
        inRow = line.substring(7).trim().equals(row);
      } else if (!line.startsWith(" ") && !line.isBlank()) {
        inRow = false;
      } else if (inRow && line.startsWith("      - id:")) {
        if (pair != null && pair.get("id").equals(id)) {
          break;
        }
        pair = new LinkedHashMap<>();
        pair.put("id", line.substring(11).trim());
      } else if (inRow && line.startsWith("          - step:") && pair != null && pair.get("id").equals(id)) {
        step = line.substring(17).trim();
      } else if (inRow && line.startsWith("            reason:") && step != null) {
        putKey(limits, step + line.trim().substring(6));
      } else if (inRow && line.startsWith("        ") && !line.startsWith("         ") && pair != null) {
        putKey(pair, line);
      } else if (inRow && line.startsWith("    ") && !line.startsWith("     ")) {
        putKey(rowKeys, line);
      }
    }
    if (pair == null || !pair.get("id").equals(id)) {
      throw new IllegalStateException("matrix.yaml: row " + row + " lists no runtime " + id);
    }
    return new RuntimePair(row, id, pair.get("name"), pair.get("spark"), pair.get("delta"), pair.get("status"),
        limits, rowKeys.get("hadoop"));
  }

  private static void putKey(Map<String, String> keys, String line) {
    int colon = line.indexOf(':');
    if (colon > 0) {
      keys.put(line.substring(0, colon).trim(), line.substring(colon + 1).trim().replaceAll("^\"|\"$", ""));
    }
  }
}
