package io.gluecat.files;

import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.entry.TableName;
import java.util.List;
import java.util.Locale;
import org.apache.spark.sql.catalyst.TableIdentifier;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.errors.QueryCompilationErrors;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import scala.Option;

/**
 * The errors of the ALTER TABLE changes a file source table refuses, built by Spark's own error builders as Spark's
 * catalog builds them for a data source table (ResolveSessionCatalog, AlterTableChangeColumnCommand), so they keep
 * Spark's condition, SQLSTATE and message, naming the table by this catalog's name.
 */
final class AlterRefusals {
  private AlterRefusals() {}

  /** Spark's UNSUPPORTED_FEATURE.TABLE_OPERATION for the operation, as its catalog names it ("DROP COLUMN"). */
  static RuntimeException operation(String catalog, TableName name, String operation) {
    return Scala.rethrow(QueryCompilationErrors.unsupportedTableOperationError(identifier(catalog, name), operation));
  }

  private static TableIdentifier identifier(String catalog, TableName name) {
    return new TableIdentifier(name.table(), Option.apply(name.database()), Option.apply(catalog));
  }

  /** The refusal of a change file source tables do not take: Spark's for it where its catalog has one. */
  static RuntimeException change(String catalog, TableName name, TableChange change) {
    if (change instanceof TableChange.RenameColumn) {
      return operation(catalog, name, "RENAME COLUMN");
    } else if (change instanceof TableChange.DeleteColumn) {
      return operation(catalog, name, "DROP COLUMN");
    } else if (change instanceof TableChange.UpdateColumnPosition) {
      return operation(catalog, name, "ALTER COLUMN ... FIRST | AFTER");
    } else if (change instanceof TableChange.UpdateColumnNullability) {
      return Scala.rethrow(SparkCompat.nullabilityChangeError(identifier(catalog, name)));
    }
    return operation(catalog, name, change.getClass().getSimpleName().replaceAll("([a-z])([A-Z])", "$1 $2")
        .toUpperCase(Locale.ROOT));
  }

  /** Spark's refusal of a column's new type: {@code column} is the column as the table has it. */
  static RuntimeException columnType(String catalog, TableName name, StructField column,
      TableChange.UpdateColumnType change, boolean partitionColumn, String[] dataColumns) {
    StructField to = new StructField(column.name(), change.newDataType(), true, Metadata.empty());
    return Scala.rethrow(SparkCompat.columnTypeChangeError(List.of(catalog, name.database(), name.table()), column, to,
        partitionColumn, dataColumns));
  }
}
