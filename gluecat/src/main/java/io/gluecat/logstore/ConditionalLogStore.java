package io.gluecat.logstore;

import io.delta.storage.HadoopFileSystemLogStore;
import java.io.ByteArrayOutputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Optional;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A Delta log store for S3 whose commits are atomic across writers: each new commit file is one PUT with
 * {@code If-None-Match: *} (S3's put-if-absent), so of two writers committing the same version exactly one
 * succeeds and the other gets {@link java.nio.file.FileAlreadyExistsException}, on which Delta retries at the
 * next version. Delta's default for {@code s3a://}, {@code S3SingleDriverLogStore}, only serialises writers of
 * one JVM: two applications committing the same version both succeed and the later PUT replaces the earlier
 * commit file.
 *
 * <p>Turned on per application with {@code spark.delta.logStore.s3a.impl=io.gluecat.logstore.ConditionalLogStore}
 * (and {@code .s3.impl} where {@code s3://} is S3A); docs/operations.md, "Several writers on one table".
 * Reading and listing are {@link HadoopFileSystemLogStore}'s, through S3A. Overwrites ({@code _last_checkpoint})
 * stay plain PUTs. The conditional PUT is the line's {@link S3PutIfAbsent}: S3A's conditional create on
 * Hadoop 3.4.2 and later (HADOOP-19256), S3A's own SDK v1 client with the header on Hadoop 3.3. See
 * {@link ConditionalCommit} for what each answer means and {@link ConditionalProbe} for endpoints that ignore
 * the header.
 */
public class ConditionalLogStore extends HadoopFileSystemLogStore {
  /** Hadoop setting: {@code false} skips the check that the endpoint honours If-None-Match (default true). */
  public static final String PROBE = "gluecat.logstore.conditional.probe";
  private static final Logger LOG = LoggerFactory.getLogger(ConditionalLogStore.class);

  public ConditionalLogStore(Configuration initHadoopConf) {
    super(initHadoopConf);
  }

  @Override
  public void write(Path path, Iterator<String> actions, Boolean overwrite, Configuration hadoopConf)
      throws IOException {
    byte[] bytes = bytes(actions);
    FileSystem fs = path.getFileSystem(hadoopConf);
    if (Boolean.TRUE.equals(overwrite)) {
      try (FSDataOutputStream out = fs.create(path, true)) {
        out.write(bytes);
      }
      return;
    }
    ConditionalCommit.Store store = store(fs);
    if (hadoopConf.getBoolean(PROBE, true)) {
      String bucket = path.toUri().getScheme() + "://" + path.toUri().getAuthority();
      ConditionalProbe.check(bucket, path.getParent(), store, probe -> delete(fs, probe));
    }
    ConditionalCommit.write(store, path, bytes, ConditionalCommit.Pause.BACKOFF);
  }

  @Override
  public Boolean isPartialWriteVisible(Path path, Configuration hadoopConf) {
    return false; // one PUT: the object appears whole or not at all
  }

  /** The commit's bytes as Delta's own log stores write them: each action followed by a newline. */
  static byte[] bytes(Iterator<String> actions) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (actions.hasNext()) {
      byte[] line = (actions.next() + "\n").getBytes(StandardCharsets.UTF_8);
      out.write(line, 0, line.length);
    }
    return out.toByteArray();
  }

  static ConditionalCommit.Store store(FileSystem fs) {
    return new ConditionalCommit.Store() {
      @Override
      public void putIfAbsent(Path path, byte[] bytes) throws IOException {
        S3PutIfAbsent.put(fs, path, bytes);
      }

      @Override
      public Optional<byte[]> read(Path path) throws IOException {
        try (InputStream in = fs.open(path)) {
          return Optional.of(in.readAllBytes());
        } catch (FileNotFoundException e) {
          return Optional.empty();
        }
      }
    };
  }

  private static void delete(FileSystem fs, Path probe) {
    try {
      fs.delete(probe, false);
    } catch (IOException | RuntimeException e) {
      LOG.warn("could not delete the conditional-write probe {}; it is safe to delete by hand: {}", probe,
          e.toString());
    }
  }
}
