package io.gluecat.hive;

import io.gluecat.GlueCatalogException;
import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.NewPartition;
import io.gluecat.entry.StoredPartition;
import io.gluecat.glue.PartitionExpressions;
import io.gluecat.hive.HiveWrite.Target;
import io.gluecat.partitions.PartitionSync;
import io.gluecat.partitions.StaticPartitions;
import io.gluecat.writes.FileJob;
import io.gluecat.writes.WriteMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.catalyst.catalog.ExternalCatalogUtils;
import org.apache.spark.sql.connector.write.BatchWrite;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.LogicalWriteInfo;
import org.apache.spark.sql.connector.write.PhysicalWriteInfo;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StructType;

/**
 * The job of a {@link HiveWrite}: a {@link FileJob} (with existing partitions' files at their Glue locations),
 * then the partitions in Glue and the replaced files. Kept apart from HiveWrite (what Spark asks for, which partitions an overwrite selects): this is
 * the part that touches storage and Glue, in the order that keeps a failed write harmless.
 */
final class HiveBatchWrite implements BatchWrite {
  private final Target target;
  private final WriteMode mode;
  private final Filter[] filters;
  /**
   * The table's partitions the write may touch, by their values, as Glue has them: read before the job for a
   * static overwrite (the partitions its values select), after the job's commit otherwise (the partitions it
   * wrote).
   */
  private final Map<List<String>, StoredPartition> existing = new LinkedHashMap<>();
  /** Whether {@link #existing} was read before the job, so the job writes into their locations itself. */
  private final boolean existingBeforeJob;
  private final FileJob job;
  private final HiveWriteFiles jobFiles;

  HiveBatchWrite(Target target, LogicalWriteInfo info, WriteMode mode, Filter[] filters) {
    this.target = target;
    this.mode = mode;
    this.filters = filters;
    Map<String, String> options = new LinkedHashMap<>(target.options());
    options.putAll(target.source().writeOptions());
    options.putAll(info.options().asCaseSensitiveMap());
    // a static overwrite knows what it replaces before it writes: the partitions of its static values (all of
    // them when it names none); appends and dynamic overwrites learn which partitions they wrote only once written
    this.existingBeforeJob = mode == WriteMode.OVERWRITE && !target.source().partitionColumns().isEmpty();
    if (existingBeforeJob) {
      Map<String, String> statics = StaticPartitions.values(filters);
      readExisting(statics.isEmpty() ? null : List.of(statics));
    }
    // existing partitions that Glue keeps elsewhere than their key=value directory get their files there
    Map<Map<String, String>, String> partitionLocations = new LinkedHashMap<>();
    for (StoredPartition p : existing.values()) {
      Map<String, String> spec = spec(p.values());
      String where = p.location();
      if (where != null && !EntryFormat.withoutTrailingSlash(where).equals(defaultLocation(spec))) {
        partitionLocations.put(spec, EntryFormat.withoutTrailingSlash(where));
      }
    }
    this.job = new FileJob(new FileJob.Spec(target.name(), target.source().format(), target.location(),
        target.source().partitionColumns(), options, info.schema(), partitionLocations, false));
    this.jobFiles = new HiveWriteFiles(target.name(), target.location(), job.conf(), job.jobId());
  }

  /**
   * Reads the table's partitions of {@code specs} (values by key; null: every partition) into {@link #existing}:
   * GetPartitions expressions naming them ({@link PartitionExpressions}), or one listing of all when Glue's grammar
   * cannot name them.
   */
  private void readExisting(Collection<Map<String, String>> specs) {
    List<PartitionExpressions.Key> keys = keys();
    Optional<List<String>> expressions = specs == null ? Optional.empty() : PartitionExpressions.selecting(keys, specs);
    List<StoredPartition> answer = expressions.isPresent() ? target.partitions().partitions(expressions.get())
        : target.partitions().partitions(Optional.empty());
    for (StoredPartition p : answer) {
      if (specs == null || PartitionExpressions.selected(p.values(), keys, specs)) {
        existing.put(p.values(), p);
      }
    }
  }

  /** The partition keys with the Hive names of their types, as Glue keeps them. */
  private List<PartitionExpressions.Key> keys() {
    StructType schema = target.source().schema();
    return target.source().partitionColumns().stream()
        .map(k -> new PartitionExpressions.Key(k, schema.apply(k).dataType().catalogString())).toList();
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
    job.abort(messages);
  }

  @Override
  public void commit(WriterCommitMessage[] messages) {
    Set<String> fragments = job.commit(messages); // the new files are in place from here on
    Set<List<String>> written = new LinkedHashSet<>();
    fragments.forEach(fragment -> written.add(PartitionSync.values(fragment)));
    if (!existingBeforeJob && !written.isEmpty()) {
      try {
        List<PartitionExpressions.Key> keys = keys();
        readExisting(written.stream().map(v -> PartitionExpressions.spec(keys, v)).toList());
      } catch (RuntimeException e) {
        throw new GlueCatalogException(String.format("The rows of this write to table %s were written into %s, "
            + "under %s, but reading which of those partitions Glue has failed: %s. Glue readers (gluecat, Trino, "
            + "Athena) miss the rows of partitions Glue lacks until they exist: add them with "
            + "io.gluecat.partitions.PartitionSync.sync(\"<catalog>\", \"<database>.<table>\") (or the doctor "
            + "tool's repair --partitions). Rows of a partition that Glue keeps at a location of its own stay in its "
            + "key=value directory named here until they are moved there; the files an overwrite replaces were "
            + "kept.", target.name(), written.stream().map(v -> defaultLocation(spec(v))).toList(),
            target.location(), e.getMessage()), e);
      }
      // the job wrote every partition into its key=value directory: an existing partition that Glue keeps
      // elsewhere gets its rows moved there, as Hive moves a finished job's files into each partition's location
      for (List<String> values : written) {
        if (!location(values).equals(defaultLocation(spec(values)))) {
          jobFiles.move(defaultLocation(spec(values)), location(values));
        }
      }
    }
    List<NewPartition> added = new ArrayList<>();
    for (List<String> values : written) {
      if (!existing.containsKey(values)) {
        // the table's storage at the partition's directory, as Hive and Trino add one
        added.add(NewPartition.of(target.entry(), values, defaultLocation(spec(values))));
      }
    }
    // Glue first: until a partition object exists, no Glue reader sees its rows, and the old files stay
    try {
      target.partitions().create(added);
    } catch (RuntimeException e) {
      throw new GlueCatalogException(String.format("The rows of this write to table %s were written, but "
          + "creating the Glue partitions %s failed: %s. Glue readers (gluecat, Trino, Athena) miss those "
          + "partitions' rows until the partition objects exist; the files an overwrite replaces were kept. "
          + "Add the partitions without writing the rows again with io.gluecat.partitions.PartitionSync.sync"
          + "(\"<catalog>\", \"<database>.<table>\") (or the doctor tool's repair --partitions), which adds "
          + "the missing ones under %s and changes no other.", target.name(),
          added.stream().map(NewPartition::values).toList(), e.getMessage(), target.location()), e);
    }
    if (mode == WriteMode.APPEND) {
      return;
    }
    List<List<String>> emptied = new ArrayList<>();
    Set<String> replaced = new LinkedHashSet<>();
    if (target.source().partitionColumns().isEmpty()) {
      replaced.add(EntryFormat.withoutTrailingSlash(target.location()));
    } else {
      for (List<String> values : written) {
        replaced.add(location(values));
      }
      if (mode == WriteMode.OVERWRITE) {
        for (List<String> values : existing.keySet()) {
          if (selected(values)) {
            replaced.add(location(values));
            if (!written.contains(values)) {
              emptied.add(values);
            }
          }
        }
      }
    }
    for (String dir : replaced) {
      jobFiles.removeFilesOfOtherJobs(dir);
    }
    target.partitions().delete(emptied);
  }

  /** Whether the overwrite's filters select a partition (Spark's static partition values, AND-ed). */
  private boolean selected(List<String> values) {
    Map<String, String> spec = spec(values);
    for (Filter f : filters) {
      if (!HiveWrite.matches(target, f, spec)) {
        return false;
      }
    }
    return true;
  }

  /** Where a partition's files are: its Glue location, or the key=value directory of a new one. */
  private String location(List<String> values) {
    StoredPartition p = existing.get(values);
    String where = p == null ? null : p.location();
    return where == null || where.isBlank() ? defaultLocation(spec(values)) : EntryFormat.withoutTrailingSlash(where);
  }

  private Map<String, String> spec(List<String> values) {
    Map<String, String> spec = new LinkedHashMap<>();
    List<String> keys = target.source().partitionColumns();
    for (int i = 0; i < keys.size() && i < values.size(); i++) {
      spec.put(keys.get(i), values.get(i));
    }
    return spec;
  }

  private String defaultLocation(Map<String, String> spec) {
    StringBuilder path = new StringBuilder(EntryFormat.withoutTrailingSlash(target.location()));
    spec.forEach((key, value) -> path.append('/').append(ExternalCatalogUtils.getPartitionPathString(key, value)));
    return path.toString();
  }
}
