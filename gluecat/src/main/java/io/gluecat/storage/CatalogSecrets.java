package io.gluecat.storage;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The secret-bearing Hadoop settings of each catalog in this JVM, found by reference instead of travelling
 * with tables. A catalog registers them under a reference ({@code <catalog>#<instance>}) that its tables
 * carry as {@code fs.s3a.gluecat.ref}; gluecat's S3A credentials provider resolves S3A's keys through it.
 *
 * <p>In a JVM where the catalog never started (an executor), the reference's catalog name leads to the
 * catalog's options in the Spark configuration every executor receives
 * ({@code spark.sql.catalog.<name>.hadoop.<key>}), which holds them when they were set when the
 * application started.
 */
public final class CatalogSecrets {
  private static final Map<String, Map<String, String>> REGISTERED = new ConcurrentHashMap<>();

  private CatalogSecrets() {}

  public static void register(String ref, Map<String, String> secrets) {
    REGISTERED.put(ref, Map.copyOf(secrets));
  }

  /** A secret setting of the catalog behind {@code ref}, or empty when it has none. */
  public static Optional<String> get(String ref, String key) {
    Map<String, String> registered = REGISTERED.get(ref);
    if (registered != null) {
      return Optional.ofNullable(registered.get(key));
    }
    String catalog = ref.contains("#") ? ref.substring(0, ref.indexOf('#')) : ref;
    org.apache.spark.SparkEnv env = org.apache.spark.SparkEnv.get();
    if (env == null) {
      return Optional.empty();
    }
    scala.Option<String> value = env.conf().getOption("spark.sql.catalog." + catalog + ".hadoop." + key);
    return value.isDefined() ? Optional.of(value.get()) : Optional.empty();
  }
}
