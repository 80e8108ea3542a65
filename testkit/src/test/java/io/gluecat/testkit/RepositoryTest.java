package io.gluecat.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which row of matrix.yaml is the newest, the one that runs what no Spark line changes. */
class RepositoryTest {

  @Test
  void theNewestRowIsTheLastItemOfRowsNotANestedOrLaterList() {
    List<String> lines = List.of(
        "# rows, runtimes and not-covered",
        "rows:",
        "  - id: spark-3.5",
        "    spark: 3.5.9",
        "    runtimes:",
        "      - id: glue-5.0",
        "  # a comment inside the list",
        "  - id: spark-4.2",
        "    runtimes:",
        "      - id: glue-7.0",
        "not-covered:",
        "  - id: emr-8.0");
    assertEquals("spark-4.2", Repository.newestRow(lines));
  }

  @Test
  void theRepositorysMatrixNamesItsLastRow() throws Exception {
    List<String> lines = Files.readAllLines(Repository.root().resolve("matrix.yaml"));
    String lastRow = null;
    for (String line : lines) {
      if (line.startsWith("  - id: ")) {
        lastRow = line.substring("  - id: ".length()).trim();
      } else if (line.startsWith("not-covered:")) {
        break;
      }
    }
    assertEquals(lastRow, Repository.newestRow(lines));
  }
}
