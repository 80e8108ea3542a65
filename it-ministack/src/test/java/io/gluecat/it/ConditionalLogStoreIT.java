package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.delta.storage.LogStore;
import io.gluecat.it.spark.MiniStackSparkTest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.spark.SparkEnv;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * {@code io.gluecat.logstore.ConditionalLogStore} on MiniStack's S3 through S3A (SDK v1 conditional PUT on
 * Hadoop 3.3, S3A's conditional create on 3.4.2 and 3.5): a second writer of a version is refused and the
 * first commit stays intact, overwrites replace, a retry of one's own commit succeeds, a race of store
 * instances has one winner, and Delta appends from several sessions and threads all land through it.
 *
 * <p>The stores here are separate instances in one JVM. Delta's default S3SingleDriverLogStore serialises
 * writers of one JVM (a JVM-wide lock and cache of written paths), so threads in one JVM cannot show its loss;
 * MultiWriterIT races writers in separate JVMs.
 */
class ConditionalLogStoreIT extends MiniStackSparkTest {
  static final String STORE = "io.gluecat.logstore.ConditionalLogStore";
  static final String S3A_KEY = "spark.delta.logStore.s3a.impl";

  @AfterAll
  static void restoreDeltasStore() {
    SparkEnv.get().conf().remove(S3A_KEY);
  }

  private static Configuration conf() {
    return spark().sparkContext().hadoopConfiguration();
  }

  private static LogStore newStore() throws ReflectiveOperationException {
    return (LogStore) Class.forName(STORE).getConstructor(Configuration.class).newInstance(conf());
  }

  private static String read(String bucket, String key) {
    try (S3Client s3 = MINISTACK.s3()) {
      return s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asUtf8String();
    }
  }

  private static List<String> keys(String bucket, String prefix) {
    try (S3Client s3 = MINISTACK.s3()) {
      return s3.listObjectsV2Paginator(r -> r.bucket(bucket).prefix(prefix)).contents().stream()
          .map(S3Object::key).sorted().collect(Collectors.toList());
    }
  }

  static boolean conditionalPut() {
    return io.gluecat.it.spark.S3AConditionalPut.available();
  }

  private static void assumeConditionalPut() {
    org.junit.jupiter.api.Assumptions.assumeTrue(conditionalPut(), "Hadoop "
        + org.apache.hadoop.util.VersionInfo.getVersion() + "'s S3A has no conditional create (Hadoop 3.4.2 and "
        + "later); onHadoopWithoutConditionalCreateEveryCommitIsRefusedAndNothingIsWritten covers this row");
  }

  @Test
  void onHadoopWithoutConditionalCreateEveryCommitIsRefusedAndNothingIsWritten() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeFalse(conditionalPut(), "this S3A has a conditional PUT (tests above)");
    String bucket = newS3ABucket(MINISTACK);
    Path commit = new Path("s3a://" + bucket + "/t/_delta_log/00000000000000000000.json");
    IOException e = assertThrows(IOException.class,
        () -> newStore().write(commit, List.of("{\"first\":1}").iterator(), false, conf()));
    assertTrue(e.getMessage().contains(io.gluecat.it.spark.S3AConditionalPut.refusal(bucket)), e.getMessage());
    assertTrue(e.getMessage().endsWith(STORE + " needs it"), e.getMessage());
    // no commit written unconditionally, and the probe left nothing either
    assertEquals(List.of(), keys(bucket, "t/").stream().filter(k -> !k.endsWith("/")).collect(Collectors.toList()));
  }

  @Test
  void aSecondWriteOfTheVersionIsRefusedAndTheFirstCommitStaysIntact() throws Exception {
    assumeConditionalPut();
    String bucket = newS3ABucket(MINISTACK);
    Path commit = new Path("s3a://" + bucket + "/t/_delta_log/00000000000000000000.json");
    newStore().write(commit, List.of("{\"first\":1}", "{\"line\":2}").iterator(), false, conf());
    assertEquals("{\"first\":1}\n{\"line\":2}\n", read(bucket, "t/_delta_log/00000000000000000000.json"));

    assertThrows(FileAlreadyExistsException.class,
        () -> newStore().write(commit, List.of("{\"second\":1}").iterator(), false, conf()));
    assertEquals("{\"first\":1}\n{\"line\":2}\n", read(bucket, "t/_delta_log/00000000000000000000.json"));
    // the probe is gone (S3A's delete of it may leave the directory marker t/_delta_log/, as Delta's mkdirs would)
    assertEquals(List.of("t/_delta_log/00000000000000000000.json"),
        keys(bucket, "t/").stream().filter(k -> !k.endsWith("/")).collect(Collectors.toList()));
  }

  @Test
  void aRetryOfOnesOwnCommitIsSuccess() throws Exception {
    assumeConditionalPut();
    String bucket = newS3ABucket(MINISTACK);
    Path commit = new Path("s3a://" + bucket + "/t/_delta_log/00000000000000000003.json");
    LogStore store = newStore();
    store.write(commit, List.of("{\"ours\":1}").iterator(), false, conf());
    // the same bytes again, as a PUT retried after its answer was lost meets S3's 412
    store.write(commit, List.of("{\"ours\":1}").iterator(), false, conf());
    assertEquals("{\"ours\":1}\n", read(bucket, "t/_delta_log/00000000000000000003.json"));
  }

  @Test
  void overwriteReplaces() throws Exception {
    String bucket = newS3ABucket(MINISTACK);
    Path last = new Path("s3a://" + bucket + "/t/_delta_log/_last_checkpoint");
    newStore().write(last, List.of("{\"version\":10}").iterator(), true, conf());
    newStore().write(last, List.of("{\"version\":20}").iterator(), true, conf());
    assertEquals("{\"version\":20}\n", read(bucket, "t/_delta_log/_last_checkpoint"));
    assertFalse(newStore().isPartialWriteVisible(last, conf()));
  }

  @Test
  void ofStoresRacingForOneVersionExactlyOneWins() throws Exception {
    assumeConditionalPut();
    String bucket = newS3ABucket(MINISTACK);
    Path commit = new Path("s3a://" + bucket + "/t/_delta_log/00000000000000000007.json");
    newStore().write(new Path("s3a://" + bucket + "/t/_delta_log/00000000000000000006.json"),
        List.of("{}").iterator(), false, conf()); // the bucket's probe, before the race
    int writers = 6;
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(writers);
    List<Future<String>> outcomes = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      LogStore store = newStore();
      String line = "{\"writer\":" + w + "}";
      outcomes.add(pool.submit(() -> {
        start.await();
        try {
          store.write(commit, List.of(line).iterator(), false, conf());
          return line;
        } catch (FileAlreadyExistsException e) {
          return "refused";
        }
      }));
    }
    start.countDown();
    List<String> results = new ArrayList<>();
    for (Future<String> f : outcomes) {
      results.add(f.get(120, TimeUnit.SECONDS));
    }
    pool.shutdown();
    List<String> winners = results.stream().filter(r -> !r.equals("refused")).collect(Collectors.toList());
    assertEquals(1, winners.size(), results.toString());
    assertEquals(winners.get(0) + "\n", read(bucket, "t/_delta_log/00000000000000000007.json"));
  }

  @Test
  void deltaAppendsFromSeveralSessionsAllLandThroughTheStore() throws Exception {
    assumeConditionalPut();
    SparkEnv.get().conf().set(S3A_KEY, STORE);
    String bucket = newS3ABucket(MINISTACK);
    String path = "s3a://" + bucket + "/delta/shared";
    spark().sql("CREATE TABLE delta.`" + path + "` (writer INT, n INT) USING delta");
    assertEquals(STORE, storeOf(path));

    int threads = 4;
    int appends = 2;
    SparkSession second = spark().newSession();
    CountDownLatch start = new CountDownLatch(1);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<?>> writers = new ArrayList<>();
    List<String> failures = Collections.synchronizedList(new ArrayList<>());
    for (int w = 0; w < threads; w++) {
      SparkSession session = w % 2 == 0 ? spark() : second;
      int writer = w;
      writers.add(pool.submit(() -> {
        SparkSession.setActiveSession(session);
        start.await();
        for (int i = 0; i < appends; i++) {
          try {
            session.sql("INSERT INTO delta.`" + path + "` VALUES (" + writer + ", " + i + ")").collectAsList();
          } catch (RuntimeException e) {
            failures.add(writer + "/" + i + ": " + e);
          }
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : writers) {
      f.get(300, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertEquals(List.of(), failures);
    assertEquals(threads * appends, spark().sql("SELECT * FROM delta.`" + path + "`").count());
    List<String> commits = keys(bucket, "delta/shared/_delta_log/").stream().filter(k -> k.endsWith(".json"))
        .collect(Collectors.toList());
    assertEquals(1 + threads * appends, commits.size(), commits.toString());
    assertTrue(keys(bucket, "delta/shared/").stream().noneMatch(k -> k.contains("_gluecat_conditional_probe_")));
  }

  /** The log store Delta resolved for the table's path: the class inside its DelegatingLogStore's adaptor. */
  private static String storeOf(String path) throws ReflectiveOperationException {
    Object log = Class.forName("org.apache.spark.sql.delta.DeltaLog")
        .getMethod("forTable", SparkSession.class, String.class).invoke(null, spark(), path);
    Object store = log.getClass().getMethod("store").invoke(log);
    Object delegate = store.getClass().getMethod("getDelegate", Path.class).invoke(store, new Path(path));
    Object impl = delegate.getClass().getMethod("logStoreImpl").invoke(delegate);
    return impl.getClass().getName();
  }
}
