package io.gluecat.testkit.trino;

import io.gluecat.testkit.ChildProcesses;
import io.gluecat.testkit.containers.Backend;
import io.gluecat.testkit.containers.FixtureContainer;
import io.gluecat.testkit.containers.Running;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A real Trino server (coordinator and worker in one) on a free loopback port: a child process, or a Docker
 * container when the container backend is chosen ({@link Backend}: {@code -Dgluecat.fixtures}); the API is the same.
 *
 * <pre>{@code
 * TrinoServer trino = TrinoServer.builder()
 *     .catalog("delta", TrinoCatalogs.deltaLakeOnGlue(ministack), TrinoCatalogs.localFileSystem(dir))
 *     .start();
 * trino.jdbcUrl();   // jdbc:trino://127.0.0.1:<port>, user of your choice
 * trino.close();
 * }</pre>
 *
 * <p>The server comes from {@link TrinoInstall} (the {@code trino-server} tarball, unpacked once per machine into
 * {@code <repo>/.tools}) and runs under the Java {@link TrinoJava} finds (24 or later). The fixture writes the
 * server's {@code etc/} itself, in a temp directory of the instance: {@code node.properties}, {@code jvm.config},
 * {@code config.properties} and one {@code catalog/<name>.properties} per {@link Builder#catalog catalog}. Small
 * settings fit for a 2-core machine: heap {@value #HEAP_PROPERTY} (default {@value #DEFAULT_HEAP}), task
 * concurrency 2, HTTP bound to 127.0.0.1 only. Output goes to {@code target/trino-<port>.log}
 * ({@value #LOG_DIR_PROPERTY}). {@link Builder#start()} waits until {@code /v1/info} says the server is no longer
 * starting (at most {@value #START_TIMEOUT_PROPERTY}, default 180 s); a start that fails says why: the Java
 * used, the port, and the log's last lines.
 *
 * <p>Like MiniStack's fixture, the process runs under a small {@code sh} watchdog that stops it when this JVM's end
 * of its stdin closes, so it does not outlive a JVM killed without running its shutdown hooks.
 */
public final class TrinoServer implements AutoCloseable {
    static final String START_TIMEOUT_PROPERTY = "gluecat.trino.startTimeoutSeconds";
    static final String LOG_DIR_PROPERTY = "gluecat.trino.logDir";
    static final String HEAP_PROPERTY = "gluecat.trino.heap";
    static final String DEFAULT_HEAP = "2g";

    private static final Pattern CATALOG_NAME = Pattern.compile("[a-z][a-z0-9_]*");
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(15);
    private static final Set<TrinoServer> RUNNING = ConcurrentHashMap.newKeySet();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(TrinoServer::stop),
                "gluecat-trino-shutdown"));
    }

    static final String IMAGE_PROPERTY = "gluecat.trino.image";

    private final Running process;
    private final int port;
    private final URI uri;
    private final Path logFile;
    private final Path scratch;
    private final String java;
    private final String version;
    private volatile Duration startup;

    private TrinoServer(Running process, int port, Path logFile, Path scratch, String java, String version) {
        this.process = process;
        this.port = port;
        this.uri = URI.create("http://127.0.0.1:" + port);
        this.logFile = logFile;
        this.scratch = scratch;
        this.java = java;
        this.version = version;
    }

    /** The images of the container backend: the local build (bin/build-test-images), else trinodb/trino. */
    public static Backend.Images containerImages() {
        String version = TrinoInstall.version();
        return new Backend.Images("Trino " + version, IMAGE_PROPERTY, "gluecat-test/trino:" + version,
                "trinodb/trino:" + version);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The server's HTTP address, {@code http://127.0.0.1:<port>}. */
    public URI uri() {
        return uri;
    }

    public int port() {
        return port;
    }

    /** The JDBC URL for {@code io.trino:trino-jdbc}: {@code jdbc:trino://127.0.0.1:<port>}. */
    public String jdbcUrl() {
        return "jdbc:trino://127.0.0.1:" + port;
    }

    public Path logFile() {
        return logFile;
    }

    /** The Trino version that runs ({@code gluecat.trino.version}, default 476). */
    public String version() {
        return version;
    }

    /** The Java the server runs on. */
    public String java() {
        return java;
    }

    /** How long the process took from launch to ready: a measurement to report, never to assert on. */
    public Duration startupTime() {
        return startup;
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "TrinoServer[" + version + " at " + uri + ", " + java + ", log " + logFile + "]";
    }

    /** What the server is given: its catalogs and any extra {@code config.properties} settings. */
    public static final class Builder {
        private final Map<String, Map<String, String>> catalogs = new LinkedHashMap<>();
        private final Map<String, String> config = new LinkedHashMap<>();

        private Builder() {
        }

        /**
         * A catalog named {@code name} ({@code etc/catalog/<name>.properties}) with the given properties, merged in
         * order (later maps win). {@code connector.name} must be among them.
         */
        @SafeVarargs
        public final Builder catalog(String name, Map<String, String>... properties) {
            if (!CATALOG_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("not a Trino catalog name (lower case, digits, '_'): " + name);
            }
            Map<String, String> merged = new LinkedHashMap<>();
            for (Map<String, String> p : properties) {
                merged.putAll(p);
            }
            if (!merged.containsKey("connector.name")) {
                throw new IllegalArgumentException("catalog " + name + " has no connector.name");
            }
            catalogs.put(name, merged);
            return this;
        }

        /** An extra {@code config.properties} setting (over the fixture's own). */
        public Builder config(String key, String value) {
            config.put(key, value);
            return this;
        }

        /**
         * {@link #start()} on a thread of its own, so that a test JVM can start Spark (or anything else) while Trino
         * starts. The future fails with the same exception {@link #start()} would throw.
         */
        public CompletableFuture<TrinoServer> startAsync() {
            CompletableFuture<TrinoServer> future = new CompletableFuture<>();
            Thread starter = new Thread(() -> {
                try {
                    future.complete(start());
                } catch (Throwable e) {
                    future.completeExceptionally(e);
                }
            }, "gluecat-trino-start");
            starter.setDaemon(true);
            starter.start();
            return future;
        }

        /** Unpacks the server if needed, launches it and waits until it is ready. Close it when done. */
        public TrinoServer start() {
            Optional<Backend.Choice> container = Backend.choose(containerImages());
            TrinoJava.Jdk jdk = container.isPresent() ? null : TrinoJava.find();
            Path home = container.isPresent() ? null : TrinoInstall.home();
            IllegalStateException lastFailure = null;
            // A free port can be taken between choosing and binding it: try a few.
            for (int tries = 0; tries < 3; tries++) {
                try {
                    if (container.isPresent()) {
                        return launchContainer(container.get(), ChildProcesses.freePort(), catalogs, config);
                    }
                    return launch(home, jdk, ChildProcesses.freePort(), catalogs, config);
                } catch (PortTakenException e) {
                    lastFailure = e;
                }
            }
            throw lastFailure;
        }
    }

    // ---------------------------------------------------------------- process

    private static TrinoServer launch(Path home, TrinoJava.Jdk jdk, int port, Map<String, Map<String, String>> catalogs,
            Map<String, String> extraConfig) {
        Path logDir = Paths.get(System.getProperty(LOG_DIR_PROPERTY,
                Paths.get(System.getProperty("user.dir"), "target").toString()));
        Path logFile = logDir.resolve("trino-" + port + ".log");
        String version = TrinoInstall.version();
        Path scratch;
        Process process;
        try {
            Files.createDirectories(logDir);
            scratch = Files.createTempDirectory("gluecat-trino-" + port + "-");
            Path etc = Files.createDirectories(scratch.resolve("etc"));
            Path catalogDir = Files.createDirectories(etc.resolve("catalog"));
            Path data = Files.createDirectories(scratch.resolve("data"));

            Map<String, String> node = TrinoSetup.nodeProperties(port, data.toString());
            TrinoSetup.write(etc.resolve("node.properties"), node);

            Map<String, String> config = TrinoSetup.configProperties(port,
                    TrinoSetup.pluginDir(home, scratch, catalogs).toString(),
                    catalogDir.toString(), extraConfig);
            TrinoSetup.write(etc.resolve("config.properties"), config);

            for (Map.Entry<String, Map<String, String>> catalog : catalogs.entrySet()) {
                TrinoSetup.write(catalogDir.resolve(catalog.getKey() + ".properties"), catalog.getValue());
            }

            List<String> jvm = TrinoSetup.jvmOptions();
            Files.write(etc.resolve("jvm.config"), jvm);

            List<String> command = new ArrayList<>();
            command.add(jdk.java().toString());
            command.addAll(jvm);
            node.forEach((k, v) -> command.add("-D" + k + "=" + v));
            command.add("-Dconfig=" + etc.resolve("config.properties"));
            command.add("-cp");
            command.add(home.resolve("lib") + "/*");
            command.add("io.trino.server.TrinoServer");

            // Watchdog: run Trino in the background, stop it when our stdin reaches EOF (close() or this JVM
            // dying); exit with Trino's status when it stops by itself.
            List<String> shell = new ArrayList<>(List.of("sh", "-c",
                    "exec 3<&0; \"$0\" \"$@\" & child=$!; "
                    + "(while read -r _ <&3; do :; done; kill -TERM $child 2>/dev/null) & watcher=$!; "
                    + "wait $child; status=$?; kill $watcher 2>/dev/null; exit $status"));
            shell.addAll(command);
            ProcessBuilder builder = new ProcessBuilder(shell)
                    .directory(scratch.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile());
            // The developer's AWS settings must not reach the catalogs' clients.
            builder.environment().keySet().removeIf(k -> k.startsWith("AWS_"));
            builder.environment().put("JAVA_HOME", jdk.home().toString());
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Trino " + version + " with " + jdk.description(), e);
        }
        TrinoServer server = new TrinoServer(Running.process(process), port, logFile, scratch, jdk.description(), version);
        RUNNING.add(server);
        long start = System.nanoTime();
        server.awaitReady();
        server.startup = Duration.ofNanos(System.nanoTime() - start);
        return server;
    }

    /** A container of the image on the host's network ({@link TrinoSetup#startContainer}). */
    private static TrinoServer launchContainer(Backend.Choice choice, int port, Map<String, Map<String, String>> catalogs,
            Map<String, String> extraConfig) {
        Path logDir = Paths.get(System.getProperty(LOG_DIR_PROPERTY,
                Paths.get(System.getProperty("user.dir"), "target").toString()));
        Path logFile = logDir.resolve("trino-" + port + ".log");
        String version = TrinoInstall.version();
        String javaLabel = Backend.label(choice.image(), "io.gluecat.java.version");
        String java = (javaLabel != null ? "Java " + javaLabel : "the image's Java") + " in container image " + choice.image();

        FixtureContainer container = TrinoSetup.startContainer(choice, port, catalogs, extraConfig, logFile, version);
        TrinoServer server = new TrinoServer(container, port, logFile, null, java, version);
        RUNNING.add(server);
        long start = System.nanoTime();
        server.awaitReady();
        server.startup = Duration.ofNanos(System.nanoTime() - start);
        return server;
    }

    private void awaitReady() {
        long timeoutSeconds = Long.getLong(START_TIMEOUT_PROPERTY, 180);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        URI info = uri.resolve("/v1/info");
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                String tail = logTail();
                stop();
                if (tail.contains("Address already in use") || tail.contains("BindException")) {
                    throw new PortTakenException(port, tail);
                }
                throw new IllegalStateException("Trino " + version + " on 127.0.0.1:" + port + " (" + java
                        + ") " + process.exitDescription() + " before it was ready; last lines of "
                        + logFile + ":\n" + tail);
            }
            try {
                HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(info).timeout(Duration.ofSeconds(5))
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                // "starting":false comes before the node has announced itself to its own scheduler, so ready
                // means a query ran; scans of a catalog may still get NO_NODES_AVAILABLE for a few seconds,
                // until the node's announcement of that catalog is refreshed (the suites run such queries again)
                if (response.statusCode() == 200 && response.body().replace(" ", "").contains("\"starting\":false")
                        && runsAQuery()) {
                    return;
                }
            } catch (IOException notYet) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stop();
                throw new IllegalStateException("interrupted while Trino started", e);
            }
            ChildProcesses.sleep(250);
        }
        String tail = logTail();
        stop();
        throw new IllegalStateException("Trino " + version + " on 127.0.0.1:" + port + " (" + java
                + ") not ready after " + timeoutSeconds + "s (-D" + START_TIMEOUT_PROPERTY + "); last lines of "
                + logFile + ":\n" + tail);
    }

    /** Whether {@code SELECT 1} runs to its end without an error, through Trino's HTTP statement protocol. */
    private boolean runsAQuery() throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri.resolve("/v1/statement"))
                .timeout(Duration.ofSeconds(10)).header("X-Trino-User", "gluecat-readiness")
                .POST(HttpRequest.BodyPublishers.ofString("SELECT 1"));
        for (int page = 0; page < 200; page++) {
            HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
            String body = response.body();
            if (response.statusCode() != 200 || body.contains("\"error\"")) {
                return false;
            }
            Matcher next = NEXT_URI.matcher(body);
            if (!next.find()) {
                return true;
            }
            ChildProcesses.sleep(20);
            request = HttpRequest.newBuilder(URI.create(next.group(1))).timeout(Duration.ofSeconds(10))
                    .header("X-Trino-User", "gluecat-readiness").GET();
        }
        return false;
    }

    private static final Pattern NEXT_URI = Pattern.compile("\"nextUri\"\\s*:\\s*\"([^\"]+)\"");

    /** Closes the watchdog's stdin (Trino gets SIGTERM), then destroys, then destroys forcibly. */
    private void stop() {
        RUNNING.remove(this);
        process.stop(STOP_TIMEOUT);
        ChildProcesses.deleteRecursively(scratch);
    }

    /** The last lines of the server's log (for failure messages). */
    public String logTail() {
        return ChildProcesses.logTail(logFile, 40);
    }

    private static final class PortTakenException extends IllegalStateException {
        PortTakenException(int port, String log) {
            super("port " + port + " was taken before Trino bound it:\n" + log);
        }
    }
}
