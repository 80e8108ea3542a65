package io.gluecat.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * A small HTTP proxy in front of MiniStack's S3 (tests only). It can hold every PUT of a {@code _delta_log/*.json}
 * commit file until {@code hold} of them are in flight, then send them on together, so that writers in separate
 * JVMs race for one version for real; and it can drop {@code If-None-Match}, to play an S3-compatible endpoint
 * that ignores the header. Requests and answers are passed on byte for byte otherwise (MiniStack checks no
 * signatures, so the Host the client signed need not be kept). Used by it-ministack's MultiWriterIT (Spark
 * applications) and it-trino's TrinoCompatConcurrentWritersIT (Spark and a Trino server).
 */
public final class S3HoldingProxy implements AutoCloseable {
  private static final Pattern COMMIT = Pattern.compile(".*/_delta_log/\\d{20}\\.json");
  private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade",
      "transfer-encoding", "keep-alive", "te", "trailer", "proxy-connection");

  private final HttpServer server;
  private final URI target;
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private volatile boolean dropIfNoneMatch;
  private volatile CountDownLatch held = new CountDownLatch(0);
  private final java.util.Queue<String> faults = new java.util.concurrent.ConcurrentLinkedQueue<>();
  /** Commit PUTs that reached the proxy. */
  public final AtomicInteger commitPuts = new AtomicInteger();
  /** Commit PUTs with {@code If-None-Match}. */
  public final AtomicInteger conditionalCommitPuts = new AtomicInteger();
  /** Commit PUTs S3 answered with 412 Precondition Failed: the key existed, the writer lost the version. */
  public final AtomicInteger refusedCommitPuts = new AtomicInteger();

  /** A proxy for the S3 endpoint {@code target}, listening on a free port of 127.0.0.1 until closed. */
  public S3HoldingProxy(URI target) throws IOException {
    this.target = target;
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
    server.setExecutor(Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "s3-holding-proxy");
      t.setDaemon(true);
      return t;
    }));
    server.createContext("/", this::forward);
    server.start();
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Commit PUTs wait until this many are in flight (or 60 s pass), then go on together. */
  public void holdCommitPuts(int count) {
    held = new CountDownLatch(count);
  }

  /**
   * Faults for the next commit PUTs, one each: {@code reset-after} (passed on to S3, then the connection is
   * closed without an answer), {@code 409} (S3's ConditionalRequestConflict, not passed on), {@code 503}
   * (SlowDown, not passed on).
   */
  public void failCommitPuts(String... next) {
    faults.addAll(List.of(next));
  }

  /** Whether {@code If-None-Match} is left out of what is passed on. */
  public void dropIfNoneMatch(boolean drop) {
    dropIfNoneMatch = drop;
  }

  private void forward(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String path = exchange.getRequestURI().getRawPath();
      byte[] body;
      try (InputStream in = exchange.getRequestBody()) {
        body = in.readAllBytes();
      }
      HttpRequest.Builder request = HttpRequest.newBuilder(target.resolve(exchange.getRequestURI().toString()))
          .method(method, body.length == 0 ? HttpRequest.BodyPublishers.noBody()
              : HttpRequest.BodyPublishers.ofByteArray(body));
      boolean conditional = false;
      for (Map.Entry<String, List<String>> h : exchange.getRequestHeaders().entrySet()) {
        String name = h.getKey().toLowerCase(Locale.ROOT);
        if (RESTRICTED.contains(name)) {
          continue;
        }
        if (name.equals("if-none-match")) {
          conditional = true;
          if (dropIfNoneMatch) {
            continue;
          }
        }
        h.getValue().forEach(v -> request.header(h.getKey(), v));
      }
      if (method.equals("PUT") && COMMIT.matcher(path).matches()) {
        commitPuts.incrementAndGet();
        if (conditional) {
          conditionalCommitPuts.incrementAndGet();
        }
        CountDownLatch latch = held;
        latch.countDown();
        latch.await(60, TimeUnit.SECONDS);
        String fault = faults.poll();
        if ("409".equals(fault) || "503".equals(fault)) {
          byte[] error = ("<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
              + (fault.equals("409") ? "ConditionalRequestConflict" : "SlowDown") + "</Code><Message>injected by "
              + "the test proxy</Message></Error>").getBytes(java.nio.charset.StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/xml");
          exchange.sendResponseHeaders(Integer.parseInt(fault), error.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(error);
          }
          return;
        }
        if ("reset-after".equals(fault)) {
          client.send(request.build(), HttpResponse.BodyHandlers.discarding());
          throw new IOException("injected: the answer of a PUT that S3 applied is lost");
        }
      }
      HttpResponse<byte[]> response = client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
      if (method.equals("PUT") && COMMIT.matcher(path).matches() && response.statusCode() == 412) {
        refusedCommitPuts.incrementAndGet();
      }
      response.headers().map().forEach((name, values) -> {
        String lower = name.toLowerCase(Locale.ROOT);
        if (!RESTRICTED.contains(lower) || (lower.equals("content-length") && method.equals("HEAD"))) {
          values.forEach(v -> exchange.getResponseHeaders().add(name, v));
        }
      });
      byte[] answer = response.body();
      boolean noBody = method.equals("HEAD") || answer.length == 0;
      exchange.sendResponseHeaders(response.statusCode(), noBody ? -1 : answer.length);
      if (!noBody) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(answer);
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
