package io.gluecat.testkit.containers;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.Locale;
import java.util.Optional;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;

/**
 * Which backend the MiniStack and Trino fixtures run on: a child process or a Docker container.
 *
 * <p>System property {@value #PROPERTY}, else environment variable {@value #ENV}: {@code process}, {@code container}
 * or {@code auto} (the default). {@code auto} takes a container when a Docker engine answers and the fixture's image
 * is already in it (the local image of {@code bin/build-test-images}, else the upstream one), and the process
 * otherwise; {@code container} insists (pulling the upstream image if no image is there) and fails when no engine
 * answers; {@code process} never touches Docker. A fixture's image can be named outright with its own property
 * ({@code gluecat.ministack.image}, {@code gluecat.trino.image}).
 */
public final class Backend {
    public static final String PROPERTY = "gluecat.fixtures";
    public static final String ENV = "GLUECAT_FIXTURES";

    /** The reaper image the pinned Testcontainers (1.21) starts, hard-coded in its RyukContainer. */
    static final String RYUK_IMAGE = "testcontainers/ryuk:0.12.0";

    private static Boolean dockerAvailable;   // guarded by Backend.class
    private static DockerClient engine;       // guarded by Backend.class

    private Backend() {
    }

    /** An image a fixture can run: the one named by {@code overrideProperty}, else the local build, else upstream. */
    public record Images(String fixture, String overrideProperty, String local, String upstream) {
    }

    /** What was chosen: a container of {@code image} (pulled when {@code pull}), or empty for the process. */
    public record Choice(String image, boolean local) {
    }

    /** The mode in force: process, container or auto. */
    public static String mode() {
        String mode = System.getProperty(PROPERTY);
        if (mode == null || mode.isBlank()) {
            mode = System.getenv(ENV);
        }
        mode = mode == null || mode.isBlank() ? "auto" : mode.trim().toLowerCase(Locale.ROOT);
        if (!mode.equals("process") && !mode.equals("container") && !mode.equals("auto")) {
            throw new IllegalArgumentException("-D" + PROPERTY + " (or " + ENV + ") must be process, container or auto, not '"
                    + mode + "'");
        }
        return mode;
    }

    /** The container to run for {@code images}, or empty when the fixture runs as a process. */
    public static synchronized Optional<Choice> choose(Images images) {
        String mode = mode();
        if (mode.equals("process")) {
            return Optional.empty();
        }
        boolean insist = mode.equals("container");
        if (!insist && Files.exists(Paths.get("/.dockerenv")) && isBlank(System.getenv("TESTCONTAINERS_HOST_OVERRIDE"))) {
            // Inside a container, Testcontainers would start an alpine container to find the host's address,
            // which cannot be pulled here: without the override, auto stays on processes.
            note(images.fixture() + ": process backend (running inside a container without TESTCONTAINERS_HOST_OVERRIDE)");
            return Optional.empty();
        }
        if (!dockerAvailable()) {
            if (insist) {
                throw new IllegalStateException("-D" + PROPERTY + "=container, but no Docker engine answers (start one, e.g. "
                        + "bin/docker-engine, or use -D" + PROPERTY + "=process)");
            }
            note(images.fixture() + ": process backend (no Docker engine answers)");
            return Optional.empty();
        }
        String ryuk = ryukImageToPull();
        if (ryuk != null) {
            // Testcontainers starts its Ryuk reaper before any container unless TESTCONTAINERS_RYUK_DISABLED is
            // set; without the image that is a pull, which on a machine without Docker Hub only fails after
            // minutes of retries. The gluecat build sets the variable for its suites (pom.xml).
            String why = "Testcontainers would first start its Ryuk container, whose image " + ryuk + " is not in the "
                    + "Docker engine: set the environment variable TESTCONTAINERS_RYUK_DISABLED=true (or load that image)";
            if (insist) {
                throw new IllegalStateException("-D" + PROPERTY + "=container, but " + why);
            }
            note(images.fixture() + ": process backend (" + why + ")");
            return Optional.empty();
        }
        String override = System.getProperty(images.overrideProperty());
        Choice choice;
        if (!isBlank(override)) {
            choice = new Choice(override.trim(), present(override.trim()));
        } else if (present(images.local())) {
            choice = new Choice(images.local(), true);
        } else if (present(images.upstream())) {
            choice = new Choice(images.upstream(), true);
        } else if (insist) {
            choice = new Choice(images.upstream(), false);
        } else {
            note(images.fixture() + ": process backend (neither " + images.local() + " nor " + images.upstream()
                    + " is in the Docker engine; bin/build-test-images builds the local one)");
            return Optional.empty();
        }
        note(images.fixture() + ": container backend, image " + choice.image() + (choice.local() ? "" : " (to be pulled)"));
        return Optional.of(choice);
    }

    private static boolean dockerAvailable() {
        if (dockerAvailable == null) {
            try {
                engine().pingCmd().exec();
                dockerAvailable = true;
            } catch (RuntimeException | LinkageError e) {
                dockerAvailable = false;
            }
        }
        return dockerAvailable;
    }

    /**
     * A client of the engine that starts nothing. DockerClientFactory's own client (and its isDockerAvailable)
     * first starts the Ryuk container, which is a pull when TESTCONTAINERS_RYUK_DISABLED is not set: asking
     * the engine what it has must not wait on that.
     */
    private static synchronized DockerClient engine() {
        if (engine == null) {
            engine = DockerClientProviderStrategy.getClientForConfig(DockerClientFactory.instance().getTransportConfig());
        }
        return engine;
    }

    /** The Ryuk image Testcontainers would have to pull before starting a container, or null if none. */
    private static String ryukImageToPull() {
        if (Boolean.parseBoolean(System.getenv("TESTCONTAINERS_RYUK_DISABLED"))) {
            return null;
        }
        return present(RYUK_IMAGE) ? null : RYUK_IMAGE;
    }

    /** Whether the engine has {@code image} already (nothing is pulled to find out). */
    static boolean present(String image) {
        try {
            engine().inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** A label of a local image, or null. */
    public static String label(String image, String label) {
        try {
            var labels = engine().inspectImageCmd(image).exec().getConfig().getLabels();
            return labels == null ? null : labels.get(label);
        } catch (NotFoundException e) {
            return null;
        }
    }

    private static boolean isBlank(String s) {
        return s == null || s.isBlank();
    }

    private static void note(String line) {
        System.err.println("[gluecat-testkit] " + line);
    }
}
