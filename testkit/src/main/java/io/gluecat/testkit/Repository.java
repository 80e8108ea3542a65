package io.gluecat.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Where the repository's checkout is, for the fixtures that keep tools under {@code <repo>/.tools}:
 * {@code maven.multiModuleProjectDirectory} when Maven set it, else the nearest directory above
 * {@code user.dir} holding {@code matrix.yaml}.
 */
public final class Repository {
    private Repository() {
    }

    /** The repository root. */
    public static Path root() {
        String configured = System.getProperty("maven.multiModuleProjectDirectory", "").trim();
        if (!configured.isEmpty() && !configured.contains("${")) {
            return Paths.get(configured).toAbsolutePath();
        }
        Path start = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
        for (Path dir = start; dir != null; dir = dir.getParent()) {
            if (Files.exists(dir.resolve("matrix.yaml"))) {
                return dir;
            }
        }
        throw new IllegalStateException("cannot find the repository root (no matrix.yaml above " + start
                + "): set -Dmaven.multiModuleProjectDirectory");
    }

    /** {@code <repo>/.tools}, where the fixtures install what they run. */
    public static Path tools() {
        return root().resolve(".tools");
    }
}
