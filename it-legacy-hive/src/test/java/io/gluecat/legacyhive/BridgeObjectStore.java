package io.gluecat.legacyhive;

import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hive.metastore.ObjectStore;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;

/**
 * The embedded metastore's store ({@code hive.metastore.rawstore.impl}): Hive's own {@link ObjectStore},
 * except that it can report a database without a location. A Glue database may have no LocationUri, and
 * the Glue client then hands Hive an empty location; Hive's metastore refuses to store one. So the bridge
 * stores such a database with a stand-in location and the parameter {@link #NO_LOCATION}, and this store
 * reports the empty location the Glue client would (and drops the parameter).
 */
public class BridgeObjectStore extends ObjectStore {
  /** Database parameter the bridge sets when the Glue database has no LocationUri. */
  static final String NO_LOCATION = "gluecat.bridge.glueLocationAbsent";

  @Override
  public Database getDatabase(String name) throws NoSuchObjectException {
    Database db = super.getDatabase(name);
    Map<String, String> parameters = db.getParameters();
    if (parameters != null && parameters.containsKey(NO_LOCATION)) {
      Map<String, String> rest = new HashMap<>(parameters);
      rest.remove(NO_LOCATION);
      db.setParameters(rest);
      db.setLocationUri("");
    }
    return db;
  }
}
