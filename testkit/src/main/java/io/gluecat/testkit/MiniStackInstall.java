package io.gluecat.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds the {@code ministack} executable, installing the pinned version into a venv under the repository's
 * {@code .tools/} the first time. In order:
 * <ol>
 *   <li>system property {@value #COMMAND_PROPERTY}: that executable, as is;</li>
 *   <li>{@code <repo>/.tools/ministack-<version>/bin/ministack}, once its install completed;</li>
 *   <li>otherwise {@code python3 -m venv} + {@code pip install ministack==<version>} there, under a file lock so
 *   that JVMs starting together install once.</li>
 * </ol>
 * {@code <version>} is system property {@value #VERSION_PROPERTY} (default {@value #DEFAULT_VERSION});
 * {@code <repo>} is {@code maven.multiModuleProjectDirectory}, else the nearest directory above
 * {@code user.dir} holding {@code matrix.yaml}. {@value #PYTHON_PROPERTY} picks the Python (default python3).
 */
final class MiniStackInstall {

    static final String VERSION_PROPERTY = "gluecat.ministack.version";
    static final String COMMAND_PROPERTY = "gluecat.ministack.command";
    static final String PYTHON_PROPERTY = "gluecat.python";
    static final String DEFAULT_VERSION = "1.5.33";

    /** Written last: a venv without it is a broken or interrupted install and is redone. */
    private static final String MARKER = ".gluecat-installed";

    private MiniStackInstall() {
    }

    /** The pinned MiniStack version: {@value #VERSION_PROPERTY}, else {@value #DEFAULT_VERSION}. */
    static String version() {
        return System.getProperty(VERSION_PROPERTY, "").isBlank()
                ? DEFAULT_VERSION : System.getProperty(VERSION_PROPERTY).trim();
    }

    static synchronized Path executable() {
        String command = System.getProperty(COMMAND_PROPERTY, "").trim();
        if (!command.isEmpty()) {
            return Paths.get(command);
        }
        String version = version();
        Path tools = repoRoot().resolve(".tools");
        Path venv = tools.resolve("ministack-" + version);
        Path executable = venv.resolve("bin").resolve("ministack");
        if (installed(venv, executable)) {
            return executable;
        }
        try {
            Files.createDirectories(tools);
            Path lockFile = tools.resolve("ministack-" + version + ".lock");
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = channel.lock()) {
                if (!installed(venv, executable)) {   // another JVM may have installed it while we waited
                    install(version, venv, tools.resolve("ministack-" + version + ".install.log"));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot install ministack " + version + " into " + venv, e);
        }
        return executable;
    }

    private static boolean installed(Path venv, Path executable) {
        return Files.isExecutable(executable) && Files.exists(venv.resolve(MARKER));
    }

    private static void install(String version, Path venv, Path log) throws IOException {
        String python = System.getProperty(PYTHON_PROPERTY, "python3");
        System.err.println("[gluecat-testkit] installing ministack==" + version + " into " + venv + " (log: " + log + ")");
        ChildProcesses.deleteRecursively(venv);   // leftovers of an interrupted install
        Files.deleteIfExists(log);
        run(List.of(python, "-m", "venv", venv.toString()), log, 5);
        run(List.of(venv.resolve("bin").resolve("python").toString(), "-m", "pip", "install", "--no-input",
                "--disable-pip-version-check", "ministack==" + version), log, 20);
        Files.writeString(venv.resolve(MARKER), "ministack==" + version + "\n");
        System.err.println("[gluecat-testkit] installed ministack==" + version);
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

    static Path repoRoot() {
        try {
            return Repository.root();
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + " or -D" + COMMAND_PROPERTY, e);
        }
    }
}
