package io.gluecat.tools.register;

import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.glue.GlueEntries;
import io.gluecat.tools.cli.CatalogSession;
import io.gluecat.tools.cli.UsageException;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;

/**
 * {@code register <database>.<table> <location>} and {@code register <database> --scan <prefix>}: Glue
 * entries for Delta tables that exist but have none (after a DeltaCommittedButGlueFailedException, or a
 * lake never catalogued). Each registration is the catalog's own {@code CREATE TABLE ... USING delta
 * LOCATION '...'} (its createTable, which reads the log and writes the entry with its EntryWriter). An
 * existing entry is reported and left as it is.
 */
public final class Register {
  /** How deep --scan looks under its prefix for Delta tables. */
  static final int SCAN_DEPTH = 4;

  private final CatalogSession session;
  private final PrintStream out;

  public Register(CatalogSession session, PrintStream out) {
    this.session = session;
    this.out = out;
  }

  /** What happened to one table. */
  public enum Outcome { REGISTERED, ALREADY_REGISTERED, EXISTS_ELSEWHERE, NO_DELTA_TABLE, FAILED }

  public int one(String qualifiedName, String location) {
    int dot = qualifiedName.indexOf('.');
    if (dot <= 0 || dot == qualifiedName.length() - 1 || qualifiedName.indexOf('.', dot + 1) >= 0) {
      throw new UsageException("register takes <database>.<table> <location>, got '" + qualifiedName + "'");
    }
    String database = qualifiedName.substring(0, dot);
    session.database(database);
    Outcome outcome = register(new TableName(database, qualifiedName.substring(dot + 1)),
        EntryFormat.withoutTrailingSlash(location));
    return outcome == Outcome.REGISTERED || outcome == Outcome.ALREADY_REGISTERED ? 0 : 1;
  }

  public int scan(String database, String prefix) {
    session.database(database);
    List<String> found = new ArrayList<>();
    try {
      FileSystem fs = session.parts().hadoop().open("--scan " + prefix, prefix);
      Path root = new Path(prefix);
      if (!fs.exists(root)) {
        throw new UsageException("--scan " + prefix + ": no such directory");
      }
      find(fs, root, 0, found);
    } catch (IOException e) {
      throw new UsageException("--scan " + prefix + ": cannot list it: " + e.getMessage(), e);
    } catch (IllegalArgumentException | IllegalStateException e) {
      throw new UsageException("--scan " + prefix + ": " + e.getMessage(), e);
    }
    int bad = 0;
    int registered = 0;
    for (String location : found) {
      String name = new Path(location).getName().toLowerCase(java.util.Locale.ROOT);
      if (!name.matches("[a-z0-9_]+")) {
        out.printf("%s: skipped: '%s' is not a table name (letters, digits and _ only)%n", location, name);
        bad++;
        continue;
      }
      Outcome o = register(new TableName(database, name), location);
      registered += o == Outcome.REGISTERED ? 1 : 0;
      bad += o == Outcome.REGISTERED || o == Outcome.ALREADY_REGISTERED ? 0 : 1;
    }
    out.printf("%d Delta tables under %s, %d registered in %s%n", found.size(), prefix, registered, database);
    return bad == 0 ? 0 : 1;
  }

  /** Directories under {@code dir} that hold a _delta_log; a Delta table's own subdirectories are not searched. */
  private static void find(FileSystem fs, Path dir, int depth, List<String> found) throws IOException {
    if (fs.exists(new Path(dir, "_delta_log"))) {
      found.add(EntryFormat.withoutTrailingSlash(dir.toString()));
      return;
    }
    if (depth >= SCAN_DEPTH) {
      return;
    }
    FileStatus[] children = fs.listStatus(dir);
    java.util.Arrays.sort(children, java.util.Comparator.comparing(s -> s.getPath().getName()));
    for (FileStatus child : children) {
      String n = child.getPath().getName();
      if (child.isDirectory() && !n.startsWith("_") && !n.startsWith(".")) {
        find(fs, child.getPath(), depth + 1, found);
      }
    }
  }

  private Outcome register(TableName table, String location) {
    Optional<StoredTable> existing = new GlueEntries(session.glue()).find(table);
    if (existing.isPresent()) {
      Optional<String> at = existing.get().readLocation();
      boolean same = at.isPresent() && EntryFormat.withoutTrailingSlash(at.get()).equals(location);
      out.printf("%s: %s; entry left as it is%n", table, same ? "already registered at " + location
          : "an entry exists (at " + at.orElse("no location") + ")");
      return same ? Outcome.ALREADY_REGISTERED : Outcome.EXISTS_ELSEWHERE;
    }
    try {
      if (!session.parts().hadoop().open("table " + table, location).exists(new Path(location, "_delta_log"))) {
        out.printf("%s: not registered: %s has no _delta_log%n", table, location);
        return Outcome.NO_DELTA_TABLE;
      }
      session.catalog().createTable(Identifier.of(new String[] {table.database()}, table.table()), new StructType(),
          new Transform[0], Map.of(TableCatalog.PROP_PROVIDER, "delta", TableCatalog.PROP_LOCATION, location));
      out.printf("%s: registered at %s%n", table, location);
      return Outcome.REGISTERED;
    } catch (Exception e) {
      out.printf("%s: FAILED: %s%n", table, e.getMessage());
      return Outcome.FAILED;
    }
  }
}
