package io.gluecat.delta;

import io.gluecat.create.CreateArguments;
import io.gluecat.entry.EntryReader;
import io.gluecat.entry.GlueEntry;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueEntries;
import io.gluecat.glue.GlueGateway;
import io.gluecat.hive.HiveEntry;
import io.gluecat.hive.HiveFormats;
import io.gluecat.hive.HiveSource;
import io.gluecat.storage.CatalogHadoopConf;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.delta.commands.ConvertToDeltaCommand;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Delta statements that Delta runs on a path or on Spark's built-in session catalog only, run here on a name's
 * location and followed by gluecat's Glue write: CONVERT TO DELTA of a parquet table of the catalog. (Session
 * mode's CLONE into a name, which Delta would write to the built-in catalog, is {@link DeltaCreates#byPath}.)
 * gluecat's session extension ({@code io.gluecat.extensions}) sends the statements here.
 */
public final class DeltaByPath {
  private final String catalog;
  private final GlueGateway glue;
  private final CatalogHadoopConf hadoop;
  private final Supplier<TableCatalog> deltaCatalog;
  private final DeltaTables tables;

  public DeltaByPath(String catalog, GlueGateway glue, CatalogHadoopConf hadoop, Supplier<TableCatalog> deltaCatalog,
      DeltaTables tables) {
    this.catalog = catalog;
    this.glue = glue;
    this.hadoop = hadoop;
    this.deltaCatalog = deltaCatalog;
    this.tables = tables;
  }

  /**
   * CONVERT TO DELTA of {@code name}: Delta converts the parquet files at the entry's location in place (with
   * the entry's partition columns), the entry's table properties and comment go into the new log as Delta's own
   * catalog puts them there, and the entry becomes a Delta entry, keeping what updates keep (docs/entry-format.md).
   * A table that is Delta already is left as it is, as Delta does; anything but parquet is refused before
   * anything is written.
   *
   * @param given the PARTITIONED BY of the statement, which must name the entry's partition columns if present
   * @return false when the table was a Delta table already
   */
  public boolean convert(TableName name, Optional<StructType> given, boolean collectStats)
      throws NoSuchTableException, NoSuchNamespaceException {
    tables.checkSession();
    String qualified = catalog + "." + name;
    StoredTable entry = new GlueEntries(glue).get(name);
    if (entry.isView()) {
      throw refused(qualified, "is a view");
    }
    String location;
    StructType schema;
    List<String> partitionColumns;
    Map<String, String> properties = new LinkedHashMap<>();
    if (entry.isHiveFormat()) {
      HiveSource source = HiveFormats.source(qualified, entry, false);
      if (!source.format().equals("parquet")) {
        throw refused(qualified, "is a Hive-format " + source.format() + " table");
      }
      location = HiveEntry.read(catalog, name.database(), entry, false).location();
      schema = source.schema();
      partitionColumns = source.partitionColumns();
      // A crawler's or Hive's parameters are their bookkeeping, not table properties: they stay in Glue only.
    } else {
      GlueEntry read = EntryReader.read(catalog, name.database(), entry);
      if (read.isDelta()) {
        return false;
      }
      if (!"parquet".equalsIgnoreCase(read.provider())) {
        throw refused(qualified, "is a " + read.provider() + " table");
      }
      location = read.location();
      schema = read.schema();
      partitionColumns = read.partitionColumns();
      properties.putAll(read.properties());
      read.comment().ifPresent(c -> properties.put(TableCatalog.PROP_COMMENT, c));
    }
    StructType partitionSchema = partitionSchema(qualified, schema, partitionColumns);
    if (given.isPresent() && !sameColumns(given.get(), partitionSchema)) {
      throw new IllegalArgumentException(String.format("CONVERT TO DELTA %s: PARTITIONED BY (%s) differs from the "
          + "table's partition columns in Glue (%s). Leave PARTITIONED BY out: gluecat takes them from the entry.",
          qualified, given.get().toDDL(), partitionSchema.toDDL()));
    }
    Optional<String> databaseLocation = glue.existingDatabaseLocation(name.database());
    tables.changing(name);
    hadoop.open(location);
    SparkSession spark = SparkSession.active();
    // Delta's conversion opens no log options: it lists and reads the files with the session's configuration
    hadoop.withSessionSettings(spark, () -> new ConvertToDeltaCommand(
        new TableIdentifier(location, scala.Option.apply("parquet")),
        partitionSchema.isEmpty() ? scala.Option.empty() : scala.Option.apply(partitionSchema), collectStats,
        scala.Option.empty()).run(spark));
    if (!properties.isEmpty()) {
      setProperties(qualified, location, properties);
    }
    tables.creates().writeEntry(name, location, new CreateArguments(Map.of()), databaseLocation, Optional.of(entry));
    return true;
  }

  /** The converted table's properties and comment, in the log as Delta's own CONVERT by name puts them. */
  private void setProperties(String qualified, String location, Map<String, String> properties) {
    List<TableChange> changes = new ArrayList<>();
    properties.forEach((k, v) -> changes.add(TableChange.setProperty(k, v)));
    try {
      deltaCatalog.get().alterTable(Identifier.of(new String[] {"delta"}, location),
          changes.toArray(new TableChange[0]));
    } catch (NoSuchTableException | RuntimeException e) {
      throw new IllegalStateException(String.format("CONVERT TO DELTA %s: the files at %s are a Delta table now, but "
          + "its table properties could not be set and its Glue entry still says parquet. Run CONVERT TO DELTA %s "
          + "again to finish.", qualified, location, qualified), e);
    }
  }

  private static StructType partitionSchema(String qualified, StructType schema, List<String> columns) {
    List<StructField> fields = new ArrayList<>();
    for (String column : columns) {
      StructField field = null;
      for (StructField f : schema.fields()) {
        if (f.name().equalsIgnoreCase(column)) {
          field = f;
        }
      }
      if (field == null) {
        throw new IllegalArgumentException(String.format("CONVERT TO DELTA %s: partition column %s is not among the "
            + "entry's columns", qualified, column));
      }
      fields.add(new StructField(field.name(), field.dataType(), true,
          org.apache.spark.sql.types.Metadata.empty()));
    }
    return new StructType(fields.toArray(new StructField[0]));
  }

  private static boolean sameColumns(StructType a, StructType b) {
    if (a.fields().length != b.fields().length) {
      return false;
    }
    for (int i = 0; i < a.fields().length; i++) {
      if (!a.fields()[i].name().equalsIgnoreCase(b.fields()[i].name())
          || !a.fields()[i].dataType().sameType(b.fields()[i].dataType())) {
        return false;
      }
    }
    return true;
  }

  private static UnsupportedOperationException refused(String qualified, String what) {
    return new UnsupportedOperationException(String.format("CONVERT TO DELTA %s: the table %s; Delta converts "
        + "parquet tables only. Nothing was changed.", qualified, what));
  }
}
