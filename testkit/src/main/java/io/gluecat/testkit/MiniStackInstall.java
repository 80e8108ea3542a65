package io.gluecat.testkit;

import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Finds the {@code ministack} executable: system property {@value #COMMAND_PROPERTY} as is, else the pinned
 * version installed by {@link PipInstall}, with DuckDB for its Athena emulator, into
 * {@code <repo>/.tools/ministack-<version>-duckdb-<duckdb version>/}. {@code <version>} is
 * system property {@value #VERSION_PROPERTY} (default {@value #DEFAULT_VERSION}); {@code <repo>} is
 * {@code maven.multiModuleProjectDirectory}, else the nearest directory above {@code user.dir} holding
 * {@code matrix.yaml}.
 */
final class MiniStackInstall {

    static final String VERSION_PROPERTY = "gluecat.ministack.version";
    static final String COMMAND_PROPERTY = "gluecat.ministack.command";
    static final String DEFAULT_VERSION = "1.5.33";
    /**
     * DuckDB beside MiniStack in its venv: MiniStack's Athena emulator runs queries with it when it can import
     * it (else it answers with canned results). System property {@value #DUCKDB_VERSION_PROPERTY}, else this.
     */
    static final String DUCKDB_VERSION_PROPERTY = "gluecat.ministack.duckdb.version";
    static final String DEFAULT_DUCKDB_VERSION = "1.5.6";

    private MiniStackInstall() {
    }

    /** The pinned MiniStack version: {@value #VERSION_PROPERTY}, else {@value #DEFAULT_VERSION}. */
    static String version() {
        return System.getProperty(VERSION_PROPERTY, "").isBlank()
                ? DEFAULT_VERSION : System.getProperty(VERSION_PROPERTY).trim();
    }

    /** DuckDB's version beside MiniStack: {@value #DUCKDB_VERSION_PROPERTY}, else {@value #DEFAULT_DUCKDB_VERSION}. */
    static String duckdbVersion() {
        return System.getProperty(DUCKDB_VERSION_PROPERTY, "").isBlank()
                ? DEFAULT_DUCKDB_VERSION : System.getProperty(DUCKDB_VERSION_PROPERTY).trim();
    }

    static Path executable() {
        String command = System.getProperty(COMMAND_PROPERTY, "").trim();
        if (!command.isEmpty()) {
            return Paths.get(command);
        }
        String version = version();
        String duckdb = duckdbVersion();
        return PipInstall.executable("ministack", version + "-duckdb-" + duckdb,
                java.util.List.of("ministack==" + version, "duckdb==" + duckdb), "ministack", COMMAND_PROPERTY);
    }
}
