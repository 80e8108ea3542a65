package io.gluecat.files;

import io.gluecat.compat.Scala;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.catalog.CatalogV2Util;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * The schema of a file source table after the column changes of an ALTER TABLE that such a table accepts: added
 * top-level columns, column comments, column defaults and a string column's collation. Spark's own
 * {@code CatalogV2Util.applySchemaChanges}
 * applies them, as for any catalog's table, so a column keeps its defaults as Spark's catalogs keep them, in the
 * field metadata: {@code CURRENT_DEFAULT} (what an INSERT fills in) and, for an added column, {@code EXISTS_DEFAULT}
 * (what the rows written before it read), and Spark checks that the provider allows defaults. The partition
 * columns stay last, in their order, as the entry of a data source table keeps them.
 */
public final class FileSchemaChanges {
  private static final String EXISTS_DEFAULT = "EXISTS_DEFAULT";

  private FileSchemaChanges() {}

  /** Whether this change is one of the column changes {@link #apply} makes. */
  public static boolean isColumnChange(TableChange change) {
    return change instanceof TableChange.AddColumn || change instanceof TableChange.UpdateColumnComment
        || change instanceof TableChange.UpdateColumnDefaultValue;
  }

  /**
   * {@code schema} (data columns, then the partition columns) with {@code changes} applied, for a table of
   * {@code provider}; {@code statement} names the statement in Spark's errors.
   */
  public static StructType apply(StructType schema, List<String> partitionColumns, List<TableChange> changes,
      String provider, String statement) {
    StructType applied = CatalogV2Util.applySchemaChanges(schema, Scala.list(changes), scala.Option.apply(provider),
        statement);
    List<StructField> changed = new ArrayList<>();
    for (StructField f : applied.fields()) {
      changed.add(schema.getFieldIndex(f.name()).isEmpty() ? f : withExistsDefaultOf(schema.apply(f.name()), f));
    }
    List<StructField> data = new ArrayList<>();
    List<StructField> partitions = new ArrayList<>();
    for (String column : partitionColumns) {
      for (StructField f : changed) {
        if (f.name().equalsIgnoreCase(column)) {
          partitions.add(f);
        }
      }
    }
    for (StructField f : changed) {
      if (!partitions.contains(f)) {
        data.add(f);
      }
    }
    data.addAll(partitions);
    return new StructType(data.toArray(new StructField[0]));
  }

  /**
   * {@code changed} with the existence default {@code before} had, or none. Only a column added now gets one:
   * Spark 3.5's helper folds one for every column with a current default whenever a column is added, where its
   * V1 command folds only the added columns' (a column whose default was set later has no older rows to fill).
   */
  private static StructField withExistsDefaultOf(StructField before, StructField changed) {
    MetadataBuilder metadata = new MetadataBuilder().withMetadata(changed.metadata()).remove(EXISTS_DEFAULT);
    if (before.metadata().contains(EXISTS_DEFAULT)) {
      metadata.putString(EXISTS_DEFAULT, before.metadata().getString(EXISTS_DEFAULT));
    }
    return new StructField(changed.name(), changed.dataType(), changed.nullable(), metadata.build());
  }
}
