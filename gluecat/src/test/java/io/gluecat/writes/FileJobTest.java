package io.gluecat.writes;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FileJobTest {

  @Test
  void writingAvroWithoutSparkAvroNamesTheTableAndTheArtifact() {
    ClassLoader withoutSparkAvro = new ClassLoader(null) {};
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> FileJob.fileFormat("glue.sales.events", "avro", withoutSparkAvro));
    assertTrue(e.getMessage().startsWith("Table glue.sales.events: writing its avro files needs Spark's avro source"),
        e.getMessage());
    assertTrue(e.getMessage().contains("org.apache.spark:spark-avro_"), e.getMessage());
    assertTrue(e.getMessage().endsWith("Nothing was written."), e.getMessage());
  }

  @Test
  void aFormatGluecatDoesNotWriteIsRefusedNamingTheTable() {
    UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
        () -> FileJob.fileFormat("glue.sales.events", "sequencefile", getClass().getClassLoader()));
    assertTrue(e.getMessage().equals("Table glue.sales.events: gluecat does not write sequencefile files. Nothing "
        + "was written."), e.getMessage());
  }
}
