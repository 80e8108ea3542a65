package io.gluecat.files;

import io.gluecat.GlueCatalogException;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueErrors;
import io.gluecat.glue.GlueGateway;
import io.gluecat.storage.CatalogHadoopConf;
import io.gluecat.storage.NewDirectory;
import java.io.IOException;
import java.util.Optional;
import org.apache.hadoop.fs.Path;

/**
 * The directories file-table creates write: made or checked empty before the Glue write, and removed again
 * when that write is refused (docs/how-it-works.md, "Errors"), so a refused create leaves nothing behind.
 */
final class CreateLocations {
  private final String catalog;
  private final GlueGateway glue;
  private final CatalogHadoopConf hadoop;

  CreateLocations(String catalog, GlueGateway glue, CatalogHadoopConf hadoop) {
    this.catalog = catalog;
    this.glue = glue;
    this.hadoop = hadoop;
  }

  /** The location as found before the statement writes there, which must be missing or empty. */
  NewDirectory requireEmpty(TableName name, String location) {
    NewDirectory before;
    try {
      before = NewDirectory.before(hadoop.open(location), new Path(location));
    } catch (IOException e) {
      throw storageFailed("s3:ListBucket", name, location, "could not check the location " + location, e);
    }
    if (!before.wasEmpty()) {
      throw new IllegalArgumentException(String.format("Table %s.%s cannot be created as select at %s: the "
          + "location is not empty", catalog, name, location));
    }
    return before;
  }

  /**
   * After a refused Glue write of a create (access denied: nothing was applied), removes what the statement
   * made at {@code location} ({@link NewDirectory#removeWhatWasMade}) and says so; empty for any other failure,
   * or when something is left, so that the caller reports it as before.
   */
  Optional<GlueCatalogException> afterRefusal(Exception e, NewDirectory made, boolean withWrittenFiles,
      String location) {
    if (!GlueErrors.isAccessDenied(e)) {
      return Optional.empty();
    }
    try {
      if (!made.removeWhatWasMade(withWrittenFiles)) {
        return Optional.empty();
      }
    } catch (IOException cleanup) {
      e.addSuppressed(cleanup);
      return Optional.empty();
    }
    return Optional.of(new GlueCatalogException(e.getMessage() + " Nothing was left behind: the statement removed "
        + (withWrittenFiles ? "the files it had written and " : "") + "the directory it had made at " + location
        + ".", e.getCause() != null && e instanceof GlueCatalogException ? e.getCause() : e));
  }

  /** A storage failure of a create's own file-system step: access denied named as such, anything else as before. */
  private RuntimeException storageFailed(String action, TableName name, String location, String what, IOException e) {
    if (GlueErrors.isAccessDenied(e)) {
      return glue.errors().storageDenied(action, "table '" + name + "'", location, e);
    }
    return new IllegalStateException(what + ": " + e.getMessage(), e);
  }

  /** Creates the table directory (and the parents it lacks); what existed before is in the answer. */
  NewDirectory make(TableName name, String location) {
    try {
      NewDirectory made = NewDirectory.before(hadoop.open(location), new Path(location));
      made.make();
      return made;
    } catch (IOException e) {
      throw storageFailed("s3:PutObject", name, location, "could not create the table directory " + location, e);
    }
  }
}
