package io.gluecat.testkit.trino;

import io.gluecat.testkit.containers.Backend;
import io.gluecat.testkit.containers.FixtureContainer;
import org.testcontainers.containers.BindMode;
import org.testcontainers.images.builder.Transferable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What {@link TrinoServer} starts a server with: its {@code etc/} files, its plugin directory, and for the container
 * backend the container itself. Apart from {@link TrinoServer} so that class keeps to the server's life (start, wait,
 * stop); both backends get the same settings from here.
 */
final class TrinoSetup {

    private TrinoSetup() {
    }

    /** {@code node.properties}: environment, id, data directory, and the loopback address the node announces. */
    static Map<String, String> nodeProperties(int port, String dataDir) {
        Map<String, String> node = new LinkedHashMap<>();
        node.put("node.environment", "gluecat_test");
        node.put("node.id", "gluecat-test-" + port);
        node.put("node.data-dir", dataDir);
        // Otherwise the node announces the host's outward address to itself.
        node.put("node.internal-address", "127.0.0.1");
        return node;
    }

    /** {@code config.properties}: one coordinator that schedules on itself, small memory and task settings. */
    static Map<String, String> configProperties(int port, String pluginDir, String catalogDir,
            Map<String, String> extraConfig) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("coordinator", "true");
        config.put("node-scheduler.include-coordinator", "true");
        config.put("http-server.http.port", String.valueOf(port));
        config.put("discovery.uri", "http://127.0.0.1:" + port);
        config.put("plugin.dir", pluginDir);
        config.put("catalog.config-dir", catalogDir);
        config.put("query.max-memory", "1GB");
        config.put("query.max-memory-per-node", "512MB");
        config.put("task.concurrency", "2");
        config.put("task.max-worker-threads", "4");
        config.putAll(extraConfig);
        return config;
    }

    static List<String> jvmOptions() {
        return new ArrayList<>(List.of(
                    "-Xmx" + System.getProperty(TrinoServer.HEAP_PROPERTY, TrinoServer.DEFAULT_HEAP),
                    "-XX:+UseG1GC",
                    "-XX:+ExitOnOutOfMemoryError",
                    "-XX:-OmitStackTraceInFastThrow",
                    "-XX:ReservedCodeCacheSize=256M",
                    // The client JIT only: the C2 compiler's work at start-up costs more CPU than test queries on
                    // a few rows ever win back, on a machine of 2 cores.
                    "-XX:TieredStopAtLevel=1",
                    "-Djdk.attach.allowAttachSelf=true",
                    "-XX:+EnableDynamicAgentLoading",
                    "--enable-native-access=ALL-UNNAMED",
                    "--sun-misc-unsafe-memory-access=allow",
                    "-Dfile.encoding=UTF-8",
                    // HTTP on loopback only
                    "-Dhttp-server.http.host=127.0.0.1"));
    }

    /** Where the container's configuration goes: the image's own etc directory, read by its entry point. */
    private static final String CONTAINER_ETC = "/etc/trino";
    /** The catalogs' directory in the container: not the image's {@code /etc/trino/catalog} (trinodb/trino has some). */
    private static final String CONTAINER_CATALOGS = "/etc/gluecat-catalog";
    private static final String CONTAINER_PLUGINS = "/tmp/gluecat-trino-plugin";
    private static final String CONTAINER_DATA = "/tmp/gluecat-trino-data";
    private static final String IMAGE_PLUGINS = "/usr/lib/trino/plugin";

    /**
     * Starts a container of the image on the host's network: Trino binds 127.0.0.1:{@code port} of the host, exactly as the
     * process does, and reaches MiniStack (process or container) at the addresses the catalogs name. Each catalog's
     * {@code local.location} is mounted at the same path, so locations mean the same to Trino and to the test's Spark.
     * Trino runs as this JVM's user, so the files it writes belong to the test. The configuration is copied into the
     * image's {@code /etc/trino}; the image's entry point ({@code /usr/lib/trino/bin/run-trino}) starts the server, with
     * a plugin directory of links to only the plugins the catalogs use.
     */
    static FixtureContainer startContainer(Backend.Choice choice, int port, Map<String, Map<String, String>> catalogs,
            Map<String, String> extraConfig, Path logFile, String version) {
        Set<String> plugins = new java.util.TreeSet<>();
        boolean allPlugins = false;
        for (Map<String, String> catalog : catalogs.values()) {
            String plugin = PLUGIN_OF_CONNECTOR.get(catalog.get("connector.name"));
            if (plugin == null) {
                allPlugins = true;
            } else {
                plugins.add(plugin);
            }
        }
        String pluginDir = allPlugins ? IMAGE_PLUGINS : CONTAINER_PLUGINS;
        StringBuilder links = new StringBuilder("mkdir -p " + CONTAINER_PLUGINS + " " + CONTAINER_DATA);
        for (String plugin : plugins) {
            links.append(" && ln -sfn ").append(IMAGE_PLUGINS).append('/').append(plugin).append(' ')
                    .append(CONTAINER_PLUGINS).append('/').append(plugin);
        }
        String command = links + " && exec /usr/lib/trino/bin/run-trino";

        Map<String, String> node = nodeProperties(port, CONTAINER_DATA);
        Map<String, String> config = configProperties(port, pluginDir, CONTAINER_CATALOGS, extraConfig);
        List<String> jvm = jvmOptions();
        // one mount per directory: several catalogs (delta and hive) may share a local.location, and Docker
        // refuses a container that mounts one path twice
        Set<Path> mounts = new LinkedHashSet<>();
        for (Map<String, String> catalog : catalogs.values()) {
            String local = catalog.get("local.location");
            if (local != null) {
                mounts.add(Paths.get(local).toAbsolutePath());
            }
        }
        String user = FixtureContainer.hostUser();
        FixtureContainer container;
        try {
            for (Path mount : mounts) {
                Files.createDirectories(mount);
            }
            container = FixtureContainer.start(choice, logFile, c -> {
                c.withNetworkMode("host")
                        .withCommand("bash", "-c", command)
                        .withCopyToContainer(Transferable.of(properties(node)), CONTAINER_ETC + "/node.properties")
                        .withCopyToContainer(Transferable.of(properties(config)), CONTAINER_ETC + "/config.properties")
                        .withCopyToContainer(Transferable.of(String.join("\n", jvm) + "\n"), CONTAINER_ETC + "/jvm.config");
                for (Map.Entry<String, Map<String, String>> catalog : catalogs.entrySet()) {
                    c.withCopyToContainer(Transferable.of(properties(catalog.getValue())),
                            CONTAINER_CATALOGS + "/" + catalog.getKey() + ".properties");
                }
                for (Path mount : mounts) {
                    c.withFileSystemBind(mount.toString(), mount.toString(), BindMode.READ_WRITE);
                }
                if (user != null) {
                    c.withCreateContainerCmdModifier(cmd -> cmd.withUser(user));
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Trino " + version + " in " + choice.image(), e);
        }
        return container;
    }

    static String properties(Map<String, String> properties) {
        StringBuilder text = new StringBuilder();
        properties.forEach((k, v) -> text.append(k).append('=').append(v).append('\n'));
        return text.toString();
    }

    /** Connector names of the plugins kept by {@link TrinoInstall}. */
    static final Map<String, String> PLUGIN_OF_CONNECTOR = Map.of("delta_lake", "delta-lake", "hive", "hive",
        "iceberg", "iceberg");

    /**
     * A plugin directory of links to only the plugins the catalogs use: Trino loads every plugin it finds at start,
     * and each costs start-up time. A catalog of another connector gets every installed plugin.
     */
    static Path pluginDir(Path home, Path scratch, Map<String, Map<String, String>> catalogs) throws IOException {
        Path installed = home.resolve("plugin");
        Set<String> needed = new java.util.TreeSet<>();
        for (Map<String, String> catalog : catalogs.values()) {
            String plugin = PLUGIN_OF_CONNECTOR.get(catalog.get("connector.name"));
            if (plugin == null || !Files.isDirectory(installed.resolve(plugin))) {
                return installed;
            }
            needed.add(plugin);
        }
        Path dir = Files.createDirectories(scratch.resolve("plugin"));
        for (String plugin : needed) {
            Files.createSymbolicLink(dir.resolve(plugin), installed.resolve(plugin));
        }
        return dir;
    }

    static void write(Path file, Map<String, String> properties) throws IOException {
        try (Writer w = Files.newBufferedWriter(file)) {
            for (Map.Entry<String, String> e : properties.entrySet()) {
                w.write(e.getKey() + "=" + e.getValue() + "\n");
            }
        }
    }
}
