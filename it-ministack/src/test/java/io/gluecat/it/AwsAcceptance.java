package io.gluecat.it;

import io.gluecat.tools.Main;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.sts.StsClient;
import software.amazon.awssdk.services.sts.auth.StsAssumeRoleCredentialsProvider;

/**
 * The acceptance run behind bin/aws-acceptance: gluecat's journeys against the Glue account and region, and the
 * warehouse, the caller names, with the caller's own credentials (the AWS SDK's default chain: environment,
 * profile, instance role). In a database of its own with a random suffix it runs a writer's statements (a Delta
 * CTAS, a partitioned Hive-compatible table and its Glue partitions, a view, ALTER), a reader's (SHOW, DESCRIBE,
 * SELECT), and {@code gluecat doctor}, one line per step, then removes every table, view, database and file it
 * made, also when a step failed. Exit code: 0 all passed, 1 a step failed, 2 usage, 3 not run (no credentials).
 *
 * <pre>bin/aws-acceptance --region eu-west-1 --warehouse s3a://my-bucket/gluecat-acceptance [--conf key=value]...</pre>
 * {@code --conf} adds catalog options (glue.id, role.arn, glue.endpoint, hadoop.fs.s3a.*, ...).
 */
public final class AwsAcceptance {
  public static final int PASSED = 0;
  public static final int FAILED = 1;
  public static final int USAGE = 2;
  public static final int NOT_RUN = 3;
  static final String CATALOG = "acceptance";

  private final SparkSession spark;
  private final Map<String, String> options;
  private final String warehouse;
  private final PrintStream out;
  private final String db;
  private final List<String> failures = new ArrayList<>();
  private int steps;

  AwsAcceptance(SparkSession spark, Map<String, String> options, PrintStream out) {
    this.spark = spark;
    this.options = options;
    this.warehouse = options.get("warehouse").replaceAll("/+$", "");
    this.out = out;
    this.db = "gluecat_acceptance_" + Long.toString(Math.abs(new Random().nextLong()), 36);
  }

  public static void main(String[] args) {
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String value = i + 1 < args.length ? args[i + 1] : null;
      switch (args[i]) {
        case "--region" -> { options.put("region", value); i++; }
        case "--warehouse" -> { options.put("warehouse", value); i++; }
        case "--conf" -> {
          if (value == null || !value.contains("=")) {
            usage("--conf takes key=value");
          }
          options.put(value.substring(0, value.indexOf('=')), value.substring(value.indexOf('=') + 1));
          i++;
        }
        default -> usage("unknown argument " + args[i]);
      }
    }
    if (options.get("region") == null || options.get("warehouse") == null) {
      usage("--region and --warehouse are required");
    }
    if (identity(options, System.out) == null) {
      System.exit(NOT_RUN); // before Spark starts: without credentials nothing would work
    }
    SparkSession spark = SparkSession.builder().master("local[2]").appName("gluecat-aws-acceptance")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.sql.extensions", "io.gluecat.extensions.GlueCatalogExtensions,"
            + "io.delta.sql.DeltaSparkSessionExtension")
        .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
        .getOrCreate();
    spark.sparkContext().setLogLevel("ERROR");
    int code = run(spark, options, System.out);
    spark.stop();
    System.exit(code);
  }

  private static void usage(String problem) {
    System.err.println("aws-acceptance: " + problem + "\nusage: bin/aws-acceptance --region <region> --warehouse "
        + "s3a://<bucket>/<prefix> [--conf <catalog option>=<value>]...");
    System.exit(USAGE);
  }

  /** Runs every step with a catalog of {@code options} registered in {@code spark}; returns the exit code. */
  public static int run(SparkSession spark, Map<String, String> options, PrintStream out) {
    AwsAcceptance run = new AwsAcceptance(spark, options, out);
    String identity = identity(options, out);
    if (identity == null) {
      return NOT_RUN;
    }
    out.println("[aws-acceptance] as " + identity + ", region " + options.get("region") + ", warehouse "
        + run.warehouse + ", database " + run.db);
    return run.steps();
  }

  private int steps() {
    options.forEach((k, v) -> spark.conf().set("spark.sql.catalog." + CATALOG + "." + k, v));
    spark.conf().set("spark.sql.catalog." + CATALOG, "io.gluecat.GlueCatalog");
    String c = CATALOG + "." + db;
    String location = warehouse + "/" + db + ".db";
    try {
      step("create database", () -> sql("CREATE NAMESPACE " + c + " LOCATION '" + location + "'"));
      step("Delta CTAS", () -> {
        sql("CREATE TABLE " + c + ".orders USING delta AS SELECT id, CAST(id * 10 AS DECIMAL(10,2)) AS amount "
            + "FROM range(5)");
        sql("INSERT INTO " + c + ".orders VALUES (5, 50.00)");
        expect("6", sql("SELECT count(*) FROM " + c + ".orders").get(0).get(0).toString());
      });
      step("partitioned Hive-compatible table and its Glue partitions", () -> {
        sql("CREATE TABLE " + c + ".events (id BIGINT, day STRING) USING parquet PARTITIONED BY (day)");
        spark.sql("SELECT id, CASE WHEN id < 2 THEN '2026-12-01' ELSE '2026-12-02' END AS day FROM range(4)")
            .write().insertInto(c + ".events");
        try (GlueClient glue = glue()) {
          expect("2", String.valueOf(glue.getPartitions(r -> r.catalogId(options.get("glue.id")).databaseName(db)
              .tableName("events")).partitions().size()));
        }
      });
      step("view", () -> {
        sql("CREATE VIEW " + c + ".big_orders AS SELECT id, amount FROM " + c + ".orders WHERE amount >= 30");
        expect("3", sql("SELECT count(*) FROM " + c + ".big_orders").get(0).get(0).toString());
      });
      step("ALTER TABLE", () -> sql("ALTER TABLE " + c + ".orders ADD COLUMNS (note STRING)"));
      step("reader: SHOW, DESCRIBE, SELECT", () -> {
        List<String> tables = sql("SHOW TABLES IN " + c).stream().map(r -> r.getString(1)).toList();
        expect("true", String.valueOf(tables.containsAll(List.of("events", "orders"))));
        sql("DESCRIBE TABLE " + c + ".events");
        expect("2", sql("SELECT count(DISTINCT day) FROM " + c + ".events").get(0).get(0).toString());
        expect("[0,0.00,null]", sql("SELECT * FROM " + c + ".orders ORDER BY id LIMIT 1").get(0).toString());
      });
      step("gluecat doctor", () -> {
        List<String> args = new ArrayList<>(List.of("doctor", db));
        options.forEach((k, v) -> {
          args.add("--conf");
          args.add(k + "=" + v);
        });
        ByteArrayOutputStream report = new ByteArrayOutputStream();
        int code = Main.run(args, new PrintStream(report, true, StandardCharsets.UTF_8), System.err);
        if (code != Main.OK) {
          throw new IllegalStateException("doctor exited " + code + ":\n" + report.toString(StandardCharsets.UTF_8));
        }
      });
    } finally {
      cleanUp(c, location);
    }
    out.println("[aws-acceptance] " + (steps - failures.size()) + " of " + steps + " steps passed"
        + (failures.isEmpty() ? "" : "; failed: " + String.join(", ", failures)));
    return failures.isEmpty() ? PASSED : FAILED;
  }

  /** Removes what the run made: the view, the tables, the database (Glue), then the files (storage). */
  private void cleanUp(String c, String location) {
    List<String> left = new ArrayList<>();
    for (String statement : List.of("DROP VIEW IF EXISTS " + c + ".big_orders", "DROP TABLE IF EXISTS " + c
        + ".events", "DROP TABLE IF EXISTS " + c + ".orders", "DROP NAMESPACE IF EXISTS " + c + " CASCADE")) {
      try {
        sql(statement);
      } catch (RuntimeException e) {
        left.add(statement + " (" + e.getMessage().lines().findFirst().orElse("") + ")");
      }
    }
    try {
      Path path = new Path(location);
      path.getFileSystem(spark.sessionState().newHadoopConf()).delete(path, true);
    } catch (Exception e) {
      left.add("delete " + location + " (" + e + ")");
    }
    out.println("[aws-acceptance] clean-up " + (left.isEmpty() ? "OK: nothing left" : "INCOMPLETE, remove by hand: "
        + String.join("; ", left)));
    if (!left.isEmpty()) {
      failures.add("clean-up");
    }
  }

  private void step(String name, Runnable body) {
    steps++;
    long start = System.nanoTime();
    try {
      body.run();
      out.printf("[aws-acceptance] %-58s OK   %5.1f s%n", name, (System.nanoTime() - start) / 1e9);
    } catch (RuntimeException | AssertionError e) {
      failures.add(name);
      out.printf("[aws-acceptance] %-58s FAIL %5.1f s: %s%n", name, (System.nanoTime() - start) / 1e9,
          String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
    }
  }

  private static void expect(String expected, String actual) {
    if (!expected.equals(actual)) {
      throw new AssertionError("expected " + expected + ", got " + actual);
    }
  }

  private List<Row> sql(String statement) {
    return spark.sql(statement).collectAsList();
  }

  /** Who the default credential chain is (STS GetCallerIdentity), or null after saying why the run cannot be. */
  private static String identity(Map<String, String> options, PrintStream out) {
    try {
      return callerIdentity(options);
    } catch (RuntimeException e) {
      out.println("[aws-acceptance] did not run: no usable AWS credentials (" + e.getClass().getSimpleName() + ": "
          + String.valueOf(e.getMessage()).lines().findFirst().orElse("") + "). Set AWS_PROFILE, or "
          + "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, and run again.");
      return null;
    }
  }

  private static String callerIdentity(Map<String, String> options) {
    try (StsClient sts = StsClient.builder().region(Region.of(options.get("region")))
        .applyMutation(endpointIfNamed(options.getOrDefault("sts.endpoint", options.get("glue.endpoint"))))
        .build()) {
      return sts.getCallerIdentity().arn();
    }
  }

  /**
   * A Glue client with the catalog's identity: its role when it has one (a cross-account catalog's base
   * credentials may reach no Glue at all), else the default chain.
   */
  private GlueClient glue() {
    software.amazon.awssdk.services.glue.GlueClientBuilder builder = GlueClient.builder().region(Region.of(options.get("region")))
        .applyMutation(endpointIfNamed(options.get("glue.endpoint")));
    String role = options.get("role.arn");
    if (role != null) {
      StsClient sts = StsClient.builder().region(Region.of(options.get("region")))
          .applyMutation(endpointIfNamed(options.get("sts.endpoint"))).build();
      builder.credentialsProvider(StsAssumeRoleCredentialsProvider.builder().stsClient(sts)
          .refreshRequest(r -> r.roleArn(role).roleSessionName(options.getOrDefault("role.session-name",
              "gluecat-acceptance")).externalId(options.get("role.external-id"))).build());
    }
    return builder.build();
  }

  /** Points a client at the endpoint the caller named (moto, MiniStack); without one, at AWS's own. */
  private static <B extends software.amazon.awssdk.awscore.client.builder.AwsClientBuilder<B, ?>>
      java.util.function.Consumer<B> endpointIfNamed(String endpoint) {
    return builder -> {
      if (endpoint != null) {
        builder.endpointOverride(java.net.URI.create(endpoint));
      }
    };
  }
}
