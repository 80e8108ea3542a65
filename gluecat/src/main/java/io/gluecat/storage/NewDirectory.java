package io.gluecat.storage;

import java.io.IOException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * A table directory as a statement found it before writing there: which part of its path did not exist
 * yet, and whether it was empty. A create whose Glue call is refused removes exactly what the statement
 * made ({@link #removeWhatWasMade}); what existed before is never deleted.
 */
public final class NewDirectory {
  private final FileSystem fs;
  private final Path path;
  /** The highest directory of the path that did not exist; null when the path existed. */
  private final Path highestMade;
  private final boolean wasEmpty;

  private NewDirectory(FileSystem fs, Path path, Path highestMade, boolean wasEmpty) {
    this.fs = fs;
    this.path = path;
    this.highestMade = highestMade;
    this.wasEmpty = wasEmpty;
  }

  /** Looks at {@code path} before the statement writes there. */
  public static NewDirectory before(FileSystem fs, Path path) throws IOException {
    Path highest = null;
    for (Path p = path; p != null && !p.isRoot() && !fs.exists(p); p = p.getParent()) {
      highest = p;
    }
    boolean empty = highest != null || fs.listStatus(path).length == 0;
    return new NewDirectory(fs, path, highest, empty);
  }

  /** Whether the directory held anything before the statement. */
  public boolean wasEmpty() { return wasEmpty; }

  /** Creates the directory (and the parents it lacked). */
  public void make() throws IOException {
    fs.mkdirs(path);
  }

  /**
   * Removes what the statement made: the directories of the path that did not exist before, and, when
   * {@code withWrittenFiles}, the files the statement wrote into a directory that was empty or missing before.
   * Without it, a directory that now holds files (another writer's) stays. Parents are removed only while
   * empty, so nothing that existed before, or that someone else put there since, is deleted.
   *
   * @return whether nothing of what the statement made is left
   */
  public boolean removeWhatWasMade(boolean withWrittenFiles) throws IOException {
    if (!fs.exists(path)) {
      return true;
    }
    if (highestMade == null) {
      if (!withWrittenFiles) {
        return true; // the directory existed: the statement made nothing
      }
      if (!wasEmpty) {
        return false;
      }
      for (FileStatus child : fs.listStatus(path)) {
        fs.delete(child.getPath(), true);
      }
      return true;
    }
    if (!withWrittenFiles && holdsFiles(path)) {
      return false;
    }
    fs.delete(path, true);
    for (Path p = path.getParent(); p != null && depth(p) >= depth(highestMade); p = p.getParent()) {
      if (fs.exists(p) && fs.listStatus(p).length == 0) {
        fs.delete(p, false);
      } else {
        break;
      }
    }
    return true;
  }

  private boolean holdsFiles(Path dir) throws IOException {
    RemoteIterator<org.apache.hadoop.fs.LocatedFileStatus> files = fs.listFiles(dir, true);
    return files.hasNext();
  }

  private static int depth(Path p) {
    return p.depth();
  }
}
