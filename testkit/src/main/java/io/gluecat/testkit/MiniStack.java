package io.gluecat.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import io.gluecat.testkit.containers.Backend;
import io.gluecat.testkit.containers.FixtureContainer;
import io.gluecat.testkit.containers.Running;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sts.StsClient;

/**
 * A real MiniStack (the PyPI package {@code ministack}) on a loopback port: a child process, or a Docker container
 * when the container backend is chosen ({@link Backend}: {@code -Dgluecat.fixtures}); the API is the same.
 *
 * <p>{@link #start()} launches a new one; {@link #shared()} gives the JVM's one, started on first use and
 * stopped at JVM exit. Each instance binds only 127.0.0.1:{@link #port()}, keeps its state in memory and
 * its scratch files in a temp directory of its own, and logs to {@code target/ministack-<port>.log}, so
 * several can run side by side. The executable is found or installed by {@link MiniStackInstall}.
 *
 * <p>The process runs under a small {@code sh} watchdog that stops it when this JVM's end of its stdin
 * closes, so it does not outlive a JVM that was killed without running its shutdown hooks.
 */
public final class MiniStack implements AutoCloseable {

    /** Region the test clients use. MiniStack serves any region. */
    public static final Region REGION = Region.US_EAST_1;
    /**
     * Test access key id. Not 12 digits on purpose: MiniStack takes a 12-digit key as the account id, any
     * other key maps to account 000000000000 (its default).
     */
    public static final String ACCESS_KEY_ID = "gluecat-test-key";
    /** Test secret key (MiniStack checks no signatures). */
    public static final String SECRET_ACCESS_KEY = "gluecat-test-secret";

    /** Prefix of Hadoop's per-bucket S3A settings: {@code fs.s3a.bucket.<bucket>.<option>}. */
    public static final String S3A_BUCKET_PREFIX = "fs.s3a.bucket.";
    /** Prefix that makes a Hadoop setting a Spark one (Spark copies {@code spark.hadoop.*} into Hadoop's conf). */
    public static final String SPARK_HADOOP_PREFIX = "spark.hadoop.";

    static final String START_TIMEOUT_PROPERTY = "gluecat.ministack.startTimeoutSeconds";
    static final String LOG_DIR_PROPERTY = "gluecat.ministack.logDir";

    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(10);
    private static final Set<MiniStack> RUNNING = ConcurrentHashMap.newKeySet();
    private static MiniStack shared;   // guarded by MiniStack.class

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> RUNNING.forEach(MiniStack::stop),
                "gluecat-ministack-shutdown"));
    }

    /** Where the image's MiniStack listens: MiniStack's default port, as in ministackorg/ministack. */
    static final int CONTAINER_PORT = 4566;
    static final String IMAGE_PROPERTY = "gluecat.ministack.image";

    private final Running process;
    private final int port;
    private final URI endpoint;
    private final Path logFile;
    private final Path scratchDir;
    private final boolean isShared;

    private MiniStack(Running process, int port, Path logFile, Path scratchDir, boolean isShared) {
        this.process = process;
        this.port = port;
        this.endpoint = URI.create("http://127.0.0.1:" + port);
        this.logFile = logFile;
        this.scratchDir = scratchDir;
        this.isShared = isShared;
    }

    /** Starts a new MiniStack process and waits until it is healthy. Close it when done. */
    public static MiniStack start() {
        return start(false);
    }

    /**
     * The JVM's shared MiniStack, started on first use and stopped by a shutdown hook; {@link #close()} on
     * it does nothing. Give each test its own database names, or {@link #reset()} it.
     */
    public static synchronized MiniStack shared() {
        if (shared == null || !shared.isRunning()) {
            shared = start(true);
        }
        return shared;
    }

    public URI endpoint() {
        return endpoint;
    }

    public int port() {
        return port;
    }

    public Path logFile() {
        return logFile;
    }

    public boolean isRunning() {
        return process.isAlive();
    }

    /**
     * The images of the container backend: the local build (bin/build-test-images, tagged with MiniStack's and
     * DuckDB's versions), else ministackorg/ministack.
     */
    public static Backend.Images containerImages() {
        String version = MiniStackInstall.version();
        return new Backend.Images("MiniStack " + version, IMAGE_PROPERTY,
                "gluecat-test/ministack:" + version + "-duckdb-" + MiniStackInstall.duckdbVersion(),
                "ministackorg/ministack:" + version);
    }

    /** Wipes all of MiniStack's state (every service, every account). */
    public void reset() {
        HttpResponse<String> response = ChildProcesses.http(HttpRequest.newBuilder(endpoint.resolve("/_ministack/reset"))
                .POST(HttpRequest.BodyPublishers.noBody()));
        if (response.statusCode() != 200) {
            throw new IllegalStateException("MiniStack reset failed: HTTP " + response.statusCode() + " " + response.body());
        }
    }

    /** Stops the process; a no-op on the {@link #shared()} instance. */
    @Override
    public void close() {
        if (!isShared) {
            stop();
        }
    }

    /** Credentials of the test user: {@link #ACCESS_KEY_ID} / {@link #SECRET_ACCESS_KEY}. */
    public static AwsCredentialsProvider credentials() {
        return StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY_ID, SECRET_ACCESS_KEY));
    }

    /** Points any SDK client builder at this MiniStack: endpoint, {@link #REGION}, {@link #credentials()}. */
    public <B extends AwsClientBuilder<B, C>, C> B configure(B builder) {
        return builder.endpointOverride(endpoint).region(REGION).credentialsProvider(credentials());
    }

    /** A new Glue client on this MiniStack, as the test user. */
    public GlueClient glue() {
        return configure(GlueClient.builder()).build();
    }

    /** A new STS client on this MiniStack, as the test user. */
    public StsClient sts() {
        return configure(StsClient.builder()).build();
    }

    /**
     * A new S3 client on this MiniStack, as the test user. Path-style: a bucket cannot be a sub-domain of
     * 127.0.0.1, and MiniStack tells its services apart by the signature, not the host.
     */
    public S3Client s3() {
        return configure(S3Client.builder()).forcePathStyle(true).build();
    }

    /**
     * Creates bucket {@code name} on this MiniStack, in {@link #REGION} (MiniStack refuses requests signed for
     * another region than a bucket's own, as S3 does), and returns the name. Use a new name per test: Hadoop
     * caches one {@code FileSystem} per bucket and user for the JVM's life, with the settings it was first
     * created with.
     */
    public String createBucket(String name) {
        S3ASettings.checkBucketName(name);
        try (S3Client s3 = s3()) {
            s3.createBucket(b -> b.bucket(name));
        }
        return name;
    }

    /**
     * The Hadoop settings that send S3A's requests for every bucket to this MiniStack ({@code fs.s3a.*}); what each
     * is and why: {@code S3ASettings}. Prefer {@link #s3aSettings(String)} where a test has buckets on more than one
     * MiniStack.
     */
    public Map<String, String> s3aSettings() {
        return S3ASettings.of(endpoint);
    }

    /**
     * {@link #s3aSettings()} for {@code bucket} only: each {@code fs.s3a.<option>} as
     * {@code fs.s3a.bucket.<bucket>.<option>}, which S3A applies to that bucket alone, over any global
     * {@code fs.s3a.<option>}. So buckets on different MiniStack processes, or with different settings, can be
     * used side by side in one Hadoop configuration.
     */
    public Map<String, String> s3aSettings(String bucket) {
        return forBucket(bucket, s3aSettings());
    }

    /**
     * {@code settings}' {@code fs.s3a.<option>} keys as the per-bucket {@code fs.s3a.bucket.<bucket>.<option>};
     * other keys are refused, since Hadoop would not apply them per bucket.
     */
    public static Map<String, String> forBucket(String bucket, Map<String, String> settings) {
        return S3ASettings.forBucket(bucket, settings);
    }

    /** Hadoop settings as Spark settings ({@code spark.hadoop.<key>}), for a SparkSession builder or SparkConf. */
    public static Map<String, String> asSparkSettings(Map<String, String> hadoopSettings) {
        return S3ASettings.asSparkSettings(hadoopSettings);
    }

    @Override
    public String toString() {
        return "MiniStack[" + endpoint + ", log " + logFile + "]";
    }

    // ---------------------------------------------------------------- process

    private static MiniStack start(boolean isShared) {
        Optional<Backend.Choice> container = Backend.choose(containerImages());
        if (container.isPresent()) {
            return launchContainer(container.get(), isShared);
        }
        Path executable = MiniStackInstall.executable();
        IllegalStateException lastFailure = null;
        // A free port can be taken between choosing and binding it: try a few.
        for (int tries = 0; tries < 3; tries++) {
            try {
                return launch(executable, ChildProcesses.freePort(), isShared);
            } catch (PortTakenException e) {
                lastFailure = e;
            }
        }
        throw lastFailure;
    }

    private static MiniStack launch(Path executable, int port, boolean isShared) {
        Path logDir = Paths.get(System.getProperty(LOG_DIR_PROPERTY, Paths.get(System.getProperty("user.dir"), "target").toString()));
        Path logFile = logDir.resolve("ministack-" + port + ".log");
        Path scratch;
        Process process;
        try {
            Files.createDirectories(logDir);
            scratch = Files.createTempDirectory("gluecat-ministack-" + port + "-");
            // Watchdog: run MiniStack in the background, stop it when our stdin reaches EOF (close() or this
            // JVM dying), then remove the scratch dir; exit with MiniStack's status when it stops by itself.
            ProcessBuilder builder = new ProcessBuilder("sh", "-c",
                    "exec 3<&0; \"$0\" & child=$!; "
                    + "(while read -r _ <&3; do :; done; kill -TERM $child 2>/dev/null) & watcher=$!; "
                    + "wait $child; status=$?; kill $watcher 2>/dev/null; cd / && rm -rf \"$1\"; exit $status",
                    executable.toString(), scratch.toString())
                    .directory(scratch.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(logFile.toFile());
            configureEnvironment(builder.environment(), port, scratch);
            process = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start MiniStack " + executable, e);
        }
        MiniStack miniStack = new MiniStack(Running.process(process), port, logFile, scratch, isShared);
        RUNNING.add(miniStack);
        miniStack.awaitHealthy();
        return miniStack;
    }

    /**
     * A container of the image: MiniStack listens on {@value #CONTAINER_PORT} inside, published on a free port of the
     * host's loopback only, with the process's settings (no IoT or SFTP listener, state in memory). The log goes to
     * {@code target/ministack-<host port>.log}, as a process's does.
     */
    private static MiniStack launchContainer(Backend.Choice choice, boolean isShared) {
        Path logDir = Paths.get(System.getProperty(LOG_DIR_PROPERTY, Paths.get(System.getProperty("user.dir"), "target").toString()));
        Path startLog = logDir.resolve("ministack-container-" + Long.toHexString(System.nanoTime()) + ".log");
        FixtureContainer container = FixtureContainer.start(choice, startLog, c -> c
                .withExposedPorts(CONTAINER_PORT)
                .withEnv("GATEWAY_PORT", String.valueOf(CONTAINER_PORT))
                .withEnv("BIND_HOST", "0.0.0.0")
                .withEnv("IOT_MTLS_ENABLED", "0")
                .withEnv("SFTP_ENABLED", "0")
                .withEnv("PERSIST_STATE", "0")
                .withEnv("S3_PERSIST", "0")
                // Published on 127.0.0.1 only (Testcontainers would publish on every interface).
                .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig().withPortBindings(new PortBinding(
                        Ports.Binding.bindIp("127.0.0.1"), ExposedPort.tcp(CONTAINER_PORT)))));
        int port = container.mappedPort(CONTAINER_PORT);
        Path logFile = logDir.resolve("ministack-" + port + ".log");
        try {
            Files.move(startLog, logFile, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            logFile = startLog;   // keep writing where it is
        }
        MiniStack miniStack = new MiniStack(container, port, logFile, null, isShared);
        RUNNING.add(miniStack);
        miniStack.awaitHealthy();
        return miniStack;
    }

    /**
     * MiniStack's settings (read from ministack/app.py, core/persistence.py, services/iot.py, transfer.py):
     * bind loopback only; no IoT mTLS listener (0.0.0.0:8883 by default) and no SFTP listener; state in
     * memory; pid file, TLS material and any scratch in our own temp dir (TMPDIR); never a Docker daemon.
     * Inherited settings that would change that, and any AWS credentials of the developer, are dropped.
     */
    private static void configureEnvironment(Map<String, String> env, int port, Path scratch) {
        env.keySet().removeIf(k -> k.startsWith("AWS_") || k.startsWith("MINISTACK_") || k.startsWith("LOCALSTACK_")
                || k.startsWith("SFTP_") || k.startsWith("IOT_") || k.startsWith("S3_")
                || Set.of("EDGE_PORT", "SERVICES", "PERSIST_STATE", "STATE_DIR", "USE_SSL", "AUTH", "DOCKER_HOST",
                          "BIND_HOST", "GATEWAY_PORT").contains(k));
        env.put("GATEWAY_PORT", String.valueOf(port));
        env.put("BIND_HOST", "127.0.0.1");
        env.put("IOT_MTLS_ENABLED", "0");
        env.put("SFTP_ENABLED", "0");
        env.put("SFTP_HOST", "127.0.0.1");
        env.put("PERSIST_STATE", "0");
        env.put("S3_PERSIST", "0");
        env.put("STATE_DIR", scratch.resolve("state").toString());
        env.put("S3_DATA_DIR", scratch.resolve("s3").toString());
        env.put("TMPDIR", scratch.toString());
        env.put("DOCKER_HOST", "unix://" + scratch.resolve("no-docker.sock"));
    }

    private void awaitHealthy() {
        long timeoutSeconds = Long.getLong(START_TIMEOUT_PROPERTY, 120);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        URI health = endpoint.resolve("/_ministack/health");
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                String tail = logTail();
                stop();
                if (tail.contains("already in use")) {
                    throw new PortTakenException(port, tail);
                }
                throw new IllegalStateException("MiniStack " + process.exitDescription()
                        + " before it was healthy; last lines of " + logFile + ":\n" + tail);
            }
            try {
                if (ChildProcesses.http(HttpRequest.newBuilder(health).GET()).statusCode() == 200) {
                    return;
                }
            } catch (UncheckedIOException notYet) {
                // not listening yet
            }
            ChildProcesses.sleep(100);
        }
        String tail = logTail();
        stop();
        throw new IllegalStateException("MiniStack on port " + port + " not healthy after " + timeoutSeconds
                + "s (-D" + START_TIMEOUT_PROPERTY + "); last lines of " + logFile + ":\n" + tail);
    }

    /** Closes the watchdog's stdin (MiniStack gets SIGTERM), then destroys, then destroys forcibly. */
    private void stop() {
        RUNNING.remove(this);
        process.stop(STOP_TIMEOUT);
        if (scratchDir != null) {
            ChildProcesses.deleteRecursively(scratchDir);
        }
    }

    private String logTail() {
        return ChildProcesses.logTail(logFile, 30);
    }

    private static final class PortTakenException extends IllegalStateException {
        PortTakenException(int port, String log) {
            super("port " + port + " was taken before MiniStack bound it:\n" + log);
        }
    }
}
