package io.gluecat.hive;

import io.gluecat.GlueCatalogException;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;

/**
 * What a {@link HiveBatchWrite} does to files after its job committed, told apart by the job's id in their names
 * (Spark's writers put it in every file they write): this job's files moved into a partition's own location, and
 * other jobs' files removed from the partitions an overwrite replaces.
 */
final class HiveWriteFiles {
  private final String table;
  private final String location;
  private final Configuration conf;
  private final String jobId;

  /**
   * @param table catalog.database.table, for messages
   * @param location the table's location: the directories a move empties are removed up to it, not past it
   */
  HiveWriteFiles(String table, String location, Configuration conf, String jobId) {
    this.table = table;
    this.location = location;
    this.conf = conf;
    this.jobId = jobId;
  }

  /**
   * Moves this job's data files from a partition's key=value directory {@code from} into the partition's own
   * location {@code to} (Glue's), then removes {@code from} and its parents up to the table's location where the
   * move left them empty. Other files in {@code from} stay.
   */
  void move(String from, String to) {
    Path source = new Path(from);
    Path target = new Path(to);
    try {
      FileSystem sourceFs = source.getFileSystem(conf);
      FileSystem targetFs = target.getFileSystem(conf);
      if (!sourceFs.exists(source)) {
        return;
      }
      targetFs.mkdirs(target);
      boolean sameFs = sourceFs.getUri().equals(targetFs.getUri());
      for (FileStatus f : sourceFs.listStatus(source)) {
        if (!isThisJobs(f)) {
          continue;
        }
        Path moved = new Path(target, f.getPath().getName());
        boolean done = sameFs ? sourceFs.rename(f.getPath(), moved)
            : FileUtil.copy(sourceFs, f.getPath(), targetFs, moved, true, conf);
        if (!done) {
          throw new IOException("could not move " + f.getPath() + " to " + moved);
        }
      }
      Path root = new Path(location);
      for (Path dir = source; dir != null && dir.depth() > root.depth(); dir = dir.getParent()) {
        if (sourceFs.listStatus(dir).length > 0) {
          break;
        }
        sourceFs.delete(dir, false);
      }
    } catch (IOException e) {
      throw new GlueCatalogException(String.format("The rows of this write to table %s were written, but moving "
          + "those of a partition that Glue keeps at %s out of %s failed: %s. Readers miss the rows whose files are "
          + "still in %s (the ones named with the job id %s) until they are moved to %s.", table, to, from,
          e.getMessage(), from, jobId, to), e);
    }
  }

  /** Removes a directory's data files that this job did not write; hidden files and subdirectories stay. */
  void removeFilesOfOtherJobs(String dir) {
    Path path = new Path(dir);
    try {
      FileSystem fs = path.getFileSystem(conf);
      if (!fs.exists(path)) {
        return;
      }
      for (FileStatus f : fs.listStatus(path)) {
        String name = f.getPath().getName();
        if (f.isFile() && !name.startsWith("_") && !name.startsWith(".") && !name.contains(jobId)) {
          fs.delete(f.getPath(), false);
        }
      }
    } catch (IOException e) {
      throw new GlueCatalogException(String.format("The rows of this overwrite of table %s were written and "
          + "its Glue partitions are in place, but removing the files it replaces in %s failed: %s. Readers "
          + "see the old rows beside the new until those files are removed.", table, dir, e.getMessage()), e);
    }
  }

  /** A data file this job wrote (hidden and marker files, such as _SUCCESS, are not data). */
  private boolean isThisJobs(FileStatus f) {
    String name = f.getPath().getName();
    return f.isFile() && !name.startsWith("_") && !name.startsWith(".") && name.contains(jobId);
  }
}
