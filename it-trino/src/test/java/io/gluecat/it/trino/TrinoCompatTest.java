package io.gluecat.it.trino;

import io.gluecat.it.spark.CatalogModeTest;
import io.gluecat.testkit.S3HoldingProxy;
import io.gluecat.testkit.compat.CompatResults;
import io.gluecat.testkit.trino.TrinoCatalogs;
import io.gluecat.testkit.trino.TrinoServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Base of the Trino compatibility suites: the shared Spark test base ({@link CatalogModeTest}: one SparkSession
 * and one MiniStack per test JVM, a new Glue database per test, both catalog modes) and one Trino server per test
 * JVM (static, started on first use). Trino has two Delta Lake catalogs on MiniStack's Glue: {@value #TRINO_LOCAL}
 * on Trino's native local file system rooted at {@link #localRoot()}, where the Spark side keeps its tables too,
 * and {@value #TRINO_S3} on MiniStack's S3 through Trino's native S3 file system ({@value #TRINO_S3_PROXIED}: the
 * same, through {@link #S3_PROXY}). Its Hive connector ({@value #TRINO_HIVE}) and Iceberg connector
 * ({@value #TRINO_ICEBERG}, on S3) use the same Glue.
 */
@ExtendWith(CompatResults.class)
abstract class TrinoCompatTest extends CatalogModeTest {
  static final String TRINO_LOCAL = "delta";
  static final String TRINO_S3 = "delta_s3";
  /** Trino's Hive connector on the same Glue and local file system: partitions come from Glue's partition objects. */
  static final String TRINO_HIVE = "hive";
  /** Trino's Iceberg connector on the same Glue, on MiniStack's S3 (TrinoCompatIcebergIT). */
  static final String TRINO_ICEBERG = "iceberg_s3";

  /**
   * Trino's Delta Lake connector on MiniStack's S3 through {@link #S3_PROXY}: a suite that sends gluecat's S3A
   * requests there too can hold both engines' commit PUTs until both are in flight.
   */
  static final String TRINO_S3_PROXIED = "delta_s3_proxied";
  /** A proxy in front of MiniStack's S3, started with the JVM's Trino server (for {@value #TRINO_S3_PROXIED}). */
  static final S3HoldingProxy S3_PROXY = startProxy();

  private static TrinoServer trino;
  private static Connection trinoConnection;
  /** Trino starts while the JVM starts Spark: the two take the longest, and overlap. */
  private static CompletableFuture<TrinoServer> trinoStart = startTrino();

  /** Where this suite's Glue database for a test lives: by default {@link #newTrinoDirectory}. */
  @Override
  protected String newDatabaseLocation(String database) {
    return newTrinoDirectory(database);
  }

  /** Options added to this suite's gluecat catalogs (both modes). */
  protected Map<String, String> extraCatalogOptions() {
    return Map.of();
  }

  @Override
  protected Map<String, String> catalogOptions() {
    Map<String, String> options = ministackOptions();
    // Trino's local file system stores local:///<path under its local.location>; gluecat opens those under
    // the same directory, and stores what it writes there the same way.
    options.put("location.map", "local:///=file:" + localRoot() + "/");
    options.putAll(extraCatalogOptions());
    return options;
  }

  /** The root of Trino's native local file system ({@code local.location}); the Spark side's data lives below it. */
  protected static Path localRoot() {
    Path root = scratch().resolve("local");
    try {
      return Files.createDirectories(root);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * A fresh directory under {@link #localRoot()}, named as Trino's local file system names it
   * ({@code local:///data/<name>}): the location a Trino user gives a schema.
   */
  protected static String newTrinoDirectory(String name) {
    try {
      Files.createDirectories(localRoot().resolve("data").resolve(name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return "local:///data/" + name;
  }

  // ---------------------------------------------------------------- Trino

  /** How Trino names a table of this test's database: in {@value #TRINO_LOCAL}, unless a suite says otherwise. */
  protected String trinoName(String table) {
    return TRINO_LOCAL + "." + db + "." + table;
  }

  private static CompletableFuture<TrinoServer> startTrino() {
    return TrinoServer.builder()
        .catalog(TRINO_LOCAL, TrinoCatalogs.deltaLakeOnGlue(MINISTACK), TrinoCatalogs.localFileSystem(localRoot()),
            // Trino refuses writes on its local file system without it ("in order to avoid eventual data
            // corruption ... concurrent data modifications"): the tests never write one table from two engines at once.
            Map.of("delta.enable-non-concurrent-writes", "true"))
        .catalog(TRINO_S3, TrinoCatalogs.deltaLakeOnGlue(MINISTACK), TrinoCatalogs.s3FileSystem(MINISTACK))
        .catalog(TRINO_S3_PROXIED, TrinoCatalogs.deltaLakeOnGlue(MINISTACK), TrinoCatalogs.s3FileSystem(MINISTACK),
            Map.of("s3.endpoint", S3_PROXY.endpoint().toString()))
        .catalog(TRINO_HIVE, TrinoCatalogs.hiveOnGlue(MINISTACK), TrinoCatalogs.localFileSystem(localRoot()),
            // Trino runs Hive views (Spark's and Hive's) only with this on; its own views need nothing
            Map.of("hive.hive-views.enabled", "true"))
        .catalog(TRINO_ICEBERG, TrinoCatalogs.icebergOnGlue(MINISTACK), TrinoCatalogs.s3FileSystem(MINISTACK))
        .startAsync();
  }

  private static S3HoldingProxy startProxy() {
    try {
      return new S3HoldingProxy(MINISTACK.endpoint());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The JVM's Trino server with the two Delta Lake catalogs (stopped at JVM exit by the fixture). */
  protected static synchronized TrinoServer trino() {
    if (trino == null) {
      try {
        trino = trinoStart.join();
      } catch (CompletionException e) {
        throw e.getCause() instanceof RuntimeException ? (RuntimeException) e.getCause() : e;
      }
      System.err.printf("[it-trino] %s ready in %.1f s%n", trino, trino.startupTime().toMillis() / 1000.0);
    }
    return trino;
  }

  private static synchronized Connection trinoConnection() throws SQLException {
    if (trinoConnection == null || trinoConnection.isClosed()) {
      trinoConnection = DriverManager.getConnection(trino().jdbcUrl(), "gluecat-test", null);
    }
    return trinoConnection;
  }

  /** A Trino query's rows, each as {@code [v1, v2]} (Java {@code toString} of the JDBC values), in the query's order. */
  protected static List<String> trinoRows(String query) {
    return onceTheNodeIsActive(query, () -> {
      List<String> rows = new ArrayList<>();
      try (Statement statement = trinoConnection().createStatement(); ResultSet rs = statement.executeQuery(query)) {
        int columns = rs.getMetaData().getColumnCount();
        while (rs.next()) {
          List<String> row = new ArrayList<>();
          for (int i = 1; i <= columns; i++) {
            row.add(String.valueOf(rs.getObject(i)));
          }
          rows.add(row.toString());
        }
      }
      return rows;
    });
  }

  /** Runs a Trino statement (DDL or DML). */
  protected static void trinoRun(String statement) {
    onceTheNodeIsActive(statement, () -> {
      try (Statement s = trinoConnection().createStatement()) {
        s.execute(statement);
      }
      return null;
    });
  }

  private interface TrinoCall<T> {
    T call() throws SQLException;
  }

  /**
   * Runs a statement, again while Trino answers NO_NODES_AVAILABLE: a freshly started server schedules
   * work on a catalog only once its own node's announcement of that catalog was refreshed (seconds after
   * it reports itself started). The refusal comes before anything runs, so running again is safe.
   */
  private static <T> T onceTheNodeIsActive(String statement, TrinoCall<T> call) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(120);
    while (true) {
      try {
        return call.call();
      } catch (SQLException e) {
        boolean noNodeYet = String.valueOf(e.getMessage()).contains("No nodes available to run query");
        if (!noNodeYet || System.nanoTime() > deadline) {
          throw new TrinoQueryException(statement, e);
        }
        try {
          Thread.sleep(500);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new TrinoQueryException(statement, e);
        }
      }
    }
  }

  /** A failed Trino statement, with the statement and Trino's message. */
  static final class TrinoQueryException extends RuntimeException {
    TrinoQueryException(String statement, SQLException cause) {
      super("Trino: " + cause.getMessage() + "\n  statement: " + statement, cause);
    }
  }
}
