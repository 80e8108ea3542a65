package io.gluecat.logstore;

import com.amazonaws.AmazonServiceException;
import com.amazonaws.SdkClientException;
import com.amazonaws.services.s3.AmazonS3;
import com.amazonaws.services.s3.model.ObjectMetadata;
import com.amazonaws.services.s3.model.PutObjectRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.s3a.S3AFileSystem;

/**
 * The conditional PUT on Hadoop 3.3 (the Spark 3.5 line), whose S3A has no conditional create: one
 * {@code PutObject} with {@code If-None-Match: *} through S3A's own SDK v1 client for the bucket, so with the
 * credentials, endpoint, region and retries S3A uses there (a catalog's per-bucket settings included).
 * S3's refusal reaches the caller as an {@link IOException} whose cause is the SDK's exception with its status.
 *
 * <p>What needs hadoop-aws and the SDK is in {@link ThroughS3A}, loaded only by a PUT: the start-up log and
 * {@code gluecat doctor} ask {@link #unavailable()} in applications without hadoop-aws too, where loading a
 * class that names S3A's or the SDK's classes fails with NoClassDefFoundError.
 */
final class S3PutIfAbsent {

  private S3PutIfAbsent() {}

  /** Empty: S3A's SDK v1 client, which the PUT goes through, is there on every Hadoop 3.3. */
  static java.util.Optional<String> unavailable() {
    return java.util.Optional.empty();
  }

  static void put(FileSystem fs, Path path, byte[] bytes) throws IOException {
    ThroughS3A.put(fs, path, bytes);
  }

  private static final class ThroughS3A {
    private static final Map<S3AFileSystem, AmazonS3> CLIENTS = Collections.synchronizedMap(new WeakHashMap<>());

    static void put(FileSystem fs, Path path, byte[] bytes) throws IOException {
      if (!(fs instanceof S3AFileSystem)) {
        throw new IOException(String.format("%s is not S3A (%s): %s writes commits with S3's conditional PUT only",
            fs.getUri(), fs.getClass().getName(), ConditionalLogStore.class.getName()));
      }
      S3AFileSystem s3a = (S3AFileSystem) fs;
      // S3A logs a warning each time its client is handed out, so it is asked once per file system
      AmazonS3 s3 = CLIENTS.computeIfAbsent(s3a, fs3a -> fs3a.getAmazonS3ClientForTesting(
          "gluecat conditional commits (io.gluecat.logstore.ConditionalLogStore)"));
      String key = s3a.pathToKey(s3a.makeQualified(path));
      ObjectMetadata metadata = new ObjectMetadata();
      metadata.setContentLength(bytes.length);
      metadata.setContentType("application/octet-stream");
      PutObjectRequest request = new PutObjectRequest(s3a.getBucket(), key, new ByteArrayInputStream(bytes), metadata);
      request.putCustomRequestHeader("If-None-Match", "*");
      try {
        s3.putObject(request);
      } catch (AmazonServiceException e) {
        throw new IOException(String.format("PUT %s with If-None-Match: * answered %d %s", path, e.getStatusCode(),
            e.getErrorCode()), e);
      } catch (SdkClientException e) {
        throw new IOException("PUT " + path + " with If-None-Match: * failed: " + e.getMessage(), e);
      }
    }
  }
}
