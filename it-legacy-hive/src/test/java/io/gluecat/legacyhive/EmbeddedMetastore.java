package io.gluecat.legacyhive;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import org.apache.hadoop.hive.conf.HiveConf;
import org.apache.hadoop.hive.metastore.HiveMetaStore;
import org.apache.hadoop.hive.metastore.HiveMetaStoreClient;
import org.apache.hadoop.hive.shims.ShimLoader;

/**
 * A Hive 2.3 metastore server (Hive's own {@code HiveMetaStore} on an embedded Derby database) running in
 * this JVM on a loopback port. Spark's Hive client reaches it over Thrift ({@code hive.metastore.uris}), as
 * it reaches any remote metastore; the bridge reads and writes it with a {@link HiveMetaStoreClient} of its
 * own. One per JVM; it lives until the JVM exits (the server thread is a daemon).
 */
final class EmbeddedMetastore {
  private final int port;
  private final HiveConf conf;

  private EmbeddedMetastore(int port, HiveConf conf) {
    this.port = port;
    this.conf = conf;
  }

  static EmbeddedMetastore start(Path dir) {
    int port = freePort();
    HiveConf conf = new HiveConf();
    conf.set("javax.jdo.option.ConnectionURL",
        "jdbc:derby:;databaseName=" + dir.resolve("metastore_db").toAbsolutePath() + ";create=true");
    conf.set("javax.jdo.option.ConnectionDriverName", "org.apache.derby.jdbc.EmbeddedDriver");
    conf.set("datanucleus.schema.autoCreateAll", "true");
    conf.set("hive.metastore.schema.verification", "false");
    conf.set("hive.metastore.warehouse.dir", dir.resolve("warehouse").toUri().toString());
    conf.set("hive.metastore.rawstore.impl", BridgeObjectStore.class.getName());
    // The Glue client adds no file statistics to a table; Hive's metastore would (numFiles, totalSize...).
    conf.set("hive.stats.autogather", "false");
    conf.set("hive.metastore.disallow.incompatible.col.type.changes", "false");
    conf.set("hive.metastore.uris", "thrift://127.0.0.1:" + port);
    System.setProperty("derby.stream.error.file", dir.resolve("derby.log").toString());
    Thread server = new Thread(() -> {
      try {
        HiveMetaStore.startMetaStore(port, ShimLoader.getHadoopThriftAuthBridge(), new HiveConf(conf));
      } catch (Throwable t) {
        System.err.println("embedded Hive metastore stopped: " + t);
        t.printStackTrace();
      }
    }, "embedded-hive-metastore");
    server.setDaemon(true);
    server.start();
    long deadline = System.nanoTime() + 120_000_000_000L;
    while (true) {
      try (Socket s = new Socket()) {
        s.connect(new InetSocketAddress("127.0.0.1", port), 500);
        break;
      } catch (IOException e) {
        if (!server.isAlive() || System.nanoTime() > deadline) {
          throw new IllegalStateException("the embedded Hive metastore did not start on port " + port
              + " (see the test output for its error)", e);
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException(ie);
        }
      }
    }
    return new EmbeddedMetastore(port, conf);
  }

  String uri() {
    return "thrift://127.0.0.1:" + port;
  }

  /** A new Thrift client of this metastore (close it). */
  HiveMetaStoreClient client() {
    try {
      return new HiveMetaStoreClient(new HiveConf(conf));
    } catch (Exception e) {
      throw new IllegalStateException("could not connect to the embedded Hive metastore at " + uri(), e);
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
