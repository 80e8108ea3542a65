package io.gluecat.glue;

import io.gluecat.entry.StoredDatabase;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.analysis.NamespaceAlreadyExistsException;
import org.apache.spark.sql.catalyst.analysis.NoSuchNamespaceException;

/**
 * The gateway's database calls in gluecat's terms ({@link StoredDatabase}), for the namespace code and the
 * tools, which stay off Glue's SDK model (issue #42). Apart from GlueGateway, which is at its size limit.
 */
public final class GlueDatabases {
  private final GlueGateway glue;

  public GlueDatabases(GlueGateway glue) {
    this.glue = glue;
  }

  /** The database, through the gateway's cache. */
  public StoredDatabase get(String name) throws NoSuchNamespaceException {
    return new StoredDatabase(glue.getDatabase(name));
  }

  /** Every database of the catalog. */
  public List<StoredDatabase> list() {
    return glue.listDatabases().stream().map(StoredDatabase::new).toList();
  }

  /** Creates a database; a null description or location is left unset. */
  public void create(String name, String description, String location, Map<String, String> parameters)
      throws NamespaceAlreadyExistsException {
    glue.createDatabase(StoredDatabase.newDatabase(name, description, location, parameters));
  }

  /**
   * Replaces the description, location and parameters of {@code current} (null: removed), keeping every other
   * field of it ({@link StoredDatabase#changed}): UpdateDatabase replaces the whole definition.
   */
  public void update(String name, StoredDatabase current, String description, String location,
      Map<String, String> parameters) throws NoSuchNamespaceException {
    glue.updateDatabase(name, current.changed(name, description, location, parameters));
  }
}
