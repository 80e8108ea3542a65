package io.gluecat.iceberg;

import io.gluecat.config.CatalogOptions;
import io.gluecat.config.SparkEnvironment;
import io.gluecat.config.SparkLineCheck;
import io.gluecat.entry.StoredTable;
import io.gluecat.entry.TableName;
import io.gluecat.glue.LentGlueClient;
import java.lang.ref.WeakReference;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.spark.SparkThrowable;
import org.apache.spark.sql.catalyst.analysis.NoSuchFunctionException;
import org.apache.spark.sql.connector.catalog.FunctionCatalog;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.functions.UnboundFunction;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import software.amazon.awssdk.services.glue.GlueClient;

/**
 * A catalog's Iceberg tables (entries with {@code table_type = ICEBERG}, in the shape Iceberg, Athena, Trino and EMR
 * write): gluecat hands every call on one to Iceberg's own Spark catalog ({@code SparkCatalog} over Iceberg's
 * {@code GlueCatalog}), which it creates on first use under the catalog's name with {@link IcebergProperties}. The
 * Glue entry of an Iceberg table is Iceberg's: gluecat neither writes nor reshapes it. Iceberg's classes are only
 * looked up by name, so a session without Iceberg's Spark runtime never loads them; there an Iceberg table is
 * refused, naming the artifact to add.
 */
public final class IcebergTables {
  private static final String SPARK_CATALOG = "org.apache.iceberg.spark.SparkCatalog";
  /** The Iceberg Spark runtime gluecat is tested with, per Spark line; a line missing here has no runtime. */
  static final Map<String, String> TESTED_RUNTIMES = Map.of("3.5", "1.12.0", "4.0", "1.11.0", "4.1", "1.12.0");

  public static final boolean AVAILABLE = isAvailable();
  /** Iceberg's functions of its partition transforms (Iceberg's SparkFunctions). */
  private static final Set<String> TRANSFORMS = Set.of("years", "months", "days", "hours",
      "bucket", "truncate");

  /**
   * Whether Iceberg can take gluecat's Glue client: not where gluecat's runtime jar relocates the AWS SDK, whose
   * client is then another type than the one Iceberg's AwsClientFactory returns. (The name is put together at run
   * time, as the runtime jar's relocation rewrites class names written as one string.)
   */
  static final boolean LENDS_GLUE_CLIENT = GlueClient.class.getName()
      .equals(String.join(".", "software", "amazon", "awssdk", "services", "glue", "GlueClient"));
  /** The Glue clients gluecat catalogs lend their Iceberg catalogs, by token (see CatalogAwsClientFactory). */
  private static final Map<String, WeakReference<GlueClient>> LENT = new ConcurrentHashMap<>();

  private final CatalogOptions options;
  private final Map<String, String> storageSettings;
  private final LentGlueClient glue;
  private volatile TableCatalog catalog;

  /**
   * Checks the catalog's {@code iceberg.*} options; Iceberg's catalog itself is made on first use. {@code
   * storageSettings}: the Hadoop settings the catalog's tables travel with (no secrets); {@code glue}: the catalog's
   * Glue client, which Iceberg's catalog uses too.
   */
  public IcebergTables(CatalogOptions options, Map<String, String> storageSettings, LentGlueClient glue) {
    IcebergProperties.checkOptions(options);
    this.options = options;
    this.storageSettings = storageSettings;
    this.glue = glue;
  }

  /**
   * A load of {@code table} (or of one of its metadata tables, or as of a version) through {@code load}, on Iceberg's
   * catalog: Iceberg's read of the entry is answered with {@code entry}, which the catalog has just read.
   */
  public <T, E extends Exception> T loading(TableName table, StoredTable entry, LentGlueClient.Load<T, E> load)
      throws E {
    return glue.handingOver(table, entry, load);
  }

  /** Registers the lent client for Iceberg's client factory to find; the token goes into Iceberg's properties. */
  private static String lend(GlueClient client) {
    LENT.values().removeIf(ref -> ref.get() == null);
    String token = UUID.randomUUID().toString();
    LENT.put(token, new WeakReference<>(client));
    return token;
  }

  /** The client lent under {@code token}, for {@link CatalogAwsClientFactory}. */
  static GlueClient lentClient(String token) {
    WeakReference<GlueClient> lent = token == null ? null : LENT.get(token);
    GlueClient client = lent == null ? null : lent.get();
    if (client == null) {
      throw new IllegalStateException("Iceberg's catalog asks for a gluecat catalog's Glue client (" + token
          + ") that is not lent: " + IcebergProperties.LENT_CLIENT_FACTORY + " is only for the Iceberg catalogs "
          + "gluecat makes");
    }
    return client;
  }

  private static boolean isAvailable() {
    try {
      Class.forName(SPARK_CATALOG, false, IcebergTables.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException | LinkageError e) {
      return false;
    }
  }

  /** Iceberg's catalog, for a call on {@code table} (the catalog's name for it, in errors). */
  public TableCatalog catalog(String table) {
    if (!AVAILABLE) {
      throw notServed(table);
    }
    TableCatalog c = catalog;
    if (c == null) {
      synchronized (this) {
        if (catalog == null) {
          catalog = newCatalog();
        }
        c = catalog;
      }
    }
    return c;
  }

  /**
   * One of Iceberg's functions of partition transforms ({@code days}, {@code bucket}...; unqualified or in
   * {@code system}), which Spark looks up in the catalog of an Iceberg table it writes; empty for any other name,
   * and without Iceberg's runtime.
   */
  public Optional<UnboundFunction> function(Identifier ident) {
    String[] namespace = ident.namespace();
    boolean icebergs = namespace.length == 0 || (namespace.length == 1 && namespace[0].equalsIgnoreCase("system"));
    if (!AVAILABLE || !icebergs || !TRANSFORMS.contains(ident.name().toLowerCase(Locale.ROOT))) {
      return Optional.empty();
    }
    try {
      return Optional.of(((FunctionCatalog) catalog(options.catalogName())).loadFunction(ident));
    } catch (NoSuchFunctionException e) {
      return Optional.empty();
    }
  }

  /** Forgets what Iceberg's catalog cached of the table (REFRESH TABLE), when that catalog exists. */
  public void invalidate(Identifier ident) {
    TableCatalog c = catalog;
    if (c != null) {
      c.invalidateTable(ident);
    }
  }

  private TableCatalog newCatalog() {
    Map<String, String> properties = IcebergProperties.of(options, storageSettings,
        LENDS_GLUE_CLIENT ? Optional.of(lend(glue.client())) : Optional.empty());
    TableCatalog created;
    try {
      created = (TableCatalog) Class.forName(SPARK_CATALOG, true, IcebergTables.class.getClassLoader())
          .getDeclaredConstructor().newInstance();
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("gluecat catalog '" + options.catalogName() + "': cannot create Iceberg's "
          + SPARK_CATALOG, e);
    }
    // the gluecat catalog's own name: Iceberg then takes the catalog's hadoop.* options as its Hadoop settings
    // (spark.sql.catalog.<name>.hadoop.*) and names tables as the user does
    created.initialize(options.catalogName(), new CaseInsensitiveStringMap(properties));
    return created;
  }

  /**
   * A failure of Iceberg's on {@code table}, naming the table: Spark's own errors (no such table, analysis errors)
   * pass as they are, anything else (an unreadable metadata file, say) is wrapped with the table's name.
   */
  public static RuntimeException failed(String table, RuntimeException e) {
    if (e instanceof SparkThrowable) {
      return e;
    }
    return new IllegalStateException(String.format("Table %s (an Apache Iceberg table, served by Iceberg's catalog): "
        + "%s", table, e.getMessage()), e);
  }

  /** The refusal of an Iceberg table where Iceberg's Spark runtime is not on the classpath. */
  public static UnsupportedOperationException notServed(String table) {
    return notServed("Table " + table + " is an Apache Iceberg table", "Read it");
  }

  /**
   * Iceberg's catalog, for one of Iceberg's procedures ({@code CALL <catalog>.system.<name>}, Spark 4's procedure
   * catalogs), or the refusal naming the procedure where Iceberg's Spark runtime is not on the classpath.
   */
  public TableCatalog procedureCatalog(String procedure) {
    if (!AVAILABLE) {
      throw notServed("Procedure " + procedure + " is one of Apache Iceberg's procedures", "Run it");
    }
    return catalog(procedure);
  }

  private static UnsupportedOperationException notServed(String subject, String instead) {
    String version = SparkEnvironment.sparkVersion();
    String line = Optional.ofNullable(SparkLineCheck.line(version)).orElse(version);
    String tested = TESTED_RUNTIMES.get(line);
    if (tested == null) {
      return new UnsupportedOperationException(String.format("%s, which gluecat serves through Iceberg's Spark "
          + "runtime, and Apache Iceberg does not publish one for Spark %s yet. %s through another engine, or "
          + "through gluecat on Spark %s.", subject, line, instead,
          String.join(", ", new TreeSet<>(TESTED_RUNTIMES.keySet()))));
    }
    String scalaVersion = scala.util.Properties.versionNumberString();
    String scalaLine = Optional.ofNullable(SparkLineCheck.line(scalaVersion)).orElse(scalaVersion);
    return new UnsupportedOperationException(String.format("%s, which gluecat serves through Iceberg's Spark "
        + "runtime, and that is not on this session's classpath. Add "
        + "org.apache.iceberg:iceberg-spark-runtime-%s_%s:%s (and, with gluecat's runtime jar, "
        + "org.apache.iceberg:iceberg-aws-bundle:%s).", subject, line, scalaLine, tested, tested));
  }
}
