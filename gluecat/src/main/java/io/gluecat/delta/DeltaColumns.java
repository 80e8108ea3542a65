package io.gluecat.delta;

import io.gluecat.compat.SparkCompat;
import java.util.Map;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.CatalogV2Util;
import org.apache.spark.sql.connector.catalog.Column;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.StagedTable;
import org.apache.spark.sql.connector.catalog.StagingTableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * The columns of a create or replace as Spark handed them to the catalog: a StructType (DataFrame writers,
 * Delta's builder on Spark 3.5), or v2 Columns, which carry generation expressions and identity settings
 * outside the StructType. Columns go to Delta's path create as Columns, so Delta turns them into its own
 * column metadata exactly as its catalog does for a name.
 */
public final class DeltaColumns {
  private final StructType schema;
  private final Column[] columns;

  private DeltaColumns(StructType schema, Column[] columns) {
    this.schema = schema;
    this.columns = columns;
  }

  public static DeltaColumns of(StructType schema) {
    return new DeltaColumns(schema, null);
  }

  public static DeltaColumns of(Column[] columns) {
    return new DeltaColumns(null, columns);
  }

  /** The columns as a StructType (defaults as field metadata, as Spark converts them). */
  public StructType schema() {
    return columns == null ? schema : CatalogV2Util.v2ColumnsToStructType(columns);
  }

  /**
   * The first column that only a Delta table keeps (a generated or identity column), or null. Other
   * providers would silently drop what makes it one.
   */
  public String deltaOnlyColumn() {
    if (columns != null) {
      for (Column c : columns) {
        if (c.generationExpression() != null || SparkCompat.isIdentity(c)) {
          return c.name();
        }
      }
    }
    return null;
  }

  StagedTable stageCreate(StagingTableCatalog delta, Identifier path, Transform[] partitions,
      Map<String, String> properties) throws TableAlreadyExistsException, NoSuchNamespaceException {
    return columns == null ? delta.stageCreate(path, schema, partitions, properties)
        : delta.stageCreate(path, columns, partitions, properties);
  }

  StagedTable stageReplace(StagingTableCatalog delta, Identifier path, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException, NoSuchTableException {
    return columns == null ? delta.stageReplace(path, schema, partitions, properties)
        : delta.stageReplace(path, columns, partitions, properties);
  }

  StagedTable stageCreateOrReplace(StagingTableCatalog delta, Identifier path, Transform[] partitions,
      Map<String, String> properties) throws NoSuchNamespaceException {
    return columns == null ? delta.stageCreateOrReplace(path, schema, partitions, properties)
        : delta.stageCreateOrReplace(path, columns, partitions, properties);
  }
}
