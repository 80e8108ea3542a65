package io.gluecat.it;

import static io.gluecat.it.HiveFormatTablesIT.LAZY_SIMPLE;
import static io.gluecat.it.HiveFormatTablesIT.TEXT_INPUT;
import static io.gluecat.it.HiveFormatTablesIT.TEXT_OUTPUT;
import static io.gluecat.it.HiveFormatTablesIT.hiveEntry;
import static io.gluecat.it.HiveFormatTablesIT.writeFile;
import static io.gluecat.it.TableLoadIT.assertMessage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.gluecat.iceberg.IcebergTables;
import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.compat.CompatCase;
import io.gluecat.testkit.compat.CompatResults;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * One Glue database as a lake holds it (issue #45), with gluecat as spark_catalog: a Delta table gluecat wrote, an
 * Iceberg table Iceberg's own SparkCatalog wrote (as EMR and Glue jobs write), a parquet table, a Glue crawler's
 * CSV table and a view over all four, listed, queried, written and joined by two-part names. On a line without
 * Iceberg's Spark runtime (Spark 4.2) the Iceberg table is listed and refused by name, saying why, and the rest
 * of the database is served as usual.
 */
@ExtendWith(CompatResults.class)
class MixedDatabaseJourneyIT extends CatalogModeTest {
  private static final String TITLE = "One database with a Delta, an Iceberg (Iceberg's SparkCatalog), a parquet and "
      + "a crawler CSV table and a view over them: listed, joined, written and read by two-part names in session mode";

  @Override
  protected boolean sessionMode() {
    return true;
  }

  /** The Delta, parquet and crawler CSV tables; the Iceberg table is each test's own. */
  private void deltaParquetAndCrawlerTables() {
    run("CREATE TABLE " + t("customers") + " (id BIGINT, name STRING, region STRING) USING delta");
    run("INSERT INTO " + t("customers") + " VALUES (1, 'ada', 'eu'), (2, 'bob', 'us')");
    run("CREATE TABLE " + t("regions") + " USING parquet AS "
        + "SELECT * FROM VALUES ('eu', 'EUR'), ('us', 'USD') AS r(region, currency)");
    String rates = newDirectory("rates");
    writeFile(rates, "part-0.csv", "currency,rate\nEUR,1.25\nUSD,1.0\n");
    hiveEntry(db, "rates", rates, LAZY_SIMPLE, TEXT_INPUT, TEXT_OUTPUT, Map.of("field.delim", ","),
        Map.of("classification", "csv", "skip.header.line.count", "1", "UPDATED_BY_CRAWLER", "crawler"),
        List.of("currency string", "rate double"), List.of());
  }

  private List<String> tables() {
    return run("SHOW TABLES IN " + db).stream().map(r -> r.getString(1)).sorted().collect(Collectors.toList());
  }

  @Test
  @CompatCase(id = "mixed-database", writer = "gluecat+iceberg-spark+glue-crawler", reader = "gluecat", title = TITLE)
  void everyKindOfTableOfOneDatabaseByTwoPartNames() {
    assumeTrue(IcebergTables.AVAILABLE, "Iceberg's Spark runtime is not on this line's classpath");
    deltaParquetAndCrawlerTables();
    String ice = IcebergTablesIT.icebergsOwnCatalog(session(), unique("ice"), newDirectory("ice-warehouse"));
    run("CREATE TABLE " + ice + "." + db + ".orders (id BIGINT, customer BIGINT, amount DOUBLE) USING iceberg");
    run("INSERT INTO " + ice + "." + db + ".orders VALUES (10, 1, 8.0), (11, 2, 5.0)");

    run("CREATE VIEW " + db + ".order_report AS SELECT o.id, c.name, o.amount * x.rate AS amount_usd "
        + "FROM " + db + ".orders o JOIN " + db + ".customers c ON o.customer = c.id "
        + "JOIN " + db + ".regions r ON c.region = r.region JOIN " + db + ".rates x ON r.currency = x.currency");

    assertEquals(List.of("customers", "order_report", "orders", "rates", "regions"), tables());
    assertEquals(List.of("[10,ada,10.0]", "[11,bob,5.0]"), rows("SELECT * FROM " + db + ".order_report ORDER BY id"));

    // writes by two-part names: Iceberg's through Iceberg's catalog, Delta's through gluecat
    run("INSERT INTO " + db + ".orders VALUES (12, 1, 4.0)");
    run("INSERT INTO " + db + ".customers VALUES (3, 'cy', 'us')");
    run("UPDATE " + db + ".orders SET customer = 3 WHERE id = 11");
    run("USE " + db); // (session mode: the test's own session)
    assertEquals(List.of("[10,ada,10.0]", "[11,cy,5.0]", "[12,ada,5.0]"),
        rows("SELECT * FROM order_report ORDER BY id"));
    assertEquals(List.of("[ada,15.0]", "[cy,5.0]"), rows("SELECT c.name, sum(o.amount * x.rate) FROM orders o "
        + "JOIN customers c ON o.customer = c.id JOIN regions r ON c.region = r.region "
        + "JOIN rates x ON r.currency = x.currency GROUP BY c.name ORDER BY c.name"));
    assertEquals(List.of("[3]"), rows("SELECT count(*) FROM " + ice + "." + db + ".orders"),
        "Iceberg's own catalog reads what gluecat's name wrote");
    assertEquals(List.of("ICEBERG", "DELTA"), List.of(glueTable(db, "orders").parameters().get("table_type"),
        glueTable(db, "customers").parameters().get("table_type")));
  }

  @Test
  @CompatCase(id = "mixed-database", writer = "gluecat+iceberg-spark+glue-crawler", reader = "gluecat", title = TITLE,
      limit = "Apache Iceberg publishes no Spark runtime for this Spark line: the Iceberg table is listed and refused "
          + "by name, saying why; the database's other tables and a view over them are served as usual")
  void withoutIcebergsRuntimeTheRestOfTheDatabaseIsServed() {
    assumeFalse(IcebergTables.AVAILABLE, "Iceberg's Spark runtime is on this line's classpath");
    deltaParquetAndCrawlerTables();
    GLUE.createTable(r -> r.databaseName(db).tableInput(t -> t.name("orders").tableType("EXTERNAL_TABLE")
        .parameters(Map.of("table_type", "ICEBERG", "metadata_location", newDirectory("orders") + "/metadata/v1.json"))));
    run("CREATE VIEW " + db + ".customer_currency AS SELECT c.name, x.rate FROM " + db + ".customers c "
        + "JOIN " + db + ".regions r ON c.region = r.region JOIN " + db + ".rates x ON r.currency = x.currency");

    assertEquals(List.of("customer_currency", "customers", "orders", "rates", "regions"), tables());
    assertEquals(List.of("[ada,1.25]", "[bob,1.0]"), rows("SELECT * FROM " + db + ".customer_currency ORDER BY name"));
    assertMessage(() -> run("SELECT * FROM " + db + ".orders"), db + ".orders", "Apache Iceberg table",
        "does not publish one for Spark");
  }
}
