package io.gluecat.testkit.trino;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The Java that runs Trino (476 needs Java {@value #MINIMUM} or later). In order: system property
 * {@value #PROPERTY}, environment variable {@value #ENV} (a JDK home or its {@code bin/java}),
 * {@value #DEFAULT_HOME}, else the newest JDK under {@code /usr/lib/jvm} whose {@code release} file says
 * {@value #MINIMUM} or later. A configured Java that is too old is refused with its version.
 */
final class TrinoJava {
    static final String PROPERTY = "gluecat.trino.java";
    static final String ENV = "GLUECAT_TRINO_JAVA";
    static final String DEFAULT_HOME = "/usr/lib/jvm/temurin-25-jdk-amd64";
    static final int MINIMUM = 24;

    private static final Pattern VERSION = Pattern.compile("^JAVA_VERSION=\"?(\\d+)[^\"]*\"?", Pattern.MULTILINE);

    private TrinoJava() {
    }

    /** A JDK home and its feature version. */
    record Jdk(Path home, int version, String description) {
        Path java() {
            return home.resolve("bin").resolve("java");
        }
    }

    static Jdk find() {
        String configured = System.getProperty(PROPERTY, "").trim();
        String source = "-D" + PROPERTY;
        if (configured.isEmpty()) {
            configured = Optional.ofNullable(System.getenv(ENV)).orElse("").trim();
            source = ENV;
        }
        if (!configured.isEmpty()) {
            Path home = home(Paths.get(configured));
            String from = source + "=" + configured;
            Jdk jdk = describe(home).orElseThrow(() -> new IllegalStateException(from
                    + " is not a JDK (no bin/java and release file under " + home + ")"));
            return check(jdk, from);
        }
        Optional<Jdk> preferred = describe(Paths.get(DEFAULT_HOME));
        if (preferred.isPresent() && preferred.get().version() >= MINIMUM) {
            return preferred.get();
        }
        Path jvms = Paths.get("/usr/lib/jvm");
        List<Jdk> candidates = List.of();
        if (Files.isDirectory(jvms)) {
            try (Stream<Path> dirs = Files.list(jvms)) {
                candidates = dirs.map(TrinoJava::describe).flatMap(Optional::stream)
                        .sorted(Comparator.comparingInt(Jdk::version).reversed()).collect(Collectors.toList());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        Optional<Jdk> found = candidates.stream().filter(j -> j.version() >= MINIMUM).findFirst();
        if (found.isPresent()) {
            return found.get();
        }
        throw new IllegalStateException("Trino needs Java " + MINIMUM + " or later and none was found: not at "
                + DEFAULT_HOME + ", and /usr/lib/jvm holds " + (candidates.isEmpty() ? "no JDK"
                : candidates.stream().map(Jdk::description).collect(Collectors.joining(", ")))
                + ". Set -D" + PROPERTY + " or " + ENV + " to a JDK home.");
    }

    private static Path home(Path configured) {
        // accept .../bin/java as well as the home
        if (Files.isRegularFile(configured) && configured.getParent() != null && configured.getParent().getParent() != null) {
            return configured.getParent().getParent();
        }
        return configured;
    }

    private static Jdk check(Jdk jdk, String source) {
        if (jdk.version() < MINIMUM) {
            throw new IllegalStateException("Trino needs Java " + MINIMUM + " or later; " + source + " gives "
                    + jdk.description());
        }
        return jdk;
    }

    static Optional<Jdk> describe(Path home) {
        Path release = home.resolve("release");
        if (!Files.isExecutable(home.resolve("bin").resolve("java")) || !Files.isRegularFile(release)) {
            return Optional.empty();
        }
        try {
            Matcher m = VERSION.matcher(Files.readString(release));
            if (!m.find()) {
                return Optional.empty();
            }
            int version = Integer.parseInt(m.group(1));
            if (version == 1) {   // 1.8 style
                version = 8;
            }
            return Optional.of(new Jdk(home, version, "Java " + version + " at " + home));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }
}
