package io.gluecat.it;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Every file source table test again, with gluecat as spark_catalog (two-part names reach Glue). */
class SessionModeFileTablesIT extends FileTablesIT {

  @BeforeEach
  @Override
  void setUp() {
    session = spark().newSession();
    SparkSession.setActiveSession(session); // Spark resolves catalogs with the active session's settings
    session.conf().set("spark.sql.catalog.spark_catalog", "io.gluecat.GlueCatalog");
    ministackOptions().forEach((k, v) -> session.conf().set("spark.sql.catalog.spark_catalog." + k, v));
    catalog = "spark_catalog";
    dbLocation = newDirectory("db");
    db = newDatabase(dbLocation);
  }

  @AfterEach
  void restoreActiveSession() {
    SparkSession.setActiveSession(spark());
  }

  @Override
  protected boolean sessionMode() {
    return true;
  }

  @Override
  protected String database() {
    return db;
  }
}
