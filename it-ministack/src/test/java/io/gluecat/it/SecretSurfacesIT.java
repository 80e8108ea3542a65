package io.gluecat.it;

import io.gluecat.it.spark.LogCapture;
import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.MiniStackSparkTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * No secret-bearing Hadoop setting of a catalog shows anywhere a user or an operator looks, whatever its
 * key name: a distinct secret is planted in each kind of key (S3A keys, which are in use here, and SSE-C,
 * Azure and GCS keys, which are not, and an {@code iceberg.*} option), then every surface is scanned, also for an
 * Iceberg table where Iceberg's Spark runtime is on the classpath: DESCRIBE TABLE EXTENDED, SHOW
 * TBLPROPERTIES, SHOW CREATE TABLE, EXPLAIN, an error message, the logs, the event log, the Glue entries
 * and the Delta log.
 */
class SecretSurfacesIT extends MiniStackSparkTest {

  @Test
  void noPlantedSecretShowsOnAnySurface() throws Exception {
    List<String> logged = new ArrayList<>();
    String bucket = MINISTACK.createBucket(unique("secrets").replace('_', '-'));
    String tag = UUID.randomUUID().toString().substring(0, 8);
    Map<String, String> secrets = new LinkedHashMap<>();
    // MiniStack checks no signature, so planted S3A keys still reach the bucket
    secrets.put("fs.s3a.bucket." + bucket + ".access.key", "AKIDplanted" + tag);
    secrets.put("fs.s3a.bucket." + bucket + ".secret.key", "s3secret-planted-" + tag);
    secrets.put("fs.s3a.bucket.unused-bucket.encryption.key", "ssec-planted-" + tag);
    secrets.put("fs.azure.account.key.acct.dfs.core.windows.net", "azure-planted-" + tag);
    secrets.put("fs.azure.account.oauth2.client.secret", "oauth-planted-" + tag);
    secrets.put("fs.gs.auth.service.account.private.key", "gcs-planted-" + tag);
    Map<String, String> options = new LinkedHashMap<>(ministackOptions());
    MINISTACK.s3aSettings(bucket).forEach((k, v) -> {
      if (!k.endsWith(".access.key") && !k.endsWith(".secret.key")) {
        options.put("hadoop." + k, v);
      }
    });
    secrets.forEach((k, v) -> options.put("hadoop." + k, v));
    // Iceberg catalog properties that hold secrets (S3FileIO's keys, which Iceberg checks come in pairs; unused
    // here, as Iceberg reads through Hadoop)
    boolean iceberg = io.gluecat.iceberg.IcebergTables.AVAILABLE;
    for (String key : List.of("iceberg.s3.access-key-id", "iceberg.s3.secret-access-key")) {
      options.put(key, key.substring(11) + "-planted-" + tag);
      secrets.put(key, key.substring(11) + "-planted-" + tag);
    }
    options.put("warehouse", "s3a://" + bucket + "/warehouse");

    Path eventLog = Files.createDirectories(scratch().resolve(unique("event-log")));
    org.apache.spark.scheduler.EventLoggingListener eventLogger = startEventLog(eventLog);
    try (LogCapture capture = LogCapture.start(logged)) {
      String catalog = newCatalog(options);
      String db = catalog + "." + unique("db");
      List<String> shown = new ArrayList<>();
      sql("CREATE NAMESPACE " + db);
      sql("CREATE TABLE " + db + ".d (id BIGINT, v STRING) USING delta");
      sql("INSERT INTO " + db + ".d VALUES (1, 'a'), (2, 'b')");
      sql("CREATE TABLE " + db + ".p USING parquet PARTITIONED BY (v) AS SELECT * FROM " + db + ".d");
      sql("INSERT INTO " + db + ".p VALUES (3, 'c')");
      assertEquals(3L, sql("SELECT count(*) FROM " + db + ".p").get(0).getLong(0));
      List<String> tables = new ArrayList<>(List.of("d", "p"));
      if (iceberg) { // an Iceberg table on the same bucket, through the catalog's settings
        sql("CREATE TABLE " + db + ".i USING iceberg AS SELECT * FROM " + db + ".d");
        sql("INSERT INTO " + db + ".i VALUES (4, 'd')");
        assertEquals(3L, sql("SELECT count(*) FROM " + db + ".i").get(0).getLong(0));
        tables.add("i");
      }
      for (String table : tables.stream().map(t -> db + "." + t).toList()) {
        for (String statement : List.of("DESCRIBE TABLE EXTENDED ", "SHOW TBLPROPERTIES ", "SHOW CREATE TABLE ",
            "EXPLAIN EXTENDED SELECT * FROM ", "EXPLAIN FORMATTED SELECT * FROM ", "EXPLAIN COST SELECT * FROM ")) {
          try {
            sql(statement + table).forEach(r -> shown.add(statement + table + ": " + r));
          } catch (Exception refused) { // Delta refuses SHOW CREATE TABLE: its message is a surface too
            shown.add(statement + table + ": " + TableLoadIT.messages(refused));
          }
        }
        sql("EXPLAIN EXTENDED INSERT INTO " + table + " VALUES (9, 'z')").forEach(r -> shown.add(r.toString()));
      }
      Throwable e = assertThrows(Throwable.class, () -> sql("SELECT * FROM " + db + ".d VERSION AS OF 99"));
      shown.add(TableLoadIT.messages(e));

      stopEventLog(eventLogger);
      List<String> events = eventLog(eventLog, secrets.values());
      for (String secret : secrets.values()) {
        for (String line : shown) {
          assertFalse(line.contains(secret), "shown: " + line);
        }
        for (String line : logged) {
          assertFalse(line.contains(secret), "logged: " + line);
        }
        for (String table : tables) {
          assertFalse(entryText(db.substring(catalog.length() + 1), table).contains(secret), "Glue entry of " + table);
        }
        for (String line : events) {
          assertFalse(line.contains(secret), "event log: " + line);
        }
      }
      // The table Spark reads carries gluecat's provider in its storage properties (so S3A found the planted keys
      // through it), while the table's own properties, which DESCRIBE and SHOW print, leave the catalog's settings out.
      org.apache.spark.sql.connector.catalog.V1Table loaded = (org.apache.spark.sql.connector.catalog.V1Table)
          ((org.apache.spark.sql.connector.catalog.TableCatalog) spark().sessionState().catalogManager()
              .catalog(catalog)).loadTable(org.apache.spark.sql.connector.catalog.Identifier.of(
                  new String[] {db.substring(catalog.length() + 1)}, "p"));
      String provider = "io.gluecat.s3a.CatalogCredentialsProvider";
      assertTrue(loaded.v1Table().storage().properties().toString().contains(provider),
          "S3A finds the keys through gluecat's provider, which is what the table carries");
      assertFalse(loaded.properties().toString().contains(provider), "the catalog's settings are not the table's");
      sql("DROP NAMESPACE " + db + " CASCADE");
    } finally {
      spark().sparkContext().removeSparkListener(eventLogger); // a no-op once stopped; on a failure, stops the writing
    }
  }

  private static final com.fasterxml.jackson.databind.ObjectMapper JSON = new com.fasterxml.jackson.databind.ObjectMapper();

  private static void withoutSettings(com.fasterxml.jackson.databind.JsonNode node) {
    if (node instanceof com.fasterxml.jackson.databind.node.ObjectNode) {
      ((com.fasterxml.jackson.databind.node.ObjectNode) node).remove(List.of("Properties", "modifiedConfigs"));
    }
    node.forEach(SecretSurfacesIT::withoutSettings);
  }

  private static String entryText(String database, String table) {
    Table entry = glueTable(database, table);
    return entry.toString() + entry.storageDescriptor();
  }

  /**
   * Spark's own event log writer, attached to the shared session for this test's statements only (the shared
   * session runs without an event log: one of every statement of a fork cost 6 % of the suites' CPU). It is the
   * listener {@code spark.eventLog.enabled} installs, with the session's settings (its redaction among them),
   * writing uncompressed JSON lines.
   */
  private static org.apache.spark.scheduler.EventLoggingListener startEventLog(Path directory) {
    org.apache.spark.SparkContext context = spark().sparkContext();
    org.apache.spark.SparkConf conf = context.getConf().set("spark.eventLog.compress", "false");
    org.apache.spark.scheduler.EventLoggingListener listener = new org.apache.spark.scheduler.EventLoggingListener(
        context.applicationId(), scala.Option.apply(null), directory.toUri(), conf, context.hadoopConfiguration());
    listener.start();
    context.addSparkListener(listener);
    return listener;
  }

  /** Delivers the events posted so far to the event log, then closes it. */
  private static void stopEventLog(org.apache.spark.scheduler.EventLoggingListener listener)
      throws java.util.concurrent.TimeoutException {
    org.apache.spark.SparkContext context = spark().sparkContext();
    context.listenerBus().waitUntilEmpty();
    context.removeSparkListener(listener);
    listener.stop();
  }

  /**
   * The event log's lines that show a secret, less Spark's records of its own settings: the environment at start,
   * and the settings of each job and stage ("Properties") and query ("modifiedConfigs"). Catalog options are Spark
   * settings, and Spark shows its settings there (redacting only those given at application start, by
   * spark.redaction.regex); docs/configuration.md says how to keep secrets out of Spark's settings.
   * Everything else (plans, metrics, descriptions, errors) is scanned. A line is parsed only if its text holds a
   * secret (the secrets need no JSON escaping).
   */
  private static List<String> eventLog(Path directory, java.util.Collection<String> secrets) {
    try (Stream<Path> files = Files.walk(directory)) {
      List<String> lines = new ArrayList<>();
      int read = 0;
      for (Path f : files.filter(Files::isRegularFile)
          .filter(f -> !f.getFileName().toString().startsWith(".")).collect(Collectors.toList())) {
        try (java.io.BufferedReader in = Files.newBufferedReader(f, StandardCharsets.UTF_8)) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            read++;
            if (!line.contains("\"Event\":\"SparkListenerEnvironmentUpdate\"")
                && secrets.stream().anyMatch(line::contains)) {
              com.fasterxml.jackson.databind.JsonNode event = JSON.readTree(line);
              withoutSettings(event);
              lines.add(event.toString());
            }
          }
        }
      }
      assertTrue(read > 0, "an event log was written");
      return lines;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
