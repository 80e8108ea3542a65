package io.gluecat.runtime;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What the PySpark checks (PySparkSubmitIT, SparkConnectIT) share to start PySpark's processes. */
final class PySparkProcesses {
  private PySparkProcesses() {}

  /**
   * The venv {@code bin/pyspark-venv <version> [kind]} installs (or finds) under .tools: PySpark itself when
   * {@code kind} is empty, else that kind of install (e.g. {@code client}). Its stderr goes to a log in {@code work}.
   */
  static Path venv(Path repo, Path work, String version, String kind) throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(List.of(repo.resolve("bin").resolve("pyspark-venv").toString(), version));
    if (!kind.isEmpty()) {
      command.add(kind);
    }
    Path log = work.resolve("pyspark-venv" + (kind.isEmpty() ? "" : "-" + kind) + ".log");
    Process p = new ProcessBuilder(command).redirectError(log.toFile()).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    if (p.waitFor() != 0) {
      fail(String.join(" ", command) + " failed: " + Files.readString(log));
    }
    return Paths.get(out);
  }

  /**
   * A child's environment without the developer's AWS and Spark settings: the venv's bin first on the PATH,
   * this JVM's Java, loopback only, no instance metadata to wait for, and no AWS config or credentials files
   * (they would name files under {@code work} that do not exist).
   */
  static void cleanEnvironment(Map<String, String> env, Path venv, Path work) {
    env.keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("SPARK_") || k.startsWith("PYSPARK_")
        || k.equals("HADOOP_CONF_DIR"));
    env.put("PATH", venv.resolve("bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
    env.put("JAVA_HOME", System.getProperty("java.home"));
    env.put("SPARK_LOCAL_IP", "127.0.0.1");
    env.put("AWS_EC2_METADATA_DISABLED", "true");
    env.put("AWS_CONFIG_FILE", work.resolve("no-aws-config").toString());
    env.put("AWS_SHARED_CREDENTIALS_FILE", work.resolve("no-aws-credentials").toString());
  }

  /** Deletes a directory and everything in it, if it exists. */
  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> files = Files.walk(dir)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).collect(Collectors.toList())) {
        Files.delete(f);
      }
    }
  }

  /** The last 60 lines of a process's output, for a failure message. */
  static String lastLines(String out) {
    List<String> lines = out.lines().collect(Collectors.toList());
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
  }
}
