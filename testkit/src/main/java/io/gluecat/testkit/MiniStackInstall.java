package io.gluecat.testkit;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Finds the {@code ministack} executable: system property {@value #COMMAND_PROPERTY} as is, else the pinned
 * version installed by {@link PipInstall} into {@code <repo>/.tools/ministack-<version>/}. {@code <version>} is
 * system property {@value #VERSION_PROPERTY} (default {@value #DEFAULT_VERSION}); {@code <repo>} is
 * {@code maven.multiModuleProjectDirectory}, else the nearest directory above {@code user.dir} holding
 * {@code matrix.yaml}.
 */
final class MiniStackInstall {

    static final String VERSION_PROPERTY = "gluecat.ministack.version";
    static final String COMMAND_PROPERTY = "gluecat.ministack.command";
    static final String DEFAULT_VERSION = "1.5.33";

    private MiniStackInstall() {
    }

    /** The pinned MiniStack version: {@value #VERSION_PROPERTY}, else {@value #DEFAULT_VERSION}. */
    static String version() {
        return System.getProperty(VERSION_PROPERTY, "").isBlank()
                ? DEFAULT_VERSION : System.getProperty(VERSION_PROPERTY).trim();
    }

    static Path executable() {
        String command = System.getProperty(COMMAND_PROPERTY, "").trim();
        if (!command.isEmpty()) {
            return Paths.get(command);
        }
        String version = version();
        return PipInstall.executable("ministack", version, "ministack==" + version, "ministack", COMMAND_PROPERTY);
    }
}
