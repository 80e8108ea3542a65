package io.gluecat.tools.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArgumentsTest {
  @TempDir
  Path dir;

  @Test
  void confOptionsTakeTheCatalogsNames() {
    Arguments a = Arguments.parse(List.of("doctor", "sales", "orders", "--conf", "region=eu-west-1",
        "--conf", "spark.sql.catalog.glue.glue.id=123456789012", "--json"));
    assertEquals("doctor", a.command());
    assertEquals(List.of("sales", "orders"), a.positional());
    assertEquals("glue", a.catalog());
    assertEquals(Map.of("region", "eu-west-1", "glue.id", "123456789012"), a.options());
    assertTrue(a.json());
  }

  @Test
  void optionsAreCheckedAsTheCatalogChecksThem() {
    UsageException e = assertThrows(UsageException.class,
        () -> Arguments.parse(List.of("doctor", "sales", "--conf", "glue.id=12")));
    assertEquals("gluecat catalog 'glue': option glue.id (spark.sql.catalog.glue.glue.id) '12' must be a 12-digit "
        + "AWS account id", e.getMessage());
    assertEquals("--conf takes <option>=<value> (for example --conf region=eu-west-1), got 'region'",
        assertThrows(UsageException.class, () -> Arguments.parse(List.of("doctor", "x", "--conf", "region")))
            .getMessage());
    assertEquals("unknown flag --force",
        assertThrows(UsageException.class, () -> Arguments.parse(List.of("repair", "x", "--force"))).getMessage());
    assertEquals("--scan needs a value",
        assertThrows(UsageException.class, () -> Arguments.parse(List.of("register", "x", "--scan"))).getMessage());
  }

  @Test
  void propertiesFilePicksTheOneGluecatCatalog() throws IOException {
    Path file = dir.resolve("spark-defaults.conf");
    Files.writeString(file, String.join("\n",
        "# a job's settings",
        "spark.sql.extensions            io.delta.sql.DeltaSparkSessionExtension",
        "spark.sql.catalog.lake          io.gluecat.GlueCatalog",
        "spark.sql.catalog.lake.region   eu-west-1",
        "spark.sql.catalog.lake.glue.id=123456789012",
        "spark.sql.catalog.other.region  us-east-1"));
    Arguments a = Arguments.parse(List.of("doctor", "sales", "--properties-file", file.toString(),
        "--conf", "region=eu-central-1"));
    assertEquals("lake", a.catalog());
    assertEquals(Map.of("region", "eu-central-1", "glue.id", "123456789012"), a.options(), "--conf wins");
  }

  @Test
  void propertiesFileWithSeveralCatalogsNeedsCatalog() throws IOException {
    Path file = dir.resolve("two.conf");
    Files.writeString(file, String.join("\n",
        "spark.sql.catalog.a io.gluecat.GlueCatalog",
        "spark.sql.catalog.a.region eu-west-1",
        "spark.sql.catalog.b io.gluecat.GlueCatalog",
        "spark.sql.catalog.b.region us-east-1"));
    UsageException e = assertThrows(UsageException.class,
        () -> Arguments.parse(List.of("doctor", "sales", "--properties-file", file.toString())));
    assertTrue(e.getMessage().endsWith("configures several gluecat catalogs (a, b): choose one with --catalog <name>"),
        e.getMessage());
    Arguments b = Arguments.parse(List.of("doctor", "sales", "--properties-file", file.toString(), "--catalog", "b"));
    assertEquals(Map.of("region", "us-east-1"), b.options());
    assertTrue(assertThrows(UsageException.class, () -> Arguments.parse(List.of("doctor", "sales",
        "--properties-file", dir.resolve("missing.conf").toString()))).getMessage()
        .startsWith("cannot read the properties file "));
  }
}
