package io.gluecat.hive;

import io.gluecat.entry.StoredTable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.spark.sql.connector.catalog.SupportsRead;
import org.apache.spark.sql.connector.catalog.SupportsWrite;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCapability;
import org.apache.spark.sql.connector.catalog.TableProvider;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.WriteBuilder;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

/**
 * A Hive-format Glue entry as Spark reads it: a V2 table whose scans are those of Spark's own V2 file source
 * for the entry's format (see {@link HiveFormats}), over the entry's location, with the entry's columns.
 *
 * <p>Why V2 and not a V1Table: a V1Table is written by Spark's V1 path without asking the catalog, which
 * would write Spark's own file layout and never add the Glue partitions Hive readers need; and a partitioned
 * V1Table makes Spark ask its own session catalog for the partitions, which in a catalog of gluecat's own are
 * Glue's. Writes go through {@link HiveWrite}; a table gluecat does not write (see
 * {@link HiveSource#writeRefusal}) refuses them while the statement is planned, before anything is written.
 */
public final class HiveTable implements SupportsRead, SupportsWrite {
  /** Spark's V2 file sources, by format. */
  private static final Map<String, String> V2_SOURCES = Map.of(
      "parquet", "org.apache.spark.sql.execution.datasources.v2.parquet.ParquetDataSourceV2",
      "orc", "org.apache.spark.sql.execution.datasources.v2.orc.OrcDataSourceV2",
      "csv", "org.apache.spark.sql.execution.datasources.v2.csv.CSVDataSourceV2",
      "json", "org.apache.spark.sql.execution.datasources.v2.json.JsonDataSourceV2",
      "avro", "org.apache.spark.sql.v2.avro.AvroDataSourceV2");
  /** Their scan builders, which take any file index: a partitioned table's is {@link GluePartitionIndex}. */
  private static final Map<String, String> SCAN_BUILDERS = Map.of(
      "parquet", "org.apache.spark.sql.execution.datasources.v2.parquet.ParquetScanBuilder",
      "orc", "org.apache.spark.sql.execution.datasources.v2.orc.OrcScanBuilder",
      "csv", "org.apache.spark.sql.execution.datasources.v2.csv.CSVScanBuilder",
      "json", "org.apache.spark.sql.execution.datasources.v2.json.JsonScanBuilder",
      "avro", "org.apache.spark.sql.v2.avro.AvroScanBuilder");

  private final String name;
  private final String serde;
  private final HiveSource source;
  private final String location;
  private final Map<String, String> readOptions;
  private final Map<String, String> properties;
  private final HivePartitions partitions;
  private final StoredTable entry;
  private Table files;
  private GluePartitionIndex index;

  /**
   * @param name catalog.database.table
   * @param serde the entry's SerDe, for messages
   * @param location the table's location, opened with the catalog's settings already
   * @param storageOptions the source's options with the catalog's shareable Hadoop settings
   * @param properties the entry's table properties, as DESCRIBE shows them
   * @param entry the entry as read, whose storage is the model of the partition objects a write adds
   * @param partitions the table's Glue partitions, read when a scan lists its files, added by writes
   */
  public HiveTable(String name, String serde, HiveSource source, String location, Map<String, String> storageOptions,
      Map<String, String> properties, StoredTable entry,
      HivePartitions partitions) {
    this.name = name;
    this.partitions = partitions;
    this.entry = entry;
    this.serde = serde;
    this.source = source;
    this.location = location;
    Map<String, String> options = new LinkedHashMap<>(storageOptions);
    options.put("path", location);
    this.readOptions = Map.copyOf(options);
    Map<String, String> shown = new LinkedHashMap<>(properties);
    shown.put(org.apache.spark.sql.connector.catalog.TableCatalog.PROP_LOCATION, location);
    this.properties = Map.copyOf(shown);
  }

  /** Whether Spark's avro source is on the classpath. */
  public static boolean avroAvailable() {
    try {
      Class.forName(V2_SOURCES.get("avro"), false, HiveTable.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  @SuppressWarnings("deprecation") // Table.schema() is what every Spark line reads
  public StructType schema() {
    return source.schema();
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public Set<TableCapability> capabilities() {
    return Set.of(TableCapability.BATCH_READ, TableCapability.BATCH_WRITE, TableCapability.TRUNCATE,
        TableCapability.OVERWRITE_BY_FILTER, TableCapability.OVERWRITE_DYNAMIC);
  }

  @Override
  public Transform[] partitioning() {
    return source.partitionColumns().stream().map(org.apache.spark.sql.connector.expressions.Expressions::identity)
        .toArray(Transform[]::new);
  }

  /** Whether the table's partitions come from its partition projection (Athena's) rather than from Glue. */
  public boolean projected() {
    return source.projection().isPresent();
  }

  @Override
  public ScanBuilder newScanBuilder(CaseInsensitiveStringMap options) {
    // the entry's options under the statement's: Spark 3.5's file tables do not merge their own into a scan's
    Map<String, String> merged = new LinkedHashMap<>(readOptions);
    merged.putAll(options.asCaseSensitiveMap());
    if (source.partitionColumns().isEmpty() && textFiles()) {
      HiveScanFiles.requireDecompressible(name, null, io.gluecat.compat.Scala.javaList(
          ((org.apache.spark.sql.execution.datasources.v2.FileTable) files()).fileIndex().allFiles()).stream()
          .map(org.apache.hadoop.fs.FileStatus::getPath).toList(), readOptions);
    }
    if (source.jsonKeysIgnoreCase()) {
      org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex files = source.partitionColumns().isEmpty()
          ? ((org.apache.spark.sql.execution.datasources.v2.FileTable) files()).fileIndex() : index();
      return new JsonKeysIgnoringCase.Builder(org.apache.spark.sql.SparkSession.active(), files, dataSchema(),
          new CaseInsensitiveStringMap(merged));
    }
    if (source.format().equals("csv")) {
      org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex files = source.partitionColumns().isEmpty()
          ? ((org.apache.spark.sql.execution.datasources.v2.FileTable) files()).fileIndex() : index();
      return new HiveTextFields.Builder(org.apache.spark.sql.SparkSession.active(), files, dataSchema(),
          new CaseInsensitiveStringMap(merged), source.options().get("nullValue"));
    }
    if (source.partitionColumns().isEmpty()) {
      return ((SupportsRead) files()).newScanBuilder(new CaseInsensitiveStringMap(merged));
    }
    try {
      return (ScanBuilder) Class.forName(SCAN_BUILDERS.get(source.format()), true, HiveTable.class.getClassLoader())
          .getConstructor(org.apache.spark.sql.SparkSession.class,
              org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex.class, StructType.class,
              StructType.class, CaseInsensitiveStringMap.class)
          .newInstance(org.apache.spark.sql.SparkSession.active(), index(), source.schema(), dataSchema(),
              new CaseInsensitiveStringMap(merged));
    } catch (java.lang.reflect.InvocationTargetException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } catch (ReflectiveOperationException | LinkageError e) {
      throw new IllegalStateException(String.format("Table %s: Spark's %s source is not available: %s", name,
          source.format(), e), e);
    }
  }

  /** One index per table object, so that the scans of one statement compare equal. */
  private synchronized GluePartitionIndex index() {
    if (index == null) {
      StructType keys = new StructType(java.util.Arrays.stream(source.schema().fields())
          .filter(f -> source.partitionColumns().contains(f.name())).toArray(org.apache.spark.sql.types.StructField[]::new));
      index = new GluePartitionIndex(org.apache.spark.sql.SparkSession.active(), name, location, readOptions, keys,
          partitions, source.projection(), textFiles());
    }
    return index;
  }

  /** Text files, read through Hadoop's codecs by file extension (parquet, orc and avro name theirs inside). */
  private boolean textFiles() {
    return source.format().equals("csv") || source.format().equals("json");
  }

  private StructType dataSchema() {
    return new StructType(java.util.Arrays.stream(source.schema().fields())
        .filter(f -> !source.partitionColumns().contains(f.name())).toArray(org.apache.spark.sql.types.StructField[]::new));
  }

  @Override
  public WriteBuilder newWriteBuilder(LogicalWriteInfo info) {
    if (source.writeRefusal().isPresent()) {
      throw new UnsupportedOperationException(String.format("Table %s is a Hive-format table (SerDe %s, read as %s "
          + "files at %s) that gluecat reads but does not write: %s. Nothing was written.", name, serde,
          source.format(), location, source.writeRefusal().get()));
    }
    Map<String, String> options = new LinkedHashMap<>(readOptions);
    options.remove("path");
    return HiveWrite.builder(new HiveWrite.Target(name, serde, source, location, options, entry, partitions), info);
  }

  /** Spark's own V2 table of the format over the location, built on first read (it lists the files). */
  private synchronized Table files() {
    if (files == null) {
      TableProvider provider;
      try {
        provider = (TableProvider) Class.forName(V2_SOURCES.get(source.format()), true,
            HiveTable.class.getClassLoader()).getDeclaredConstructor().newInstance();
      } catch (ReflectiveOperationException | LinkageError e) {
        throw new IllegalStateException(String.format("Table %s: Spark's %s source is not available: %s", name,
            source.format(), e), e);
      }
      files = provider.getTable(source.schema(), new Transform[0], readOptions);
    }
    return files;
  }
}
