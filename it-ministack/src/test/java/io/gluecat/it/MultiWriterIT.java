package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import io.delta.storage.LogStore;
import io.gluecat.it.spark.MiniStackSparkTest;
import io.gluecat.testkit.S3HoldingProxy;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Issue #35: writers in separate JVMs (as separate Spark applications' drivers) commit the same version of one
 * table's log, through a proxy in front of MiniStack's S3 that holds their commit PUTs until all
 * {@value #WRITERS} are in flight. With Delta's default {@code S3SingleDriverLogStore} every writer "succeeds"
 * and the last PUT replaces the others' commits (the loss this issue is about); with gluecat's
 * {@code ConditionalLogStore} exactly one commits and the others are refused with FileAlreadyExistsException,
 * on which Delta would retry at the next version. The writers run Delta's log store in a plain JVM (no Spark,
 * to keep three JVMs affordable); the Spark path through the store is ConditionalLogStoreIT's.
 *
 * <p>Also: an endpoint that ignores If-None-Match (the proxy drops the header) is refused before any commit.
 */
class MultiWriterIT extends MiniStackSparkTest {
  static final int WRITERS = 3;
  static final String DELTAS_STORE = "io.delta.storage.S3SingleDriverLogStore";
  static final String GLUECATS_STORE = ConditionalLogStoreIT.STORE;

  private static S3HoldingProxy proxy;

  @BeforeAll
  static void startProxy() throws IOException {
    // every test races or faults the conditional store, which the 4.0 row's S3A (Hadoop 3.4.1) cannot run;
    // ConditionalLogStoreIT pins that refusal there
    org.junit.jupiter.api.Assumptions.assumeTrue(ConditionalLogStoreIT.conditionalPut(), "Hadoop "
        + org.apache.hadoop.util.VersionInfo.getVersion() + "'s S3A has no conditional create (Hadoop 3.4.2 and "
        + "later), so ConditionalLogStore refuses every commit here");
    proxy = new S3HoldingProxy(MINISTACK.endpoint());
  }

  @AfterAll
  static void stopProxy() {
    if (proxy != null) {
      proxy.close();
    }
  }

  /** The bucket's S3A settings with the proxy as its endpoint. */
  private static Map<String, String> throughProxy(String bucket) {
    Map<String, String> settings = MINISTACK.s3aSettings(bucket);
    String endpoint = "fs.s3a.bucket." + bucket + ".endpoint";
    assertTrue(settings.containsKey(endpoint), settings.keySet().toString());
    settings.put(endpoint, proxy.endpoint().toString());
    return settings;
  }

  private static String read(String bucket, String key) {
    try (S3Client s3 = MINISTACK.s3()) {
      return s3.getObjectAsBytes(r -> r.bucket(bucket).key(key)).asUtf8String();
    } catch (SdkException e) {
      return null;
    }
  }

  /** Starts WRITERS JVMs committing the same version with {@code store}; their RESULT lines, in writer order. */
  private static List<String> race(String store, String bucket, String key) throws Exception {
    return race(bucket, (w, settings) -> List.of(LogStoreWriter.class.getName(), store,
        "s3a://" + bucket + "/" + key, "{\"writer\":" + w + "}", settings));
  }

  /** Starts WRITERS JVMs, each running the main class and arguments {@code writer} gives; their RESULT lines. */
  private static List<String> race(String bucket, java.util.function.BiFunction<Integer, String, List<String>> writer)
      throws Exception {
    java.nio.file.Path settings = Files.createTempFile(scratch(), "writer", ".properties");
    Properties props = new Properties();
    props.putAll(throughProxy(bucket));
    try (OutputStream out = Files.newOutputStream(settings)) {
      props.store(out, null);
    }
    String java = System.getProperty("java.home") + "/bin/java";
    List<String> jvmOptions = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
        .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports")).collect(Collectors.toList());
    String race = unique("race");
    proxy.holdCommitPuts(WRITERS);
    List<Process> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      // the JIT's first tier only: a writer lives seconds, and on two cores C2's compiling only slows the race's start
      List<String> command = new ArrayList<>(List.of(java, "-Xmx512m", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
      command.addAll(jvmOptions);
      command.addAll(List.of("-cp", System.getProperty("java.class.path")));
      command.addAll(writer.apply(w, settings.toString()));
      java.nio.file.Path log = scratch().resolve(race + "-writer-" + w + ".log");
      writers.add(new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start());
    }
    List<String> results = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      Process p = writers.get(w);
      if (!p.waitFor(180, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
      java.nio.file.Path log = scratch().resolve(race + "-writer-" + w + ".log");
      List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
      results.add(lines.stream().filter(l -> l.startsWith("RESULT ")).map(l -> l.substring(7)).findFirst()
          .orElse("no result: " + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()))));
    }
    return results;
  }

  @Test
  void deltasDefaultStoreLosesCommitsAcrossJvmsAndTheConditionalStoreDoesNot() throws Exception {
    String bucket = newS3ABucket(MINISTACK);
    String key = "default/_delta_log/00000000000000000001.json";
    int before = proxy.commitPuts.get();
    List<String> results = race(DELTAS_STORE, bucket, key);
    assertEquals(WRITERS, proxy.commitPuts.get() - before, "every writer's PUT was held: " + results);
    // every writer believes it committed version 1, and only one of the commits is there
    assertEquals(List.of("committed", "committed", "committed"), results);
    String kept = read(bucket, key);
    assertNotNull(kept);
    assertEquals(1, List.of(0, 1, 2).stream().filter(w -> kept.equals("{\"writer\":" + w + "}\n")).count(), kept);

    String conditionalKey = "conditional/_delta_log/00000000000000000001.json";
    before = proxy.conditionalCommitPuts.get();
    results = race(GLUECATS_STORE, bucket, conditionalKey);
    assertEquals(WRITERS, proxy.conditionalCommitPuts.get() - before, "every writer's conditional PUT: " + results);
    List<Integer> winners = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      if (results.get(w).equals("committed")) {
        winners.add(w);
      } else {
        assertEquals("refused", results.get(w), results.toString());
      }
    }
    assertEquals(1, winners.size(), results.toString());
    assertEquals("{\"writer\":" + winners.get(0) + "}\n", read(bucket, conditionalKey));
  }

  @Test
  void anEndpointThatIgnoresIfNoneMatchIsRefusedBeforeAnyCommit() throws Exception {
    String bucket = newS3ABucket(MINISTACK);
    Configuration conf = new Configuration(spark().sparkContext().hadoopConfiguration());
    throughProxy(bucket).forEach(conf::set);
    proxy.dropIfNoneMatch(true);
    try {
      LogStore store = (LogStore) Class.forName(GLUECATS_STORE).getConstructor(Configuration.class)
          .newInstance(conf);
      String key = "t/_delta_log/00000000000000000000.json";
      IOException e = assertThrows(IOException.class,
          () -> store.write(new Path("s3a://" + bucket + "/" + key), List.of("{}").iterator(), false, conf));
      assertTrue(e.getMessage().contains("ignored If-None-Match"), e.getMessage());
      assertNull(read(bucket, key), "nothing was committed");
    } finally {
      proxy.dropIfNoneMatch(false);
    }
  }

  /**
   * Faults of the commit PUT through S3A (the proxy injects them): a PUT whose answer is lost after S3 applied
   * it (the SDK's retry meets 412 on our own bytes), a 409 ConditionalRequestConflict, a 503 SlowDown. Each ends
   * with the commit made exactly once, holding our bytes, and the write reported as a success.
   */
  @Test
  void faultsOfTheCommitPutEndWithTheCommitMadeOnce() throws Exception {
    String bucket = newS3ABucket(MINISTACK);
    Configuration conf = new Configuration(spark().sparkContext().hadoopConfiguration());
    throughProxy(bucket).forEach(conf::set);
    LogStore store = (LogStore) Class.forName(GLUECATS_STORE).getConstructor(Configuration.class).newInstance(conf);
    String[] faults = {"reset-after", "409", "503"};
    for (int v = 0; v < faults.length; v++) {
      String key = String.format("t/_delta_log/%020d.json", v);
      String line = "{\"version\":" + v + ",\"fault\":\"" + faults[v] + "\"}";
      int before = proxy.commitPuts.get();
      proxy.failCommitPuts(faults[v]);
      store.write(new Path("s3a://" + bucket + "/" + key), List.of(line).iterator(), false, conf);
      assertEquals(line + "\n", read(bucket, key), faults[v]);
      assertTrue(proxy.commitPuts.get() - before >= 2, faults[v] + ": the PUT was tried again");
    }
    // and another writer's commit of a version is still refused afterwards
    assertThrows(java.nio.file.FileAlreadyExistsException.class, () -> store.write(
        new Path("s3a://" + bucket + "/t/_delta_log/00000000000000000000.json"), List.of("{}").iterator(), false, conf));
  }

  /**
   * The case end to end: 3 Spark applications (JVMs of their own) append to one Delta table at once,
   * their commits of version 1 held by the proxy until all 3 are in flight. With ConditionalLogStore in every
   * application, S3 refuses two of the three PUTs of version 1 (which shows they raced), Delta retries them at
   * versions 2 and 3, and all 3 rows are there; with Delta's default store all 3 report success and the table
   * holds one row. Not part of {@code mvn verify}: it runs with {@code bin/bench --only races}
   * ({@code -Dgluecat.bench.races=true}), as the slow form (six Spark applications on two cores, about a minute
   * of both cores) of what every row checks with its own Delta: the log-store writers of
   * {@link #deltasDefaultStoreLosesCommitsAcrossJvmsAndTheConditionalStoreDoesNot} (Delta's loss, the store's
   * refusal, which Delta answers by retrying at the next version) and ConditionalLogStoreIT's appends from
   * several sessions through the store (every row lands).
   */
  @Test
  void sparkApplicationsAppendingAtOnceLoseRowsWithDeltasStoreAndNoneWithTheConditionalOne() throws Exception {
    org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean("gluecat.bench.races"),
        "the slow form, run by bin/bench --only races: the log-store writers and ConditionalLogStoreIT check the "
            + "same on this row");
    String bucket = newS3ABucket(MINISTACK);
    List<String> stores = List.of("default", GLUECATS_STORE);
    for (String store : stores) {
      String path = "s3a://" + bucket + "/" + (store.equals("default") ? "lossy" : "safe");
      spark().sql("CREATE TABLE delta.`" + path + "` (writer INT) USING delta");
      int refusedBefore = proxy.refusedCommitPuts.get();
      List<String> results = race(bucket, (w, settings) -> List.of(SparkAppendWriter.class.getName(), path,
          String.valueOf(w), settings, store));
      assertEquals(List.of("committed", "committed", "committed"), results, store);
      long rows = spark().read().format("delta").load(path).count();
      assertEquals(store.equals("default") ? 1 : WRITERS, rows, store + ": rows after 3 appends");
      if (!store.equals("default")) {
        int refused = proxy.refusedCommitPuts.get() - refusedBefore;
        assertTrue(refused >= WRITERS - 1, "S3 refused the losers' PUTs of version 1 (the three applications "
            + "raced for it), and any retry that raced again: " + refused);
      }
    }
  }
}
