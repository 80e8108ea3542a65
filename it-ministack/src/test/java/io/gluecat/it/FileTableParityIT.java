package io.gluecat.it;

import io.gluecat.it.spark.SparkCatalogParityTest;
import org.junit.jupiter.api.Test;

/**
 * File source tables through gluecat against the same statements on Spark's own catalog (named mode here,
 * session mode in {@link SessionModeFileTableParityIT}): rows, errors and DESCRIBE output compared by
 * {@link SparkCatalogParityTest}.
 */
class FileTableParityIT extends SparkCatalogParityTest {

  @Test
  void insertsWithAColumnListAndByName() {
    onBoth("CREATE TABLE {t} (id INT, k STRING, v DOUBLE) USING parquet PARTITIONED BY (k)",
        "INSERT INTO {t} VALUES (1, 1.5, 'a')");
    assertSameOutcome("INSERT INTO {t} (id, k) VALUES (2, 'b')");
    assertSameOutcome("INSERT INTO {t} BY NAME SELECT 'c' AS k, 3 AS id, 0.5 AS v");
    assertSameRowsAnyOrder("SELECT * FROM {t}");
  }

  @Test
  void storeAssignmentErrorsAreSparks() {
    onBoth("CREATE TABLE {t} (id INT, k STRING) USING parquet");
    assertSameOutcome("INSERT INTO {t} VALUES ('not a number', 'a')");
    assertSameOutcome("INSERT INTO {t} SELECT 1");
  }
}
