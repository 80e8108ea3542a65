package io.gluecat.files;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InsertBatchWriteTest {

  @Test
  void writingAvroWithoutSparkAvroNamesTheTableAndTheArtifact() {
    ClassLoader withoutSparkAvro = new ClassLoader(null) {};
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> InsertBatchWrite.fileFormat("glue.sales.events", "avro", withoutSparkAvro));
    assertTrue(e.getMessage().startsWith("Table glue.sales.events: writing its avro files needs Spark's avro source"),
        e.getMessage());
    assertTrue(e.getMessage().contains("org.apache.spark:spark-avro_"), e.getMessage());
    assertTrue(e.getMessage().endsWith("Nothing was written."), e.getMessage());
  }
}
