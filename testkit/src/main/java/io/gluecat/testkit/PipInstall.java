package io.gluecat.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Python tool from PyPI in its own venv under the repository's {@code .tools/<name>-<version>/}, installed
 * the first time it is asked for ({@code python3 -m venv} + {@code pip install <requirement>}), under a file
 * lock so that JVMs starting together install once. A venv without the marker written last is a broken or
 * interrupted install and is redone. {@value #PYTHON_PROPERTY} picks the Python (default python3).
 */
final class PipInstall {

    static final String PYTHON_PROPERTY = "gluecat.python";

    /** Written last: a venv without it is a broken or interrupted install and is redone. */
    private static final String MARKER = ".gluecat-installed";

    private PipInstall() {
    }

    /**
     * The executable {@code command} of {@code requirement} (e.g. {@code moto[server]==5.2.5}), installed into
     * {@code .tools/<name>-<version>} when it is not there yet.
     */
    static Path executable(String name, String version, String requirement, String command,
            String overrideProperty) {
        return executable(name, version, List.of(requirement), command, overrideProperty);
    }

    /**
     * The executable {@code command} of a venv holding all of {@code requirements} (pip resolves them together),
     * installed into {@code .tools/<name>-<version>} when it is not there yet.
     */
    static synchronized Path executable(String name, String version, List<String> requirements, String command,
            String overrideProperty) {
        String requirement = String.join(" ", requirements);
        Path tools = tools(overrideProperty);
        Path venv = tools.resolve(name + "-" + version);
        Path executable = venv.resolve("bin").resolve(command);
        if (installed(venv, executable)) {
            return executable;
        }
        try {
            Files.createDirectories(tools);
            Path lockFile = tools.resolve(name + "-" + version + ".lock");
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                if (!installed(venv, executable)) {   // another JVM may have installed it while we waited
                    install(requirements, venv, tools.resolve(name + "-" + version + ".install.log"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install " + requirement + " into " + venv, e);
        }
        return executable;
    }

    private static boolean installed(Path venv, Path executable) {
        return Files.isExecutable(executable) && Files.exists(venv.resolve(MARKER));
    }

    private static void install(List<String> requirements, Path venv, Path log) throws IOException {
        String requirement = String.join(" ", requirements);
        String python = System.getProperty(PYTHON_PROPERTY, "python3");
        System.err.println("[gluecat-testkit] installing " + requirement + " into " + venv + " (log: " + log + ")");
        ChildProcesses.deleteRecursively(venv);   // leftovers of an interrupted install
        Files.deleteIfExists(log);
        run(List.of(python, "-m", "venv", venv.toString()), log, 5);
        List<String> pip = new java.util.ArrayList<>(List.of(venv.resolve("bin").resolve("python").toString(), "-m",
                "pip", "install", "--no-input", "--disable-pip-version-check"));
        pip.addAll(requirements);
        run(pip, log, 20);
        Files.writeString(venv.resolve(MARKER), requirement + "\n");
        System.err.println("[gluecat-testkit] installed " + requirement);
    }

    private static void run(List<String> command, Path log, int timeoutMinutes) throws IOException {
        Files.writeString(log, "$ " + String.join(" ", command) + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .start();
        try {
            if (!process.waitFor(timeoutMinutes, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("timed out after " + timeoutMinutes + " min: " + command + "; see " + log);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + command, e);
        }
        if (process.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            throw new IllegalStateException("failed (exit " + process.exitValue() + "): " + command + "\n"
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size())));
        }
    }

    private static Path tools(String overrideProperty) {
        try {
            return Repository.tools();
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + " or -D" + overrideProperty, e);
        }
    }
}
