package io.gluecat.tools.cli;

import io.gluecat.config.CatalogOptions;
import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A tool's command line: the command, its positional arguments and flags, and the catalog's options, which
 * take the names CatalogOptions defines ({@code --conf glue.id=123456789012}), or come from a Spark
 * properties file ({@code spark.sql.catalog.<name>.<option>} lines, {@code --properties-file} with
 * {@code --catalog <name>}). The options are checked by CatalogOptions itself, as a catalog would.
 */
public final class Arguments {
  /** The catalog name used in messages (and to pick lines of a properties file) when none is given. */
  public static final String DEFAULT_CATALOG = "glue";

  private final String command;
  private final List<String> positional;
  private final String catalog;
  private final Map<String, String> options;
  private final boolean json;
  private final boolean dryRun;
  private final boolean partitions;
  private final String scan;

  private Arguments(String command, List<String> positional, String catalog, Map<String, String> options,
      boolean json, boolean dryRun, boolean partitions, String scan) {
    this.command = command;
    this.positional = List.copyOf(positional);
    this.catalog = catalog;
    this.options = options;
    this.json = json;
    this.dryRun = dryRun;
    this.partitions = partitions;
    this.scan = scan;
  }

  public String command() { return command; }
  public List<String> positional() { return positional; }
  public String catalog() { return catalog; }
  /** The catalog's options, as {@code spark.sql.catalog.<name>.*} would give them (without the prefix). */
  public Map<String, String> options() { return options; }
  public boolean json() { return json; }
  public boolean dryRun() { return dryRun; }
  public boolean partitions() { return partitions; }
  /** {@code --scan <prefix>} of register, or null. */
  public String scan() { return scan; }

  /** Parses and checks a command line; a UsageException names what is wrong. */
  public static Arguments parse(List<String> args) {
    String command = null;
    List<String> positional = new ArrayList<>();
    Map<String, String> conf = new LinkedHashMap<>();
    String propertiesFile = null;
    String catalog = null;
    boolean json = false;
    boolean dryRun = false;
    boolean partitions = false;
    String scan = null;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      switch (arg) {
        case "--conf":
          String pair = value(args, ++i, "--conf");
          int eq = pair.indexOf('=');
          if (eq <= 0) {
            throw new UsageException("--conf takes <option>=<value> (for example --conf region=eu-west-1), got '"
                + pair + "'");
          }
          conf.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
          break;
        case "--properties-file":
          propertiesFile = value(args, ++i, "--properties-file");
          break;
        case "--catalog":
          catalog = value(args, ++i, "--catalog");
          break;
        case "--json":
          json = true;
          break;
        case "--dry-run":
          dryRun = true;
          break;
        case "--partitions":
          partitions = true;
          break;
        case "--scan":
          scan = value(args, ++i, "--scan");
          break;
        default:
          if (arg.startsWith("--")) {
            throw new UsageException("unknown flag " + arg);
          }
          if (command == null) {
            command = arg;
          } else {
            positional.add(arg);
          }
      }
    }
    if (command == null) {
      throw new UsageException("no command given");
    }
    String name = catalog == null ? DEFAULT_CATALOG : catalog;
    Map<String, String> options = new LinkedHashMap<>();
    if (propertiesFile != null) {
      FileOptions file = fromPropertiesFile(Path.of(propertiesFile), name, catalog != null);
      name = file.catalog;
      options.putAll(file.options);
    }
    String prefix = "spark.sql.catalog." + name + ".";
    conf.forEach((k, v) -> options.put(k.startsWith(prefix) ? k.substring(prefix.length()) : k, v));
    try {
      CatalogOptions.parse(name, options);
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage(), e);
    }
    return new Arguments(command, positional, name, options, json, dryRun, partitions, scan);
  }

  private static String value(List<String> args, int i, String flag) {
    if (i >= args.size() || args.get(i).startsWith("--")) {
      throw new UsageException(flag + " needs a value");
    }
    return args.get(i);
  }

  /**
   * The {@code spark.sql.catalog.<name>.*} lines of a Spark properties file ({@code spark-defaults.conf}
   * syntax: key and value separated by whitespace, '=' or ':'). Without {@code --catalog}, the file must
   * configure exactly one gluecat catalog, or one named {@value #DEFAULT_CATALOG}.
   */
  static FileOptions fromPropertiesFile(Path file, String name, boolean named) {
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(in);
    } catch (IOException e) {
      throw new UsageException("cannot read the properties file " + file + ": " + e.getMessage(), e);
    }
    String catalog = name;
    if (!named && properties.getProperty("spark.sql.catalog." + name) == null) {
      List<String> gluecats = new ArrayList<>();
      for (String key : properties.stringPropertyNames()) {
        if (key.matches("spark\\.sql\\.catalog\\.[^.]+") && properties.getProperty(key).trim().equals("io.gluecat.GlueCatalog")) {
          gluecats.add(key.substring("spark.sql.catalog.".length()));
        }
      }
      if (gluecats.size() == 1) {
        catalog = gluecats.get(0);
      } else if (gluecats.size() > 1) {
        java.util.Collections.sort(gluecats);
        throw new UsageException("the properties file " + file + " configures several gluecat catalogs ("
            + String.join(", ", gluecats) + "): choose one with --catalog <name>");
      }
    }
    String prefix = "spark.sql.catalog." + catalog + ".";
    Map<String, String> options = new LinkedHashMap<>();
    for (String key : new java.util.TreeSet<>(properties.stringPropertyNames())) {
      if (key.startsWith(prefix)) {
        options.put(key.substring(prefix.length()), properties.getProperty(key).trim());
      }
    }
    if (options.isEmpty() && properties.getProperty("spark.sql.catalog." + catalog) == null) {
      throw new UsageException("the properties file " + file + " has no spark.sql.catalog." + catalog
          + ".* settings" + (named ? "" : "; name the catalog with --catalog <name>"));
    }
    return new FileOptions(catalog, options);
  }

  /** The catalog a properties file configures, and its options. */
  static final class FileOptions {
    final String catalog;
    final Map<String, String> options;

    FileOptions(String catalog, Map<String, String> options) {
      this.catalog = catalog;
      this.options = options;
    }
  }
}
