package io.gluecat.legacyhive;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.Table;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.EntityNotFoundException;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * The default transport: mirrors entries between the embedded Hive metastore (which Spark's Hive path uses)
 * and MiniStack's Glue (which gluecat uses), field by field through {@link GlueHiveConverter}, the way the
 * Glue client for Hive converts them. It only moves entries; it never changes what Spark or Delta wrote or
 * decides how they read.
 */
final class GlueBridge implements MetastoreTransport {
  private final EmbeddedMetastore metastore;
  private final GlueClient glue;

  private HiveMetaStoreClient client;

  GlueBridge(EmbeddedMetastore metastore, GlueClient glue) {
    this.metastore = metastore;
    this.glue = glue;
  }

  /** The bridge's one Thrift client of the metastore, opened on first use and kept for the JVM's life. */
  private synchronized HiveMetaStoreClient client() {
    if (client == null) {
      client = metastore.client();
    }
    return client;
  }

  @Override
  public String description() {
    return "bridge: Spark's built-in Hive 2.3 client on an embedded metastore, mirrored to MiniStack's Glue";
  }

  @Override
  public void databaseToHive(String database) {
    Database hive = GlueHiveConverter.toHive(glue.getDatabase(r -> r.name(database)).database());
    if (hive.getLocationUri().isEmpty()) {
      // Hive's metastore insists on a location; BridgeObjectStore reports this one as empty again.
      Map<String, String> parameters = new HashMap<>(hive.getParameters());
      parameters.put(BridgeObjectStore.NO_LOCATION, "true");
      hive.setParameters(parameters);
      hive.setLocationUri(null);
    }
    try {
      HiveMetaStoreClient client = client();
      client.createDatabase(hive);
    } catch (Exception e) {
      throw new IllegalStateException("bridge: could not mirror Glue database " + database + " to Hive", e);
    }
  }

  @Override
  public void tableToGlue(String database, String table) {
    Table hive;
    try {
      HiveMetaStoreClient client = client();
      hive = client.getTable(database, table);
    } catch (Exception e) {
      throw new IllegalStateException("bridge: could not read Hive table " + database + "." + table, e);
    }
    TableInput input = GlueHiveConverter.toTableInput(hive);
    try {
      glue.getTable(r -> r.databaseName(database).name(table));
      glue.updateTable(r -> r.databaseName(database).tableInput(input));
    } catch (EntityNotFoundException e) {
      glue.createTable(r -> r.databaseName(database).tableInput(input));
    }
  }

  @Override
  public void tableToHive(String database, String table) {
    Table hive = GlueHiveConverter.toHive(glue.getTable(r -> r.databaseName(database).name(table)).table(), database);
    try {
      HiveMetaStoreClient client = client();
      try {
        client.getTable(database, table);
        client.dropTable(database, table, false, true);
      } catch (NoSuchObjectException absent) {
        // first mirror
      }
      client.createTable(hive);
      // the Glue client serves a table's partitions from Glue too: mirror them with the table
      List<org.apache.hadoop.hive.metastore.api.Partition> partitions = new ArrayList<>();
      for (software.amazon.awssdk.services.glue.model.Partition p
          : glue.getPartitionsPaginator(r -> r.databaseName(database).tableName(table)).stream()
          .flatMap(page -> page.partitions().stream()).toList()) {   // every page
        partitions.add(new org.apache.hadoop.hive.metastore.api.Partition(new ArrayList<>(p.values()), database, table,
            0, 0, GlueHiveConverter.toHive(p.storageDescriptor()),
            new HashMap<>(p.hasParameters() ? p.parameters() : Map.of())));
      }
      if (!partitions.isEmpty()) {
        client.add_partitions(partitions);
      }
    } catch (Exception e) {
      throw new IllegalStateException("bridge: could not mirror Glue table " + database + "." + table + " to Hive", e);
    }
  }
}
