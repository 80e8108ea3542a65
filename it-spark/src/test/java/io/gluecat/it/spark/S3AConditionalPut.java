package io.gluecat.it.spark;

import org.apache.hadoop.util.VersionInfo;

/**
 * Whether this row's S3A can make ConditionalLogStore's conditional PUT: Hadoop 3.3 through S3A's SDK v1 client,
 * Hadoop 3.4.2 and later through S3A's conditional create. Spark 4.0's Hadoop 3.4.1 has neither (the 4.0 row's
 * known limit: the store refuses every commit there), so the suites that race writers through it pin the refusal
 * on that row instead.
 */
public final class S3AConditionalPut {
  private S3AConditionalPut() {}

  public static boolean available() {
    int[] v = java.util.Arrays.stream(VersionInfo.getVersion().split("[.-]")).limit(3)
        .mapToInt(Integer::parseInt).toArray();
    return v[0] == 3 && (v[1] == 3 || v[1] > 4 || (v[1] == 4 && v[2] >= 2));
  }

  /** The start of the store's refusal on this S3A, for bucket {@code bucket}. */
  public static String refusal(String bucket) {
    return "s3a://" + bucket + " has no conditional create (fs.option.create.conditional.overwrite, Hadoop 3.4.2 "
        + "and later's S3A; this is Hadoop " + VersionInfo.getVersion() + ")";
  }

  /** Why a case of writers racing through the store is a known limit on this row; empty where it is not. */
  public static String limit() {
    return available() ? "" : "ConditionalLogStore refuses every commit on Hadoop " + VersionInfo.getVersion()
        + "'s S3A (S3A's conditional create came with Hadoop 3.4.2), with an error naming both; nothing is written. "
        + "On this row keep one writing application per Delta table (docs/operations.md)";
  }
}
