package io.gluecat.testkit.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Paths;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.DockerClientFactory;

/** The backend switch: its values, and that the process backend never asks Docker anything. */
class BackendTest {
    private final String before = System.getProperty(Backend.PROPERTY);

    @AfterEach
    void restore() {
        if (before == null) {
            System.clearProperty(Backend.PROPERTY);
        } else {
            System.setProperty(Backend.PROPERTY, before);
        }
    }

    @Test
    void theSwitchTakesProcessContainerOrAutoAndRefusesAnythingElse() {
        System.setProperty(Backend.PROPERTY, " Container ");
        assertEquals("container", Backend.mode());
        System.setProperty(Backend.PROPERTY, "process");
        assertEquals("process", Backend.mode());
        System.setProperty(Backend.PROPERTY, "docker");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, Backend::mode);
        assertTrue(e.getMessage().contains("gluecat.fixtures") && e.getMessage().contains("'docker'"), e.getMessage());
    }

    @Test
    void theProcessBackendChoosesNoContainerWithoutAskingDocker() {
        System.setProperty(Backend.PROPERTY, "process");
        Backend.Images images = new Backend.Images("X", "gluecat.x.image", "no-such/local:1", "no-such/upstream:1");
        assertEquals(Optional.empty(), Backend.choose(images));
    }

    /**
     * A project using the kit without the build's Testcontainers environment (Ryuk on, its image absent): auto
     * falls back to processes and container fails at once naming the variable, instead of minutes of pull
     * retries. Run in a child JVM, since the variable is read from the environment.
     */
    @Test
    void withRyukOnAndItsImageAbsentAutoUsesProcessesAndContainerFailsAtOnce() throws Exception {
        assumeTrue(DockerClientFactory.instance().isDockerAvailable(), "no Docker engine answers");
        assumeFalse(Backend.present(Backend.RYUK_IMAGE), Backend.RYUK_IMAGE + " is in the engine");

        Probe auto = probe("auto");
        assertEquals(0, auto.code(), auto.out());
        assertTrue(auto.out().contains("CHOSE process"), auto.out());
        assertTrue(auto.out().contains("process backend (Testcontainers would first start its Ryuk container")
                && auto.out().contains("TESTCONTAINERS_RYUK_DISABLED=true"), auto.out());

        Probe container = probe("container");
        assertTrue(container.out().contains("REFUSED -Dgluecat.fixtures=container, but Testcontainers would first start "
                + "its Ryuk container, whose image " + Backend.RYUK_IMAGE + " is not in the Docker engine: set the "
                + "environment variable TESTCONTAINERS_RYUK_DISABLED=true"), container.out());
    }

    record Probe(int code, String out) {}

    private static Probe probe(String mode) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), RyukProbe.class.getName(), mode)
                .redirectErrorStream(true);
        pb.environment().remove("TESTCONTAINERS_RYUK_DISABLED");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Probe(p.waitFor(), out);
    }

    /** The child JVM of the test above: what Backend chooses for an image that is nowhere. */
    public static final class RyukProbe {
        public static void main(String[] args) {
            System.setProperty(Backend.PROPERTY, args[0]);
            try {
                Optional<Backend.Choice> choice = Backend.choose(
                        new Backend.Images("Probe", "gluecat.probe.image", "no-such/local:1", "no-such/upstream:1"));
                System.out.println("CHOSE " + choice.map(Backend.Choice::image).orElse("process"));
            } catch (IllegalStateException e) {
                System.out.println("REFUSED " + e.getMessage());
            }
            System.out.flush();
        }
    }
}
