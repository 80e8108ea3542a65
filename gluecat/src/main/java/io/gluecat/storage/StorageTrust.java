package io.gluecat.storage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The trust boundary between a catalog and the entries it reads. How storage is reached (endpoints,
 * credentials, file system classes, any Hadoop setting) is decided by the catalog's own configuration, never
 * by an entry: anyone who may update one Glue entry could otherwise point other tables' reads in the same
 * bucket at another endpoint (Hadoop caches one FileSystem per scheme and bucket), or choose classes the
 * reader loads. And settings that carry secrets never travel with a table, so they cannot show wherever
 * Spark prints a table's options.
 */
public final class StorageTrust {
  /** Hadoop setting families: an entry's options under these prefixes are ignored. */
  private static final List<String> HADOOP_PREFIXES = List.of("fs.", "dfs.", "hadoop.", "yarn.", "mapreduce.",
      "mapred.", "ipc.", "io.", "net.", "security.", "spark.hadoop.", "file.", "ha.");
  /** Words that mark a setting as carrying a secret (keys, passwords, tokens). */
  private static final Set<String> SECRET_WORDS = Set.of("key", "secret", "password", "passwd", "token",
      "private", "sas", "passphrase");
  /** A setting whose last word is one of these names a class or a kind, not a secret. */
  private static final Set<String> CLASS_WORDS = Set.of("provider", "type", "impl", "class", "classes", "factory");
  private static final Pattern WORD = Pattern.compile("[.\\-_]");

  private StorageTrust() {}

  /** Whether a Hadoop setting carries a secret, whatever file system it is for. */
  public static boolean isSecret(String key) {
    String[] words = WORD.split(key.toLowerCase(Locale.ROOT));
    if (words.length > 0 && CLASS_WORDS.contains(words[words.length - 1])) {
      return false;
    }
    for (String word : words) {
      if (SECRET_WORDS.contains(word)) {
        return true;
      }
    }
    return false;
  }

  /** Option words that make the reader load a class the option names. */
  private static final Set<String> CODE_WORDS = Set.of("provider", "impl", "class", "classes", "factory");

  /**
   * Whether an option names a Hadoop setting, which only the catalog may decide, or a class for the reader
   * to load (such as {@code parquet.crypto.factory.class}).
   */
  public static boolean decidesStorage(String key) {
    String lower = key.toLowerCase(Locale.ROOT);
    String[] words = WORD.split(lower);
    if (words.length > 1 && CODE_WORDS.contains(words[words.length - 1])) {
      return true;
    }
    for (String prefix : HADOOP_PREFIXES) {
      if (lower.startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** An entry's data source options without the ones that would decide how storage is reached. */
  public static Map<String, String> entryOptions(Map<String, String> options, Set<String> ignored) {
    Map<String, String> kept = new LinkedHashMap<>();
    options.forEach((k, v) -> {
      if (decidesStorage(k)) {
        ignored.add(k);
      } else {
        kept.put(k, v);
      }
    });
    return kept;
  }

  /** The Hadoop-setting keys among options, for a message that names them (never their values). */
  public static Set<String> storageKeys(Map<String, String> options) {
    Set<String> keys = new TreeSet<>();
    options.keySet().stream().filter(StorageTrust::decidesStorage).forEach(keys::add);
    return keys;
  }
}
