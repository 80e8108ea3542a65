package io.gluecat.extensions;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class GlueCatalogExtensionsTest {
  private static final String GLUECAT = "io.gluecat.extensions.GlueCatalogExtensions";
  private static final String DELTA = "io.delta.sql.DeltaSparkSessionExtension";

  @Test
  void deltaBeforeGluecatIsRefusedInSessionModeWithTheSettingToUse() {
    String problem = GlueCatalogExtensions.orderProblem(DELTA + ", " + GLUECAT, "io.gluecat.GlueCatalog");
    assertNotNull(problem);
    assertTrue(problem.contains("spark.sql.extensions=" + GLUECAT + "," + DELTA), problem);
  }

  @Test
  void anyOtherCombinationIsFine() {
    assertNull(GlueCatalogExtensions.orderProblem(GLUECAT + "," + DELTA, "io.gluecat.GlueCatalog"));
    // named mode: spark_catalog is Delta's, and only session-mode statements depend on the order
    assertNull(GlueCatalogExtensions.orderProblem(DELTA + "," + GLUECAT,
        "org.apache.spark.sql.delta.catalog.DeltaCatalog"));
    assertNull(GlueCatalogExtensions.orderProblem(GLUECAT, "io.gluecat.GlueCatalog"));
    assertNull(GlueCatalogExtensions.orderProblem("", ""));
  }
}
