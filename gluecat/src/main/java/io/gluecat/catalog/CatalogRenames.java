package io.gluecat.catalog;

import io.gluecat.GlueCatalogException;
import io.gluecat.compat.Scala;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueEntries;
import io.gluecat.glue.GlueGateway;
import io.gluecat.partitions.PartitionSync;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.catalyst.analysis.TableAlreadyExistsException;
import org.apache.spark.sql.connector.catalog.Identifier;

/** RENAME TABLE of any kind of table: a rename is the same Glue steps whatever the entry serves. */
final class CatalogRenames {
  private final String name;
  private final GlueGateway glue;
  private final GlueEntries entries;
  private final PartitionSync partitions;
  private final CatalogNames names;

  CatalogRenames(String name, GlueGateway glue, PartitionSync partitions, CatalogNames names) {
    this.name = name;
    this.glue = glue;
    this.entries = new GlueEntries(glue);
    this.partitions = partitions;
    this.names = names;
  }

  /**
   * Glue has no rename: the entry is created under the new name, then the old one is deleted. The data
   * does not move. If the delete fails, both entries point at the same location and dropping the old name
   * (which never deletes data) finishes the rename.
   */
  void rename(Identifier from, Identifier to) throws NoSuchTableException, TableAlreadyExistsException {
    TableName source = names.tableName(from);
    if (source == null) {
      throw new NoSuchTableException(from);
    }
    TableName target = names.newTableName(names.withoutCatalogName(to));
    StoredTable entry = entries.get(source);
    if (entry.isIceberg()) {
      throw new IcebergEntryFound(name, source, entry); // Iceberg's catalog renames it (CatalogTables)
    }
    if (entry.isView()) {
      throw new NoSuchTableException(Scala.list(name, source.database(), source.table()));
    }
    try {
      entries.createRenamed(entry, target);
    } catch (NoSuchNamespaceException e) {
      throw new IllegalArgumentException(String.format("Cannot rename %s.%s to %s.%s: database %s does not exist",
          name, source, name, target, target.database()), e);
    }
    names.forgetCachedRelation(source);
    if (PartitionSync.notApplicable(entry) == null) {
      try {
        partitions.copy(source, entry, target); // Glue has no rename: the partition objects are copied too
      } catch (NoSuchTableException | RuntimeException e) {
        throw new GlueCatalogException(String.format("Created %s.%s as the new name of %s.%s, but copying its Glue "
            + "partition objects failed: %s. Both entries point at the same location and nothing was deleted; "
            + "run DROP TABLE %s.%s (which never deletes data) and then sync the partitions of %s.%s with "
            + "io.gluecat.partitions.PartitionSync.sync(\"%s\", \"%s\").", name, target, name, source,
            e.getMessage(), name, source, name, target, name, target), e);
      }
    }
    try {
      glue.deleteTable(source); // false: already gone, e.g. a retried delete whose first answer was lost
    } catch (RuntimeException e) {
      throw new GlueCatalogException(String.format("Renamed %s.%s to %s.%s, but the old entry could not be "
          + "deleted: %s. Both entries now point at the same location; run DROP TABLE %s.%s (which never deletes "
          + "data) to finish the rename.", name, source, name, target, e.getMessage(), name, source), e);
    }
  }
}
