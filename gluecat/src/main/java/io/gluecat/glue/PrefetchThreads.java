package io.gluecat.glue;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The threads a catalog reads a statement's entries with at once ({@link GlueGateway#prefetchTables}). */
final class PrefetchThreads {
  private PrefetchThreads() {}

  /**
   * Up to {@code threads} daemon threads named after the catalog. Idle threads end after a while: a catalog that
   * plans one statement an hour keeps none.
   */
  static ThreadPoolExecutor pool(String catalog, int threads) {
    AtomicInteger made = new AtomicInteger();
    ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "gluecat-" + catalog + "-prefetch-" + made.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
    pool.allowCoreThreadTimeOut(true);
    return pool;
  }
}
