package io.gluecat.logstore;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.spark.SparkEnv;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which log store the application's Delta uses for S3 paths, resolved as Delta 3.3 and 4.4 resolve it
 * (LogStoreProvider, DelegatingLogStore): from the application's SparkConf, not the session's SQL settings;
 * {@code spark.delta.logStore.class} for every scheme if set, else {@code [spark.]delta.logStore.<scheme>.impl},
 * else Delta's default, S3SingleDriverLogStore for {@code s3}, {@code s3a} and {@code s3n}. The catalog's
 * start-up log and {@code gluecat doctor} report it and warn about the single-driver store.
 */
public final class DeltaLogStores {
  public static final String SINGLE_DRIVER = "io.delta.storage.S3SingleDriverLogStore";
  /** ConditionalLogStore's name, as a string: naming the class would load Delta's, which a session may lack. */
  static final String CONDITIONAL = "io.gluecat.logstore.ConditionalLogStore";
  private static final String LEGACY_SINGLE_DRIVER = "org.apache.spark.sql.delta.storage.S3SingleDriverLogStore";
  private static final List<String> SCHEMES = List.of("s3a", "s3");
  private static final Logger LOG = LoggerFactory.getLogger(DeltaLogStores.class);

  private DeltaLogStores() {}

  /** The store Delta creates for {@code scheme} under the given SparkConf. */
  static String resolve(Function<String, Optional<String>> sparkConf, String scheme) {
    Optional<String> forAll = sparkConf.apply("spark.delta.logStore.class");
    if (forAll.isPresent()) {
      return forAll.get().trim();
    }
    Optional<String> own = sparkConf.apply("spark.delta.logStore." + scheme + ".impl")
        .or(() -> sparkConf.apply("delta.logStore." + scheme + ".impl"));
    return own.map(String::trim).orElse(SINGLE_DRIVER);
  }

  /**
   * One line per S3 scheme: the store, and a warning when it keeps only writers of one JVM apart, or when it is
   * ConditionalLogStore and {@code conditionalMissing} says why this S3A cannot run it (Spark 4.0's Hadoop 3.4.1),
   * where the usual advice would only get every commit refused.
   */
  static List<String> describe(Function<String, Optional<String>> sparkConf, String catalog,
      Optional<String> conditionalMissing) {
    List<String> lines = new ArrayList<>();
    for (String scheme : SCHEMES) {
      String store = resolve(sparkConf, scheme);
      lines.add(String.format("catalog %s: Delta commits to %s:// locations use %s%s", catalog, scheme, store,
          note(scheme, store, conditionalMissing)));
    }
    return lines;
  }

  /** What a scheme's line adds after the store: the single-driver warning with its advice, or the refusal. */
  private static String note(String scheme, String store, Optional<String> conditionalMissing) {
    if (store.equals(SINGLE_DRIVER) || store.equals(LEGACY_SINGLE_DRIVER)) {
      String advice = conditionalMissing.map(why -> " " + CONDITIONAL + ", which keeps them apart, cannot run "
          + "here (" + why + "): keep to one writing application per table").orElse(" Set spark.delta.logStore."
          + scheme + ".impl=" + CONDITIONAL + " in every writer");
      return "; it keeps apart only writers in this JVM: another application or engine committing to the same "
          + "table can silently replace a commit." + advice + " (docs/operations.md, \"Several writers on one table\")";
    }
    if (store.equals(CONDITIONAL) && conditionalMissing.isPresent()) {
      return "; " + REFUSES + " (" + conditionalMissing.get() + "; docs/troubleshooting.md)";
    }
    return "";
  }

  private static final String REFUSES = "it refuses every commit on this S3A";

  /** The lines for the running application (empty without a SparkEnv). */
  public static List<String> describe(String catalog) {
    SparkEnv env = SparkEnv.get();
    if (env == null) {
      return List.of();
    }
    return describe(key -> env.conf().contains(key) ? Optional.of(env.conf().get(key)) : Optional.empty(), catalog,
        S3PutIfAbsent.unavailable());
  }

  /** Logs them: info for a conditional store, a warning for the single-driver one. */
  public static void log(String catalog) {
    try {
      for (String line : describe(catalog)) {
        if (line.contains(SINGLE_DRIVER) || line.contains(LEGACY_SINGLE_DRIVER) || line.contains(REFUSES)) {
          LOG.warn(line);
        } else {
          LOG.info(line);
        }
      }
    } catch (RuntimeException | LinkageError e) {
      LOG.debug("could not read the application's Delta log store settings", e);
    }
  }
}
