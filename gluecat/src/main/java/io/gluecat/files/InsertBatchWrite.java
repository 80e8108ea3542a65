package io.gluecat.files;

import io.gluecat.files.InsertTable.Target;
import io.gluecat.writes.FileJob;
import io.gluecat.writes.WriteMode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.sources.Filter;

/**
 * The job of an {@link InsertTable} write: a {@link FileJob} in Spark's {@code key=value} layout, then the
 * partition sync. An overwrite's job replaces each partition directory it writes when it commits (the commit
 * protocol's dynamic partition overwrite); a static overwrite then removes the directories its static values
 * select that got no rows, as Spark's V1 insert removes them. Nothing is deleted before the new files are
 * committed, so a statement that reads the table it overwrites reads the old rows, and a failed job leaves the
 * table as it was.
 */
final class InsertBatchWrite implements BatchWrite {
  private final Target target;
  private final WriteMode mode;
  private final Filter[] filters;
  private final FileJob job;
  private volatile boolean committed;

  InsertBatchWrite(Target target, LogicalWriteInfo info, WriteMode mode, Filter[] filters) {
    this.target = target;
    this.mode = mode;
    this.filters = filters;
    this.job = new FileJob(new FileJob.Spec(target.name(), target.provider(), target.location(),
        target.partitionColumns(), target.options(), info.schema(), Map.of(),
        mode != WriteMode.APPEND, target.bucketSpec()));
  }

  @Override
  public DataWriterFactory createBatchWriterFactory(PhysicalWriteInfo info) {
    return job.createBatchWriterFactory(info);
  }

  @Override
  public boolean useCommitCoordinator() {
    return job.useCommitCoordinator();
  }

  @Override
  public void abort(WriterCommitMessage[] messages) {
    if (!committed) { // after the commit the new files are the table's; a failed sync keeps them
      job.abort(messages);
    }
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    Set<String> written = job.commit(messages); // an overwrite's written partitions are replaced from here on
    committed = true;
    List<String> removed = mode == WriteMode.OVERWRITE ? removeUnwrittenSelectedPartitions(written) : List.of();
    target.afterWrite().run(new ArrayList<>(written), removed);
  }

  /** A static overwrite's selected partition directories that got no rows go, as Spark's V1 insert removes them. */
  private List<String> removeUnwrittenSelectedPartitions(Set<String> written) {
    Path root = new Path(target.location());
    try {
      FileSystem fs = root.getFileSystem(job.conf());
      Map<String, Path> partitions = new LinkedHashMap<>();
      walk(fs, root, "", 0, new LinkedHashMap<>(), written, partitions);
      for (Path dir : partitions.values()) {
        fs.delete(dir, true);
        for (Path parent = dir.getParent(); parent != null && parent.depth() > root.depth();
            parent = parent.getParent()) {
          FileStatus[] left = fs.listStatus(parent);
          if (left.length > 0) {
            break;
          }
          fs.delete(parent, false);
        }
      }
      return new ArrayList<>(partitions.keySet());
    } catch (IOException e) {
      throw new UncheckedIOException(String.format("The rows of this overwrite of table %s were written, but "
          + "removing the partitions it replaces under %s failed: %s. Readers see the old partitions beside the "
          + "new until they are removed.", target.name(), target.location(), e.getMessage()), e);
    }
  }

  private void walk(FileSystem fs, Path dir, String fragment, int depth, Map<String, String> spec, Set<String> written,
      Map<String, Path> selected) throws IOException {
    List<String> keys = target.partitionColumns();
    if (depth == keys.size()) {
      if (!written.contains(fragment) && selectedByFilters(spec)) {
        selected.put(fragment, dir);
      }
      return;
    }
    if (!fs.exists(dir)) {
      return;
    }
    for (FileStatus child : fs.listStatus(dir)) {
      String name = child.getPath().getName();
      int eq = name.indexOf('=');
      if (!child.isDirectory() || name.startsWith("_") || name.startsWith(".") || eq <= 0
          || !ExternalCatalogUtils.unescapePathName(name.substring(0, eq)).equalsIgnoreCase(keys.get(depth))) {
        continue;
      }
      Map<String, String> next = new LinkedHashMap<>(spec);
      next.put(keys.get(depth), ExternalCatalogUtils.unescapePathName(name.substring(eq + 1)));
      walk(fs, child.getPath(), fragment.isEmpty() ? name : fragment + "/" + name, depth + 1, next, written, selected);
    }
  }

  private boolean selectedByFilters(Map<String, String> spec) {
    for (Filter f : filters) {
      if (!WriteMode.selects(target.name(), InsertTable.KIND, target.partitionColumns(), f, spec)) {
        return false;
      }
    }
    return true;
  }
}
