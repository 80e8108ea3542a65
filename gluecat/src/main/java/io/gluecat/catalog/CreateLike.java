package io.gluecat.catalog;

import io.gluecat.create.CreateArguments;
import io.gluecat.delta.DeltaTables;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.TableName;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.V1Table;

/**
 * CREATE TABLE t LIKE s (Spark 4.2 asks the catalog; gluecat's session extension on the other lines): a create with
 * the source's columns and partitioning, and its provider unless USING names one. As with Delta's own catalog, a
 * Delta target of a Delta source also gets the source's table properties and comment (DeltaTables.likeProperties); a
 * file table of this catalog passes on its OPTIONS from its entry (a loaded table's storage properties hold the
 * catalog's settings, which never pass into an entry).
 */
final class CreateLike {
  private final String name;
  private final EntryCatalog entries;

  CreateLike(String name, EntryCatalog entries) {
    this.name = name;
    this.entries = entries;
  }

  /** The properties of the create that makes {@code ident} like {@code source}, from those the statement gave. */
  Map<String, String> properties(Identifier ident, Map<String, String> given, Table source) {
    Map<String, String> properties = new LinkedHashMap<>(given);
    Map<String, String> sourceProperties = source.properties();
    String sourceProvider = source instanceof V1Table
        ? ((V1Table) source).v1Table().provider().getOrElse(() -> null)
        : sourceProperties.get(TableCatalog.PROP_PROVIDER);
    if (sourceProvider != null) {
      properties.putIfAbsent(TableCatalog.PROP_PROVIDER, sourceProvider);
    }
    boolean deltaTarget = EntryFormat.isDelta(new CreateArguments(properties).provider());
    if (deltaTarget && EntryFormat.isDelta(sourceProvider)) {
      DeltaTables.likeProperties(sourceProperties).forEach(properties::putIfAbsent);
    } else if (!deltaTarget && source instanceof V1Table
        && name.equals(((V1Table) source).v1Table().identifier().catalog().getOrElse(() -> null))) {
      org.apache.spark.sql.catalyst.TableIdentifier id = ((V1Table) source).v1Table().identifier();
      TableName sourceName = new TableName(id.database().get(), id.table());
      try {
        entries.entry(sourceName).storageProperties()
            .forEach((k, v) -> properties.putIfAbsent(TableCatalog.OPTION_PREFIX + k, v));
      } catch (NoSuchTableException e) {
        throw new IllegalStateException(String.format("Table %s.%s, the source of CREATE TABLE %s LIKE, disappeared "
            + "from Glue", name, sourceName, ident), e);
      }
    }
    return properties;
  }
}
