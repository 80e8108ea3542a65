package io.gluecat.catalog;

import io.gluecat.GlueCatalog;
import io.gluecat.config.CatalogOptions;
import io.gluecat.entry.EntryWriter;
import io.gluecat.entry.TableDefinition;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueGateway;
import io.gluecat.glue.InMemoryGlue;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.types.StructType;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * gluecat's catalog over an {@link InMemoryGlue}, wired as Spark's initialize wires it but around the given
 * client, for unit tests of what the catalog asks Glue and in which order. A local SparkSession is needed all
 * the same: loads go through Delta's catalog and read the session's Hadoop configuration, and every change to
 * an entry drops Spark's cached relation of the table.
 */
final class InMemoryCatalogs {
  /** The catalog's name, as the messages a user sees name it. */
  static final String CATALOG = "glue";
  static final String DATABASE = "sales";

  private InMemoryCatalogs() {}

  static SparkSession startSession(String appName) {
    return builder(appName).getOrCreate();
  }

  /**
   * {@link #startSession} with Delta Lake as a named gluecat catalog needs it (Delta's extension, Delta's catalog as
   * spark_catalog), small as the suites' sessions are (2 shuffle partitions, 2 for Delta's state rebuild). Delta
   * writes its log by path, so a create's data goes to the local directory of the database's location.
   */
  static SparkSession startDeltaSession(String appName) {
    return builder(appName)
        .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.databricks.delta.snapshotPartitions", "2")
        .getOrCreate();
  }

  private static SparkSession.Builder builder(String appName) {
    // interpreted, as the suites' sessions are (MiniStackSparkTest): generating code for each tiny query costs more
    return SparkSession.builder().master("local[1]").appName(appName).config("spark.ui.enabled", "false")
        .config("spark.sql.codegen.wholeStage", "false").config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
        .config("spark.sql.adaptive.enabled", "false");
  }

  /** A Glue holding the database {@link #DATABASE}, whose location is {@code warehouse}/sales.db. */
  static InMemoryGlue glueWithDatabase(Path warehouse) {
    return new InMemoryGlue().database(DATABASE, warehouse.resolve(DATABASE + ".db").toUri().toString());
  }

  /** The catalog {@link #CATALOG} over {@code glue}, with the catalog options {@code options} beyond its region. */
  static AbstractGlueCatalog catalog(InMemoryGlue glue, Map<String, String> options) {
    Map<String, String> all = new java.util.HashMap<>(options);
    all.putIfAbsent(CatalogOptions.REGION, "us-east-1");
    CatalogOptions parsed = CatalogOptions.parse(CATALOG, all);
    AbstractGlueCatalog catalog = new GlueCatalog(); // as the base class: wire is package-private there
    catalog.wire(parsed, new GlueGateway(parsed, glue));
    return catalog;
  }

  static AbstractGlueCatalog catalog(InMemoryGlue glue) {
    return catalog(glue, Map.of());
  }

  /** The entry gluecat itself writes for an unpartitioned file source table at {@code warehouse}/{@code name}. */
  static TableInput fileEntry(Path warehouse, String name, String provider, StructType schema) {
    String location = warehouse.resolve(name).toUri().toString();
    return EntryWriter.forRunningSpark().newEntry(new TableDefinition(new TableName(DATABASE, name), provider, schema,
        List.of(), location, Optional.empty(), Map.of(), Map.of()), Optional.empty(), Optional.empty());
  }

  static Identifier table(String name) {
    return Identifier.of(new String[] {DATABASE}, name);
  }
}
