package io.gluecat.it.spark;

import io.gluecat.testkit.compat.CompatResults;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * Tests that run in both catalog modes: gluecat registered as a catalog of its own (named mode), and, in a
 * subclass whose {@link #sessionMode()} is true, as spark_catalog in a session of the test's own. Each test
 * gets a new Glue database; statements name its tables with {@link #t(String)} and run with {@link #run} or
 * {@link #rows} in the test's session. Compatibility results ({@link CompatResults}) note the mode.
 */
public abstract class CatalogModeTest extends MiniStackSparkTest implements CompatResults.CatalogModeAware {
  protected SparkSession session;
  protected String catalog;
  protected String db;
  protected String dbLocation;

  /** Whether gluecat is spark_catalog in this run. */
  protected boolean sessionMode() {
    return false;
  }

  /**
   * Marks a test whose statements take the same path in both modes, so it runs in named mode only and the
   * session-mode subclass reports it skipped, saying why. That holds for statements on a Delta table that already
   * exists: with gluecat as spark_catalog, Spark's ResolveSessionCatalog keeps its V1 commands to itself
   * ({@code supportsV1Command} is false for a replaced spark_catalog that is no CatalogExtension), so two-part
   * names resolve through the same {@code loadTable} as three-part ones, to the same DeltaTableV2, and Delta's
   * DML, time travel, RESTORE, OPTIMIZE, VACUUM, DESCRIBE HISTORY, constraints and ALTER TABLE run on it alike.
   * It does not hold, and a test keeps its session twin, for creates and replaces, renames, the DataFrame writers
   * (their session-catalog branch), views, functions, bare names, file source tables (Spark reads a V1Table of
   * spark_catalog through its own V1 relation), CLONE, CONVERT TO DELTA and CREATE TABLE LIKE (gluecat's
   * extension), and whatever the session extension rewrites. Part of the CI budget (docs/architecture.md).
   */
  protected void namedModeOnly() {
    org.junit.jupiter.api.Assumptions.assumeFalse(sessionMode(),
        "the same code path as in named mode, which the named-mode suite runs (CatalogModeTest.namedModeOnly)");
  }

  @Override
  public String catalogMode() {
    return sessionMode() ? "session" : "named";
  }

  /** The options of the test's gluecat catalog, in both modes: by default {@link #ministackOptions()}. */
  protected Map<String, String> catalogOptions() {
    return ministackOptions();
  }

  /** Where the test's Glue database lives: by default a new directory ({@link #newDirectory}). */
  protected String newDatabaseLocation(String database) {
    return newDirectory("db");
  }

  @BeforeEach
  protected void setUpCatalogMode() {
    Map<String, String> options = catalogOptions();
    if (sessionMode()) {
      session = newSessionModeSession(options);
      catalog = "spark_catalog";
    } else {
      session = spark();
      catalog = newCatalog(options);
    }
    db = unique("db");
    dbLocation = newDatabaseLocation(db);
    GLUE.createDatabase(r -> r.databaseInput(d -> d.name(db).locationUri(dbLocation)));
  }

  /** Session mode made its own session the active one; later tests expect the shared session back. */
  @AfterEach
  protected void restoreActiveSession() {
    if (sessionMode()) {
      SparkSession.setActiveSession(spark());
    }
  }

  /** The test's session: the shared one in named mode, its own in session mode. */
  @Override
  protected SparkSession session() {
    return session;
  }

  /** The name statements use for this test's database: catalog.db, or db in session mode. */
  protected String database() {
    return sessionMode() ? db : catalog + "." + db;
  }

  /** How a statement names a table of this test's database. */
  protected String t(String table) {
    return database() + "." + table;
  }

  /** A table of this test's database with its catalog named in both modes: catalog.db.table. */
  protected String qualified(String table) {
    return catalog + "." + db + "." + table;
  }
}
