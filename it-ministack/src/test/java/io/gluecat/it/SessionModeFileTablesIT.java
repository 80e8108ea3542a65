package io.gluecat.it;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** Every file source table test again, with gluecat as spark_catalog (two-part names reach Glue). */
class SessionModeFileTablesIT extends FileTablesIT {

  @BeforeEach
  @Override
  void setUp() {
    session = newSessionModeSession();
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
