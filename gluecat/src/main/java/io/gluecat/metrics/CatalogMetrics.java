package io.gluecat.metrics;

import com.codahale.metrics.Counter;
import com.codahale.metrics.MetricRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkEnv;
import org.apache.spark.metrics.MetricsSystem;

/**
 * The metrics of one catalog name, as a Dropwizard registry that Spark's metrics system publishes under the
 * source name {@code gluecat.<catalog>} on the driver, so every sink users configure (JMX, Prometheus servlet,
 * CSV, console) shows them as {@code <app>.driver.gluecat.<catalog>.<name>}. Per Glue and STS operation:
 * {@code <Operation>.calls}, {@code .retries} (attempts beyond the first), {@code .throttles} (attempts the
 * service throttled), {@code .latency} (a timer of whole calls, retries included) and
 * {@code .failures.<ErrorCode>} (calls that failed, by AWS error code); and {@code cache.hits} and
 * {@code cache.misses} of the metadata cache. Names hold operation names and error codes only, never a database,
 * table, key or value.
 *
 * <p>One instance per catalog name and Spark application ({@link #forCatalog}): a catalog initialized again
 * under the same name (another session, a new CatalogManager) counts into the same source. Spark's
 * {@code MetricsSystem} would refuse the second registration of a name (it logs and keeps the first), and its
 * {@code removeSource} removes every metric whose name starts with the source's, so removing
 * {@code gluecat.glue} would also remove {@code gluecat.glue2}'s: sharing the one source avoids both.
 */
public final class CatalogMetrics {
  /** Source name prefix: {@code gluecat.<catalog>}. */
  public static final String SOURCE_PREFIX = "gluecat.";

  private static final Map<MetricsSystem, Map<String, CatalogMetrics>> REGISTERED = new WeakHashMap<>();

  private final String sourceName;
  private final MetricRegistry registry = new MetricRegistry();
  private final Counter cacheHits;
  private final Counter cacheMisses;

  /** Metrics that no metrics system publishes (no Spark driver here, or tests). */
  public CatalogMetrics(String catalog) {
    this.sourceName = SOURCE_PREFIX + sanitize(catalog);
    this.cacheHits = registry.counter("cache.hits");
    this.cacheMisses = registry.counter("cache.misses");
  }

  /**
   * The metrics of the catalog named {@code catalog}, registered with the running driver's metrics system on
   * first use; not registered anywhere outside a Spark driver (on an executor, or without Spark).
   */
  public static CatalogMetrics forCatalog(String catalog) {
    SparkEnv env = SparkEnv.get();
    if (env == null || !"driver".equals(env.executorId())) {
      return new CatalogMetrics(catalog);
    }
    MetricsSystem system = env.metricsSystem();
    synchronized (REGISTERED) {
      Map<String, CatalogMetrics> byName = REGISTERED.computeIfAbsent(system, s -> new HashMap<>());
      CatalogMetrics existing = byName.get(SOURCE_PREFIX + sanitize(catalog));
      if (existing != null) {
        return existing;
      }
      CatalogMetrics metrics = new CatalogMetrics(catalog);
      system.registerSource(new SparkSource(metrics.sourceName, metrics.registry));
      byName.put(metrics.sourceName, metrics);
      return metrics;
    }
  }

  /**
   * A name part as metrics sinks take it: letters, digits, {@code _} and {@code -}; anything else (dots, which
   * separate a name's parts, spaces, quotes) becomes {@code _}.
   */
  public static String sanitize(String part) {
    if (part == null || part.isEmpty()) {
      return "unknown";
    }
    StringBuilder b = new StringBuilder(part.length());
    for (int i = 0; i < part.length() && i < 64; i++) {
      char c = part.charAt(i);
      b.append((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
          ? c : '_');
    }
    return b.toString();
  }

  /** {@code gluecat.<catalog>}, the name the sinks show after {@code <app>.driver.}. */
  public String sourceName() {
    return sourceName;
  }

  /** The registry behind the source (what Spark's sinks read). */
  public MetricRegistry registry() {
    return registry;
  }

  /** One finished call of {@code operation}: how long it took in all, and its retried and throttled attempts. */
  public void call(String operation, long nanos, int retries, int throttles) {
    String op = sanitize(operation);
    registry.counter(op + ".calls").inc();
    registry.counter(op + ".retries").inc(retries);
    registry.counter(op + ".throttles").inc(throttles);
    if (nanos >= 0) {
      registry.timer(op + ".latency").update(nanos, TimeUnit.NANOSECONDS);
    }
  }

  /** A call of {@code operation} that failed, with the AWS error code (or the client-side failure's name). */
  public void failure(String operation, String errorCode) {
    registry.counter(sanitize(operation) + ".failures." + sanitize(errorCode)).inc();
  }

  /** A read the metadata cache answered without Glue. */
  public void cacheHit() {
    cacheHits.inc();
  }

  /** A read the metadata cache sent to Glue. */
  public void cacheMiss() {
    cacheMisses.inc();
  }

  /** Spark's view of the metrics: its {@code Source} (private to Spark in Scala, a public interface in bytecode). */
  private static final class SparkSource implements org.apache.spark.metrics.source.Source {
    private final String name;
    private final MetricRegistry registry;

    SparkSource(String name, MetricRegistry registry) {
      this.name = name;
      this.registry = registry;
    }

    @Override
    public String sourceName() {
      return name;
    }

    @Override
    public MetricRegistry metricRegistry() {
      return registry;
    }
  }
}
