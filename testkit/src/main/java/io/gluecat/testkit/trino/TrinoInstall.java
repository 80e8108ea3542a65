package io.gluecat.testkit.trino;

import io.gluecat.testkit.ChildProcesses;

import io.gluecat.testkit.Repository;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Finds the unpacked Trino server, unpacking the {@code io.trino:trino-server:<version>:tar.gz} tarball once per
 * machine into {@code <repo>/.tools/trino-server-<version>}, keeping only {@code lib/} and the plugins the tests
 * load. In order:
 * <ol>
 *   <li>system property {@value #HOME_PROPERTY}: an unpacked server (with {@code lib/} and {@code plugin/}), as is;</li>
 *   <li>{@code <repo>/.tools/trino-server-<version>}, once its unpack completed (a marker file, written last, names
 *   the plugins it kept);</li>
 *   <li>otherwise the tarball, {@value #TARBALL_PROPERTY} (the it-trino modules set it to the file Maven resolved),
 *   else {@code <local repository>/io/trino/trino-server/<version>/trino-server-<version>.tar.gz}, is unpacked with
 *   {@code tar} under a file lock, so JVMs starting together unpack once.</li>
 * </ol>
 * The tarball hard-links jars shared between plugins, so it is unpacked whole into a staging directory and the kept
 * parts are moved out of it (links survive a move); the rest is deleted.
 */
final class TrinoInstall {
    static final String VERSION_PROPERTY = "gluecat.trino.version";
    static final String HOME_PROPERTY = "gluecat.trino.home";
    static final String TARBALL_PROPERTY = "gluecat.trino.tarball";
    static final String PLUGINS_PROPERTY = "gluecat.trino.plugins";
    static final String DEFAULT_VERSION = "476";
    /** The Delta Lake connector (the compatibility suites), Hive's (a Glue entry as Trino's Hive connector sees it) and Iceberg's. */
    static final List<String> DEFAULT_PLUGINS = List.of("delta-lake", "hive", "iceberg");

    private static final String MARKER = ".gluecat-unpacked";

    private TrinoInstall() {
    }

    static String version() {
        String v = System.getProperty(VERSION_PROPERTY, "").trim();
        return v.isEmpty() ? DEFAULT_VERSION : v;
    }

    static List<String> plugins() {
        String p = System.getProperty(PLUGINS_PROPERTY, "").trim();
        return p.isEmpty() ? DEFAULT_PLUGINS
                : Arrays.stream(p.split(",")).map(String::trim).filter(s -> !s.isEmpty()).sorted().collect(Collectors.toList());
    }

    /** The server's home: a directory with {@code lib/} and {@code plugin/<name>/} for each kept plugin. */
    static synchronized Path home() {
        String configured = System.getProperty(HOME_PROPERTY, "").trim();
        if (!configured.isEmpty()) {
            Path home = Paths.get(configured);
            if (!Files.isDirectory(home.resolve("lib")) || !Files.isDirectory(home.resolve("plugin"))) {
                throw new IllegalStateException("-D" + HOME_PROPERTY + "=" + home + " is not an unpacked Trino server "
                        + "(no lib/ and plugin/ there)");
            }
            return home;
        }
        String version = version();
        List<String> plugins = plugins();
        Path tools = Repository.tools();
        Path home = tools.resolve("trino-server-" + version);
        String expected = marker(version, plugins);
        if (unpacked(home, expected)) {
            return home;
        }
        try {
            Files.createDirectories(tools);
            Path lockFile = tools.resolve("trino-server-" + version + ".lock");
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                if (!unpacked(home, expected)) {   // another JVM may have unpacked it while we waited
                    unpack(tarball(version), version, plugins, home, expected);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack Trino " + version + " into " + home, e);
        }
        return home;
    }

    private static String marker(String version, List<String> plugins) {
        return "trino-server " + version + "\nplugins " + String.join(",", plugins) + "\n";
    }

    private static boolean unpacked(Path home, String expected) {
        try {
            return Files.readString(home.resolve(MARKER)).equals(expected);
        } catch (IOException e) {
            return false;
        }
    }

    static Path tarball(String version) {
        String configured = System.getProperty(TARBALL_PROPERTY, "").trim();
        if (!configured.isEmpty() && !configured.contains("${")) {
            Path tarball = Paths.get(configured);
            if (!Files.isRegularFile(tarball)) {
                throw new IllegalStateException("-D" + TARBALL_PROPERTY + "=" + tarball + ": no such file");
            }
            return tarball;
        }
        String local = System.getProperty("maven.repo.local", "").trim();
        Path repo = local.isEmpty() ? Paths.get(System.getProperty("user.home"), ".m2", "repository") : Paths.get(local);
        Path tarball = repo.resolve(Paths.get("io", "trino", "trino-server", version, "trino-server-" + version + ".tar.gz"));
        if (!Files.isRegularFile(tarball)) {
            throw new IllegalStateException("no Trino server tarball at " + tarball + ": run the tests through Maven "
                    + "(the it-trino modules resolve io.trino:trino-server:" + version + ":tar.gz), or set -D"
                    + TARBALL_PROPERTY + " or -D" + HOME_PROPERTY);
        }
        return tarball;
    }

    private static void unpack(Path tarball, String version, List<String> plugins, Path home, String marker)
            throws IOException {
        long start = System.nanoTime();
        System.err.println("[gluecat-testkit] unpacking " + tarball + " into " + home + " (plugins " + plugins + ")");
        Path staging = home.resolveSibling(home.getFileName() + ".staging");
        ChildProcesses.deleteRecursively(staging);
        ChildProcesses.deleteRecursively(home);
        Files.createDirectories(staging);
        run(List.of("tar", "-xzf", tarball.toString(), "-C", staging.toString()), 10);
        Path top = staging.resolve("trino-server-" + version);
        if (!Files.isDirectory(top.resolve("lib"))) {
            throw new IllegalStateException(tarball + " has no trino-server-" + version + "/lib");
        }
        Files.createDirectories(home.resolve("plugin"));
        Files.move(top.resolve("lib"), home.resolve("lib"));
        List<String> missing = new ArrayList<>();
        for (String plugin : plugins) {
            Path from = top.resolve("plugin").resolve(plugin);
            if (Files.isDirectory(from)) {
                Files.move(from, home.resolve("plugin").resolve(plugin));
            } else {
                missing.add(plugin);
            }
        }
        ChildProcesses.deleteRecursively(staging);
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Trino " + version + " has no plugin " + missing + " (" + PLUGINS_PROPERTY + ")");
        }
        Files.writeString(home.resolve(MARKER), marker);
        System.err.printf("[gluecat-testkit] unpacked Trino %s in %.1f s%n", version, (System.nanoTime() - start) / 1e9);
    }

    private static void run(List<String> command, int timeoutMinutes) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output;
        try {
            output = new String(process.getInputStream().readAllBytes());
            if (!process.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out after " + timeoutMinutes + " min: " + command);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + command, e);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("failed (exit " + process.exitValue() + "): " + command + "\n" + output);
        }
    }

}
