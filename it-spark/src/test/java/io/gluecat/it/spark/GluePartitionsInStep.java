package io.gluecat.it.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.glue.model.Partition;
import software.amazon.awssdk.services.glue.model.StorageDescriptor;
import software.amazon.awssdk.services.glue.model.Table;

/**
 * What the partition suites (PartitionsIT, SqlInsertPartitionsIT) check after each write: Glue's partition objects
 * of a table against its partition directories on disk.
 */
public final class GluePartitionsInStep {
  private GluePartitionsInStep() {}

  /** The table's partition objects (every page), by their values joined with '/'. */
  public static Map<String, Partition> partitions(GlueClient glue, String database, String table) {
    Map<String, Partition> all = new TreeMap<>();
    for (Partition p : glue.getPartitionsPaginator(r -> r.databaseName(database).tableName(table))
        .stream().flatMap(page -> page.partitions().stream()).toList()) {
      all.put(String.join("/", p.values()), p);
    }
    return all;
  }

  /** The partition directories under a location, as {@code k=v/k2=v2}, found on disk; none when it is missing. */
  public static List<String> directories(String location, int depth) {
    Path root = Paths.get(URI.create(location.startsWith("file:/") && !location.startsWith("file:///")
        ? "file://" + location.substring("file:".length()) : location));
    if (!Files.exists(root)) {
      return List.of();
    }
    try (Stream<Path> paths = Files.walk(root, depth)) {
      return paths.filter(Files::isDirectory).filter(p -> !p.equals(root) && root.relativize(p).getNameCount() == depth)
          .map(p -> root.relativize(p).toString())
          .filter(p -> Stream.of(p.split("/")).noneMatch(n -> n.startsWith("_") || n.startsWith(".")))
          .sorted().collect(Collectors.toList());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Glue holds exactly one partition object per partition directory of the table, with the expected values (in
   * order), each at its directory and with the table's StorageDescriptor otherwise (without the SerDe parameter
   * {@code path}, which names the table's own location; EntryWriter.partitionStorage).
   */
  public static void assertInStep(GlueClient glue, String database, String table, String... expectedValues) {
    Table entry = glue.getTable(r -> r.databaseName(database).name(table)).table();
    String location = entry.storageDescriptor().location();
    Map<String, Partition> partitions = partitions(glue, database, table);
    List<String> onDisk = directories(location, entry.partitionKeys().size());
    assertEquals(List.of(expectedValues), new ArrayList<>(partitions.keySet()), "partition values of " + table);
    assertEquals(onDisk.size(), partitions.size(), "directories " + onDisk + " vs partitions " + partitions.keySet());
    StorageDescriptor tableSd = entry.storageDescriptor();
    Map<String, String> serde = new LinkedHashMap<>(tableSd.serdeInfo().parameters());
    serde.remove("path");
    for (Partition p : partitions.values()) {
      StringBuilder dir = new StringBuilder();
      for (int i = 0; i < p.values().size(); i++) {
        dir.append(i == 0 ? "" : "/").append(entry.partitionKeys().get(i).name()).append('=').append(p.values().get(i));
      }
      assertTrue(onDisk.contains(dir.toString()), dir + " not in " + onDisk);
      StorageDescriptor sd = p.storageDescriptor();
      assertEquals(location + "/" + dir, sd.location());
      assertEquals(tableSd.columns(), sd.columns());
      assertEquals(tableSd.inputFormat(), sd.inputFormat());
      assertEquals(tableSd.outputFormat(), sd.outputFormat());
      assertEquals(tableSd.serdeInfo().serializationLibrary(), sd.serdeInfo().serializationLibrary());
      assertEquals(serde, sd.serdeInfo().parameters());
    }
  }
}
