package io.gluecat.delta;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What CREATE TABLE LIKE copies from a Delta source's properties (DeltaTables.likeProperties). */
class DeltaLikePropertiesTest {

  @Test
  void copiesTheSourcesPropertiesAndCommentButNothingOfItsOwnOrOfTheCatalog() {
    Map<String, String> source = new LinkedHashMap<>();
    source.put("provider", "delta");
    source.put("location", "s3a://lake/src");
    source.put("owner", "alice");
    source.put("external", "true");
    source.put("comment", "the source");
    source.put("team", "finance");
    source.put("option.fs.s3a.endpoint", "http://localhost:4566");
    source.put("delta.appendOnly", "true");
    source.put("delta.minReaderVersion", "1");
    source.put("delta.feature.deletionVectors", "supported");
    source.put("delta.columnMapping.mode", "name");
    source.put("delta.columnMapping.maxColumnId", "7");
    source.put("delta.rowTracking.materializedRowIdColumnName", "_row-id-col-1");
    source.put("delta.coordinatedCommits.commitCoordinator-preview", "uc");
    source.put("delta.feature.catalogOwned-preview", "supported");
    source.put("spark.sql.sources.provider", "delta");

    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("team", "finance");
    expected.put("delta.appendOnly", "true");
    expected.put("delta.minReaderVersion", "1");
    expected.put("delta.feature.deletionVectors", "supported");
    expected.put("delta.columnMapping.mode", "name");
    expected.put("comment", "the source");
    assertEquals(expected, DeltaTables.likeProperties(source));
  }
}
