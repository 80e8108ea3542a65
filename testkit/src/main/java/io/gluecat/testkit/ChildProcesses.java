package io.gluecat.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * What the process fixtures (MiniStack, Trino) share: each runs its server under a small {@code sh}
 * watchdog that stops the server when the watchdog's stdin closes, on a free loopback port, with its log
 * and scratch files of its own.
 */
public final class ChildProcesses {
  private ChildProcesses() {}

  /**
   * Stops a watchdog and everything under it: closes its stdin (the server gets SIGTERM), then destroys the
   * tree, then destroys it forcibly, waiting up to {@code timeout} after each step.
   */
  public static void stop(Process watchdog, Duration timeout) {
    List<ProcessHandle> tree = new ArrayList<>(watchdog.descendants().toList());
    tree.add(watchdog.toHandle());
    try {
      watchdog.getOutputStream().close();
    } catch (IOException ignored) {
      // the watchdog is gone already
    }
    if (!waitFor(tree, timeout)) {
      tree.forEach(ProcessHandle::destroy);
      if (!waitFor(tree, timeout)) {
        tree.forEach(ProcessHandle::destroyForcibly);
        waitFor(tree, timeout);
      }
    }
  }

  private static boolean waitFor(List<ProcessHandle> processes, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (processes.stream().anyMatch(ProcessHandle::isAlive)) {
      if (System.nanoTime() > deadline) {
        return false;
      }
      sleep(50);
    }
    return true;
  }

  /**
   * Starts {@code command} under the watchdog: it runs in the background, gets SIGTERM when the watchdog's stdin
   * reaches EOF (its Process closed, or this JVM gone), and {@code scratch} is removed once it stopped; the
   * watchdog exits with the command's status. Output and errors go to {@code logFile}.
   */
  public static Process startWatched(List<String> command, Path scratch, Path logFile,
      java.util.function.Consumer<java.util.Map<String, String>> environment) throws IOException {
    List<String> argv = new ArrayList<>(List.of("sh", "-c",
        "exec 3<&0; scratch=$1; shift; \"$@\" & child=$!; "
            + "(while read -r _ <&3; do :; done; kill -TERM $child 2>/dev/null) & watcher=$!; "
            + "wait $child; status=$?; kill $watcher 2>/dev/null; cd / && rm -rf \"$scratch\"; exit $status",
        "gluecat-watchdog", scratch.toString()));
    argv.addAll(command);
    ProcessBuilder builder = new ProcessBuilder(argv).directory(scratch.toFile()).redirectErrorStream(true)
        .redirectOutput(logFile.toFile());
    environment.accept(builder.environment());
    return builder.start();
  }

  private static final java.net.http.HttpClient HTTP = java.net.http.HttpClient.newBuilder()
      .connectTimeout(Duration.ofSeconds(2)).build();

  /** A fixture server's answer to {@code request} (10 s at most), its body as text; I/O errors unchecked. */
  public static java.net.http.HttpResponse<String> http(java.net.http.HttpRequest.Builder request) {
    try {
      return HTTP.send(request.timeout(Duration.ofSeconds(10)).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** The last {@code lines} lines of a log, for failure messages. */
  public static String logTail(Path logFile, int lines) {
    try {
      List<String> all = Files.readAllLines(logFile);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  /** A port free on the loopback address now (a server may still lose it before binding it). */
  public static int freePort() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** Deletes a directory tree, best effort: a temp directory left behind is harmless. */
  public static void deleteRecursively(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort
    }
  }
}
