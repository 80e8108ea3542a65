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

    /**
     * Whether this JVM tests the last row of matrix.yaml (system property {@code gluecat.matrix.row}), or no row
     * at all (a developer's run outside the line modules). Tests of what cannot differ between Spark lines
     * (IAM policy documents, the acceptance program's flow) run there only, once per CI run.
     */
    public static boolean isNewestRowOrNone() {
        String row = System.getProperty("gluecat.matrix.row", "").trim();
        if (row.isEmpty() || row.contains("${")) {
            return true;
        }
        try {
            String newest = null;
            for (String line : Files.readAllLines(root().resolve("matrix.yaml"))) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\s*-\\s*id:\\s*(\\S+)").matcher(line);
                if (m.find()) {
                    newest = m.group(1);
                }
            }
            return row.equals(newest);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** {@code <repo>/.tools}, where the fixtures install what they run. */
    public static Path tools() {
        return root().resolve(".tools");
    }
}
