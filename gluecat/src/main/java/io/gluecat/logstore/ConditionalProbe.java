package io.gluecat.logstore;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.hadoop.fs.Path;

/**
 * Whether an S3 endpoint honours {@code If-None-Match: *}, found once per bucket and JVM before the first
 * commit there: a probe object under the table's {@code _delta_log} is put conditionally twice, with other
 * bytes the second time. An endpoint that keeps the first bytes and refuses the second PUT honours the
 * condition; one that accepts it (an S3-compatible store or proxy that ignores the header) would let commits
 * overwrite each other silently, so every commit to that bucket is refused instead, naming the setting.
 * The probe object is deleted afterwards. {@link ConditionalLogStore#PROBE} {@code =false} skips the probe.
 */
final class ConditionalProbe {
  static final String PROBE_PREFIX = "_gluecat_conditional_probe_";
  private static final Map<String, Optional<String>> REFUSALS = new ConcurrentHashMap<>();

  private ConditionalProbe() {}

  /** Throws, naming the bucket, when its endpoint ignores the condition; probes only the first time. */
  static void check(String bucket, Path logDirectory, ConditionalCommit.Store store, Consumer<Path> delete)
      throws IOException {
    Optional<String> refusal = REFUSALS.get(bucket);
    if (refusal == null) {
      synchronized (ConditionalProbe.class) {
        refusal = REFUSALS.get(bucket);
        if (refusal == null) {
          refusal = probe(bucket, new Path(logDirectory, PROBE_PREFIX + UUID.randomUUID()), store, delete);
          REFUSALS.put(bucket, refusal);
        }
      }
    }
    if (refusal.isPresent()) {
      throw new IOException(refusal.get());
    }
  }

  /** The refusal's message when the endpoint overwrote the probe, else empty. */
  static Optional<String> probe(String bucket, Path probe, ConditionalCommit.Store store, Consumer<Path> delete)
      throws IOException {
    byte[] first = "first".getBytes(StandardCharsets.UTF_8);
    try {
      store.putIfAbsent(probe, first);
      boolean refused;
      try {
        store.putIfAbsent(probe, "second".getBytes(StandardCharsets.UTF_8));
        refused = false;
      } catch (IOException | RuntimeException e) {
        refused = true;
      }
      Optional<byte[]> kept = store.read(probe);
      if (refused && kept.isPresent() && java.util.Arrays.equals(kept.get(), first)) {
        return Optional.empty();
      }
      return Optional.of(String.format("Delta commits to %s are refused: its S3 endpoint ignored If-None-Match: * "
          + "(a second conditional PUT of %s %s), so concurrent commits could overwrite each other. Use an "
          + "endpoint with conditional writes, or Delta's own log store (remove spark.delta.logStore.<scheme>.impl="
          + "%s) with a single writer per table; %s=false skips this check (docs/operations.md, \"Several "
          + "writers on one table\")", bucket, probe, refused ? "was answered but overwrote the object" : "succeeded",
          ConditionalLogStore.class.getName(), ConditionalLogStore.PROBE));
    } finally {
      delete.accept(probe);
    }
  }

  /** Forgets what was found (tests). */
  static void reset() {
    REFUSALS.clear();
  }
}
