package io.gluecat.testkit;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;

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
            return row.equals(newestRow(Files.readAllLines(root().resolve("matrix.yaml"))));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * The id of the last row of matrix.yaml's {@code rows:} list, given the file's lines: only items at the
     * rows' own indentation count, not the {@code - id:} items nested in a row ({@code runtimes:}) or in another
     * top-level list ({@code not-covered:}).
     */
    static String newestRow(List<String> lines) {
        java.util.regex.Pattern item = java.util.regex.Pattern.compile("^(\\s*)-\\s*id:\\s*(\\S+)");
        boolean inRows = false;
        String rowIndent = null;
        String newest = null;
        for (String line : lines) {
            if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0)) && !line.startsWith("#")) {
                inRows = line.startsWith("rows:");
                continue;
            }
            java.util.regex.Matcher m = item.matcher(line);
            if (inRows && m.find() && (rowIndent == null || rowIndent.equals(m.group(1)))) {
                rowIndent = m.group(1);
                newest = m.group(2);
            }
        }
        return newest;
    }

    /**
     * {@code <repo>/.tools}, where the fixtures install what they run, as its real path: CI links it to a cache
     * shared by its clones (.ci/run), and a venv records the path it was made at (its scripts' first lines), so it
     * must be made at the path every clone reaches.
     */
    public static Path tools() {
        Path tools = root().resolve(".tools");
        try {
            Files.createDirectories(tools);
            return tools.toRealPath();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot create " + tools, e);
        }
    }
}
