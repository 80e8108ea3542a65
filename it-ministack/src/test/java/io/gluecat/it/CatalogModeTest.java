package io.gluecat.it;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Tests that run in both catalog modes: gluecat registered as a catalog of its own (named mode), and, in a
 * subclass whose {@link #sessionMode()} is true, as spark_catalog in a session of the test's own. Each test
 * gets a new Glue database; statements name its tables with {@link #t(String)}.
 */
abstract class CatalogModeTest extends MiniStackSparkTest {
  protected SparkSession session;
  protected String catalog;
  protected String db;
  protected String dbLocation;

  /** Whether gluecat is spark_catalog in this run. */
  protected boolean sessionMode() {
    return false;
  }

  @BeforeEach
  void setUpCatalogMode() {
    if (sessionMode()) {
      session = newSessionModeSession();
      catalog = "spark_catalog";
    } else {
      session = spark();
      catalog = newCatalog();
    }
    dbLocation = newDirectory("db");
    db = newDatabase(dbLocation);
  }

  /** Session mode made its own session the active one; later tests expect the shared session back. */
  @AfterEach
  void restoreActiveSession() {
    if (sessionMode()) {
      SparkSession.setActiveSession(spark());
    }
  }

  /** The name statements use for this test's database: catalog.db, or db in session mode. */
  protected String database() {
    return sessionMode() ? db : catalog + "." + db;
  }

  /** How a statement names a table of this test's database. */
  protected String t(String table) {
    return database() + "." + table;
  }

  protected List<Row> run(String statement) {
    return session.sql(statement).collectAsList();
  }
}
