package io.gluecat.legacyhive;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.FieldSchema;
import org.apache.hadoop.hive.metastore.api.Order;
import org.apache.hadoop.hive.metastore.api.SerDeInfo;
import org.apache.hadoop.hive.metastore.api.SkewedInfo;
import org.apache.hadoop.hive.metastore.api.StorageDescriptor;
import org.apache.hadoop.hive.metastore.api.Table;
import software.amazon.awssdk.services.glue.model.Column;
import software.amazon.awssdk.services.glue.model.DatabaseInput;
import software.amazon.awssdk.services.glue.model.TableInput;

/**
 * The field-by-field conversion between a Hive metastore object and a Glue Data Catalog object, as the AWS
 * Glue Data Catalog client for Hive does it (its {@code HiveToCatalogConverter} with
 * {@code GlueInputConverter} on the way to Glue, its {@code BaseCatalogToHiveConverter} on the way back).
 * Written against the AWS SDK v2 model instead of the client's SDK v1 one; each mapping is listed in
 * docs/legacy-hive.md. Nothing here decides how a reader interprets an entry: that is Spark's and Delta's code.
 */
final class GlueHiveConverter {
  private GlueHiveConverter() {}

  // ------------------------------------------------------------------ Hive -> Glue (what the client sends)

  /** A Hive database as the client's {@code createDatabase} sends it (DatabaseInput). */
  static DatabaseInput toDatabaseInput(Database hive) {
    return DatabaseInput.builder()
        .name(hive.getName())
        .description(hive.getDescription())
        .locationUri(hive.getLocationUri())
        .parameters(hive.getParameters())
        .build();
  }

  /**
   * A Hive table as the client's {@code createTable}/{@code alterTable} send it: HiveToCatalogConverter's
   * table, narrowed to a TableInput by GlueInputConverter (which has no CreateTime: Glue sets it).
   */
  static TableInput toTableInput(Table hive) {
    TableInput.Builder b = TableInput.builder()
        .retention(hive.getRetention())
        .partitionKeys(toColumns(hive.getPartitionKeys()))
        .tableType(hive.getTableType())
        .name(hive.getTableName())
        .owner(hive.getOwner())
        .lastAccessTime(Instant.ofEpochSecond(hive.getLastAccessTime()))
        .storageDescriptor(toGlue(hive.getSd()))
        .parameters(hive.getParameters())
        .viewExpandedText(hive.getViewExpandedText())
        .viewOriginalText(hive.getViewOriginalText());
    return b.build();
  }

  static software.amazon.awssdk.services.glue.model.StorageDescriptor toGlue(StorageDescriptor sd) {
    return software.amazon.awssdk.services.glue.model.StorageDescriptor.builder()
        .numberOfBuckets(sd.getNumBuckets())
        .compressed(sd.isCompressed())
        .parameters(sd.getParameters())
        .bucketColumns(sd.getBucketCols())
        .columns(toColumns(sd.getCols()))
        .inputFormat(sd.getInputFormat())
        .location(sd.getLocation())
        .outputFormat(sd.getOutputFormat())
        .serdeInfo(toGlue(sd.getSerdeInfo()))
        .skewedInfo(toGlue(sd.getSkewedInfo()))
        .sortColumns(toGlueOrders(sd.getSortCols()))
        .storedAsSubDirectories(sd.isStoredAsSubDirectories())
        .build();
  }

  static List<Column> toColumns(List<FieldSchema> fields) {
    List<Column> columns = new ArrayList<>();
    for (FieldSchema f : fields) {
      columns.add(Column.builder().name(f.getName()).type(f.getType()).comment(f.getComment()).build());
    }
    return columns;
  }

  static software.amazon.awssdk.services.glue.model.SerDeInfo toGlue(SerDeInfo serde) {
    return software.amazon.awssdk.services.glue.model.SerDeInfo.builder()
        .name(serde.getName())
        .parameters(serde.getParameters())
        .serializationLibrary(serde.getSerializationLib())
        .build();
  }

  static software.amazon.awssdk.services.glue.model.SkewedInfo toGlue(SkewedInfo skewed) {
    if (skewed == null) {
      return null;
    }
    List<String> values = new ArrayList<>();
    for (List<String> v : skewed.getSkewedColValues()) {
      values.add(joinLengthPrefixed(v));
    }
    Map<String, String> locations = new HashMap<>();
    skewed.getSkewedColValueLocationMaps().forEach((k, v) -> locations.put(joinLengthPrefixed(k), v));
    return software.amazon.awssdk.services.glue.model.SkewedInfo.builder()
        .skewedColumnNames(skewed.getSkewedColNames())
        .skewedColumnValues(values)
        .skewedColumnValueLocationMaps(locations)
        .build();
  }

  static List<software.amazon.awssdk.services.glue.model.Order> toGlueOrders(List<Order> orders) {
    if (orders == null) {
      return null;
    }
    List<software.amazon.awssdk.services.glue.model.Order> out = new ArrayList<>();
    for (Order o : orders) {
      out.add(software.amazon.awssdk.services.glue.model.Order.builder().column(o.getCol()).sortOrder(o.getOrder())
          .build());
    }
    return out;
  }

  /** The client's encoding of a list of strings in one Glue string: {@code <length>$<value>} per item. */
  static String joinLengthPrefixed(List<String> items) {
    StringBuilder b = new StringBuilder();
    for (String s : items) {
      b.append(s.length()).append('$').append(s);
    }
    return b.toString();
  }

  static List<String> splitLengthPrefixed(String s) {
    List<String> out = new ArrayList<>();
    int i = 0;
    while (i < s.length()) {
      int dollar = s.indexOf('$', i);
      int length = Integer.parseInt(s.substring(i, dollar));
      out.add(s.substring(dollar + 1, dollar + 1 + length));
      i = dollar + 1 + length;
    }
    return out;
  }

  // ------------------------------------------------------------------ Glue -> Hive (what the client returns)

  /** A Glue database as the client returns it: a missing location becomes the empty string. */
  static Database toHive(software.amazon.awssdk.services.glue.model.Database glue) {
    Database d = new Database();
    d.setName(glue.name());
    d.setDescription(glue.description());
    d.setLocationUri(glue.locationUri() == null ? "" : glue.locationUri());
    d.setParameters(new HashMap<>(glue.parameters() == null ? Map.of() : glue.parameters()));
    return d;
  }

  /** A Glue table as the client returns it to Hive ({@code convertTable}). */
  static Table toHive(software.amazon.awssdk.services.glue.model.Table glue, String database) {
    Table t = new Table();
    t.setDbName(database);
    t.setTableName(glue.name());
    t.setCreateTime(glue.createTime() == null ? 0 : (int) glue.createTime().getEpochSecond());
    t.setOwner(glue.owner());
    t.setLastAccessTime(glue.lastAccessTime() == null ? 0 : (int) glue.lastAccessTime().getEpochSecond());
    // The client unboxes Retention, Compressed, NumberOfBuckets and StoredAsSubDirectories: a missing one
    // fails there with a NullPointerException, and here too. Except Retention: MiniStack does not keep it
    // (AWS Glue does; gluecat writes 0), so an absent one is read as the 0 that was written.
    t.setRetention(glue.retention() == null ? 0 : glue.retention());
    t.setSd(toHive(glue.storageDescriptor()));
    t.setPartitionKeys(toFields(glue.partitionKeys()));
    t.setParameters(new LinkedHashMap<>(glue.parameters() == null ? Map.of() : glue.parameters()));
    t.setViewOriginalText(glue.viewOriginalText());
    t.setViewExpandedText(glue.viewExpandedText());
    t.setTableType(glue.tableType());
    return t;
  }

  static StorageDescriptor toHive(software.amazon.awssdk.services.glue.model.StorageDescriptor glue) {
    StorageDescriptor sd = new StorageDescriptor();
    sd.setCols(toFields(glue.columns()));
    sd.setLocation(glue.location());
    sd.setInputFormat(glue.inputFormat());
    sd.setOutputFormat(glue.outputFormat());
    sd.setCompressed(glue.compressed());
    sd.setNumBuckets(glue.numberOfBuckets());
    sd.setSerdeInfo(toHive(glue.serdeInfo()));
    sd.setBucketCols(new ArrayList<>(glue.bucketColumns()));
    List<Order> orders = new ArrayList<>();
    for (software.amazon.awssdk.services.glue.model.Order o : glue.sortColumns()) {
      orders.add(new Order(o.column(), o.sortOrder()));
    }
    sd.setSortCols(orders);
    sd.setParameters(new HashMap<>(glue.parameters()));
    sd.setSkewedInfo(toHive(glue.skewedInfo()));
    sd.setStoredAsSubDirectories(glue.storedAsSubDirectories());
    return sd;
  }

  static List<FieldSchema> toFields(List<Column> columns) {
    List<FieldSchema> fields = new ArrayList<>();
    if (columns == null) {
      return fields;
    }
    for (Column c : columns) {
      fields.add(new FieldSchema(c.name(), c.type(), c.comment()));
    }
    return fields;
  }

  static SerDeInfo toHive(software.amazon.awssdk.services.glue.model.SerDeInfo glue) {
    SerDeInfo s = new SerDeInfo();
    s.setName(glue.name());
    s.setParameters(new HashMap<>(glue.parameters()));
    s.setSerializationLib(glue.serializationLibrary());
    return s;
  }

  static SkewedInfo toHive(software.amazon.awssdk.services.glue.model.SkewedInfo glue) {
    if (glue == null) {
      return null;
    }
    SkewedInfo s = new SkewedInfo();
    s.setSkewedColNames(new ArrayList<>(glue.skewedColumnNames()));
    List<List<String>> values = new ArrayList<>();
    for (String v : glue.skewedColumnValues()) {
      values.add(splitLengthPrefixed(v));
    }
    s.setSkewedColValues(values);
    Map<List<String>, String> locations = new HashMap<>();
    glue.skewedColumnValueLocationMaps().forEach((k, v) -> locations.put(splitLengthPrefixed(k), v));
    s.setSkewedColValueLocationMaps(locations);
    return s;
  }
}
