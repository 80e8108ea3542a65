package io.gluecat.testkit.containers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

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
}
