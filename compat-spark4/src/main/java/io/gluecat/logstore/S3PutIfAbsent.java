package io.gluecat.logstore;

import java.io.IOException;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The conditional PUT on Hadoop 3.4.2 and 3.5 (the Spark 4 lines): S3A's conditional create (HADOOP-19256),
 * which sends {@code If-None-Match: *} and turns S3's 412 into a {@code RemoteFileChangedException} whose
 * cause carries the status. A file system without the option (not S3A, or a Hadoop before 3.4.2) refuses the
 * mandatory option, and S3A with {@code fs.s3a.create.conditional.enabled=false} refuses the create: either
 * way no commit is written unconditionally.
 */
final class S3PutIfAbsent {
  /** S3A's createFile option for If-None-Match: * (Options.CreateFileOptionKeys in Hadoop 3.4.2). */
  static final String CONDITIONAL_OVERWRITE = "fs.option.create.conditional.overwrite";

  private S3PutIfAbsent() {}

  /**
   * Why this Hadoop's S3A cannot make the conditional PUT, for the start-up log; empty where it can. The Spark 4
   * lines run on Hadoop 3.4 or later: only 3.4.0 and 3.4.1 (Spark 4.0's) lack the option.
   */
  static java.util.Optional<String> unavailable() {
    String version = org.apache.hadoop.util.VersionInfo.getVersion();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("^3\\.4\\.([01])(\\D|$)").matcher(version);
    return m.find() ? java.util.Optional.of("S3A's conditional create, which it needs, came with Hadoop 3.4.2; "
        + "this is Hadoop " + version) : java.util.Optional.empty();
  }

  static void put(FileSystem fs, Path path, byte[] bytes) throws IOException {
    FSDataOutputStream out;
    try {
      out = (FSDataOutputStream) fs.createFile(path).overwrite(true).must(CONDITIONAL_OVERWRITE, true).build();
    } catch (IllegalArgumentException | UnsupportedOperationException e) {
      // Spark 4.0 ships Hadoop 3.4.1, whose S3A lacks the option: name the Hadoop found, not only the one needed
      throw new IOException(String.format("%s has no conditional create (%s, Hadoop 3.4.2 and later's S3A; this is "
          + "Hadoop %s): %s; %s needs it", fs.getUri(), CONDITIONAL_OVERWRITE,
          org.apache.hadoop.util.VersionInfo.getVersion(), e.getMessage(), ConditionalLogStore.class.getName()), e);
    }
    try (FSDataOutputStream stream = out) {
      stream.write(bytes);
    }
  }
}
