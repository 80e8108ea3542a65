package io.gluecat.testkit.containers;

import com.github.dockerjava.api.command.InspectContainerResponse;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.function.Consumer;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.output.OutputFrame;
import org.testcontainers.containers.wait.strategy.AbstractWaitStrategy;
import org.testcontainers.images.ImagePullPolicy;
import org.testcontainers.images.PullPolicy;
import org.testcontainers.utility.DockerImageName;

/**
 * A fixture's server in a Docker container, through Testcontainers: the container's output goes to a log file of
 * the fixture's (as a process's would), readiness is the fixture's own check (no Testcontainers wait strategy), and
 * an image that is already in the engine is never pulled.
 */
public final class FixtureContainer implements Running {
    private final GenericContainer<?> container;
    private final Writer log;
    private volatile String exit;        // how it ended, read before the container is removed
    private volatile boolean drained;    // the log consumer had time to write the last lines

    private FixtureContainer(GenericContainer<?> container, Writer log) {
        this.container = container;
        this.log = log;
    }

    /**
     * Creates and starts a container of {@code choice}'s image, configured by {@code configure}, its output
     * appended to {@code logFile}. Returns once the container runs; the caller waits for its server.
     */
    public static FixtureContainer start(Backend.Choice choice, Path logFile, Consumer<GenericContainer<?>> configure) {
        Writer log;
        try {
            Files.createDirectories(logFile.toAbsolutePath().getParent());
            log = Files.newBufferedWriter(logFile, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + logFile, e);
        }
        // Present images are never pulled (no registry is reachable here); an absent upstream image is, as usual.
        ImagePullPolicy policy = choice.local() ? image -> false : PullPolicy.defaultPolicy();
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(choice.image()))
                .withImagePullPolicy(policy)
                .waitingFor(new AbstractWaitStrategy() {
                    @Override
                    protected void waitUntilReady() {
                        // the fixture checks its server itself
                    }
                })
                .withLogConsumer((OutputFrame frame) -> write(log, frame));
        configure.accept(container);
        FixtureContainer fixture = new FixtureContainer(container, log);
        try {
            container.start();
        } catch (RuntimeException e) {
            fixture.stop(Duration.ofSeconds(10));
            throw new IllegalStateException("cannot start a container of " + choice.image() + ": " + e.getMessage()
                    + (e.getCause() != null ? " (" + e.getCause().getMessage() + ")" : ""), e);
        }
        return fixture;
    }

    private static void write(Writer log, OutputFrame frame) {
        if (frame.getType() == OutputFrame.OutputType.END) {
            return;
        }
        synchronized (log) {
            try {
                log.write(frame.getUtf8String());
                log.flush();
            } catch (IOException ignored) {
                // the log is closed: the container is being stopped
            }
        }
    }

    public int mappedPort(int containerPort) {
        return container.getMappedPort(containerPort);
    }

    public String image() {
        return container.getDockerImageName();
    }

    @Override
    public boolean isAlive() {
        String id = container.getContainerId();
        boolean running;
        try {
            running = id != null && Boolean.TRUE.equals(
                    DockerClientFactory.lazyClient().inspectContainerCmd(id).exec().getState().getRunning());
        } catch (RuntimeException gone) {
            running = false;
        }
        if (!running && !drained) {
            // Let the log consumer write the last lines before the caller reads the log's tail.
            sleep(500);
            drained = true;
        }
        return running;
    }

    @Override
    public String exitDescription() {
        return exit != null ? exit : describeExit();
    }

    private String describeExit() {
        String id = container.getContainerId();
        if (id == null) {
            return "stopped (container of " + image() + " removed)";
        }
        try {
            InspectContainerResponse.ContainerState state = DockerClientFactory.lazyClient().inspectContainerCmd(id).exec()
                    .getState();
            if (Boolean.TRUE.equals(state.getRunning())) {
                return "was stopped (container " + id.substring(0, 12) + " of " + image() + ")";
            }
            return "exited with status " + state.getExitCodeLong() + " (container " + id.substring(0, 12) + " of "
                    + image() + ")";
        } catch (RuntimeException e) {
            return "stopped (container " + id.substring(0, 12) + " of " + image() + " is gone)";
        }
    }

    /** Stops and removes the container (Testcontainers: kill, then remove with its volumes). */
    @Override
    public void stop(Duration timeout) {
        if (exit == null) {
            exit = describeExit();
        }
        try {
            container.stop();
        } finally {
            synchronized (log) {
                try {
                    log.close();
                } catch (IOException ignored) {
                    // nothing to keep
                }
            }
        }
    }

    /** The uid:gid this JVM runs as (the owner of /proc/self), for containers that write files the host reads. */
    public static String hostUser() {
        try {
            Object uid = Files.getAttribute(Paths.get("/proc/self"), "unix:uid");
            Object gid = Files.getAttribute(Paths.get("/proc/self"), "unix:gid");
            return uid + ":" + gid;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
