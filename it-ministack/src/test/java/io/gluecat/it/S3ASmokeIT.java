package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.MiniStack;
import java.io.IOException;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SaveMode;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * Spark reads and writes s3a:// paths on MiniStack's S3 with per-bucket S3A settings only (no global
 * fs.s3a.endpoint): the test infrastructure the end-to-end tests with S3 table locations build on.
 */
class S3ASmokeIT extends MiniStackSparkTest {

  private static Dataset<Row> events() {
    return spark().sql("SELECT id, CASE WHEN id % 2 = 0 THEN 'eu' ELSE 'us' END AS region, "
        + "concat('event-', id) AS name FROM range(0, 10)");
  }

  private static List<String> rows(Dataset<Row> data) {
    return data.orderBy("id").collectAsList().stream()
        .map(r -> r.getAs("id") + "," + r.getAs("region") + "," + r.getAs("name"))
        .collect(Collectors.toList());
  }

  private static List<String> keys(MiniStack ministack, String bucket, String prefix) {
    try (S3Client s3 = ministack.s3()) {
      return s3.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix)).contents().stream()
          .map(S3Object::key).sorted().collect(Collectors.toList());
    }
  }

  @Test
  void partitionedParquetRoundTrip() {
    String bucket = newS3ABucket(MINISTACK);
    String path = "s3a://" + bucket + "/warehouse/events";

    events().write().partitionBy("region").parquet(path);
    events().where("id < 3").write().mode(SaveMode.Append).partitionBy("region").parquet(path);

    Dataset<Row> read = spark().read().parquet(path);
    assertEquals(rows(events().union(events().where("id < 3"))), rows(read.select("id", "region", "name")));
    assertEquals(6, read.where("region = 'us'").count());
    // One partition's directory read on its own (the partition column is then not in the data).
    assertEquals(List.of(0L, 0L, 2L, 2L, 4L, 6L, 8L), spark().read().parquet(path + "/region=eu").orderBy("id")
        .collectAsList().stream().map(r -> r.<Long>getAs("id")).collect(Collectors.toList()));

    List<String> written = keys(MINISTACK, bucket, "warehouse/events/");
    assertTrue(written.contains("warehouse/events/_SUCCESS"), written.toString());
    assertTrue(written.stream().anyMatch(k -> k.startsWith("warehouse/events/region=eu/part-")), written.toString());
    assertTrue(written.stream().anyMatch(k -> k.startsWith("warehouse/events/region=us/part-")), written.toString());
    assertTrue(written.stream().noneMatch(k -> k.contains("_temporary")), written.toString());
  }

  @Test
  void deltaTableByPathRoundTrip() {
    String bucket = newS3ABucket(MINISTACK);
    String path = "s3a://" + bucket + "/delta/events";

    events().write().format("delta").partitionBy("region").save(path);
    spark().sql("INSERT INTO delta.`" + path + "` VALUES (10, 'eu', 'event-10')");
    spark().sql("DELETE FROM delta.`" + path + "` WHERE id = 1");

    List<String> expected = rows(events().where("id != 1")
        .union(spark().sql("SELECT 10L AS id, 'eu' AS region, 'event-10' AS name")));
    assertEquals(expected, rows(spark().sql("SELECT * FROM delta.`" + path + "`")));
    assertEquals(10, spark().sql("SELECT * FROM delta.`" + path + "` VERSION AS OF 0").count());
    assertEquals(3, spark().sql("DESCRIBE HISTORY delta.`" + path + "`").count());

    List<String> log = keys(MINISTACK, bucket, "delta/events/_delta_log/");
    assertTrue(log.containsAll(List.of("delta/events/_delta_log/00000000000000000000.json",
        "delta/events/_delta_log/00000000000000000001.json", "delta/events/_delta_log/00000000000000000002.json")),
        log.toString());
  }

  /** S3A's multipart upload (fs.s3a.multipart.size, 5 MB at least) and its read back in ranges. */
  @Test
  void multipartUploadAndRangedReads() throws IOException {
    String bucket = newS3ABucket(MINISTACK);
    spark().sparkContext().hadoopConfiguration().set("fs.s3a.bucket." + bucket + ".multipart.size", "5M");
    Path file = new Path("s3a://" + bucket + "/big/blob.bin");
    byte[] block = new byte[1 << 20];
    for (int i = 0; i < block.length; i++) {
      block[i] = (byte) i;
    }
    Configuration conf = spark().sparkContext().hadoopConfiguration();
    FileSystem fs = file.getFileSystem(conf);
    try (FSDataOutputStream out = fs.create(file, false)) {
      for (int i = 0; i < 12; i++) {
        block[0] = (byte) i;
        out.write(block);
      }
    }
    assertEquals(12L << 20, fs.getFileStatus(file).getLen());
    try (FSDataInputStream in = fs.open(file)) {
      byte[] read = new byte[4];
      in.readFully((7L << 20), read);
      assertArrayEquals(new byte[] {7, 1, 2, 3}, read);
      in.readFully((11L << 20) + 5, read);
      assertArrayEquals(new byte[] {5, 6, 7, 8}, read);
    }
    // The ETag of a multipart object is "<md5 of the parts' md5s>-<parts>".
    try (S3Client s3 = MINISTACK.s3()) {
      assertTrue(s3.headObject(r -> r.bucket(bucket).key("big/blob.bin")).eTag().endsWith("-3\""));
    }
    // create(overwrite=false) on an existing file is refused.
    assertThrows(org.apache.hadoop.fs.FileAlreadyExistsException.class, () -> fs.create(file, false).close());
    assertTrue(fs.rename(file, new Path("s3a://" + bucket + "/big/renamed.bin")));
    assertEquals(List.of("big/renamed.bin"), keys(MINISTACK, bucket, "big/"));
  }

  /** Two buckets on two MiniStack processes in one session, each by its own per-bucket settings. */
  @Test
  void bucketsOnTwoMiniStacksSideBySide() {
    try (MiniStack other = MiniStack.start()) {
      String here = newS3ABucket(MINISTACK);
      String there = newS3ABucket(other);
      events().write().parquet("s3a://" + here + "/in");
      spark().read().parquet("s3a://" + here + "/in").where("region = 'eu'").write().parquet("s3a://" + there + "/out");

      assertEquals(5, spark().read().parquet("s3a://" + there + "/out").count());
      assertFalse(keys(other, there, "out/").isEmpty());
      try (S3Client s3 = MINISTACK.s3()) {
        assertThrows(software.amazon.awssdk.services.s3.model.NoSuchBucketException.class,
            () -> s3.headBucket(r -> r.bucket(there)));
      }
    }
  }

  /**
   * A bucket without settings of its own gets S3A's defaults: AWS's endpoint and the default credential chain,
   * which has no credentials here, so S3A refuses before sending anything (with AWS keys in the environment,
   * AWS would refuse instead). Either way the error names the bucket and MiniStack's copy stays untouched.
   */
  @Test
  void bucketWithoutItsSettingsIsNotReached() {
    String configured = newS3ABucket(MINISTACK);
    String unconfigured = MINISTACK.createBucket(unique("s3a-bare").replace('_', '-'));
    events().write().parquet("s3a://" + configured + "/data");

    Exception e = assertThrows(Exception.class,
        () -> events().write().parquet("s3a://" + unconfigured + "/data"));
    Throwable s3aError = e;
    while (s3aError != null && !(s3aError instanceof IOException
        && String.valueOf(s3aError.getMessage()).startsWith("s3a://" + unconfigured + "/"))) {
      s3aError = s3aError.getCause();
    }
    assertNotNull(s3aError, () -> "no S3A error naming the bucket in " + e);
    assertEquals(List.of(), keys(MINISTACK, unconfigured, ""));
    assertEquals(10, spark().read().parquet("s3a://" + configured + "/data").count());
  }
}
