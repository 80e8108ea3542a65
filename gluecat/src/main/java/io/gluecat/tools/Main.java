package io.gluecat.tools;

import io.gluecat.tools.cli.Arguments;
import io.gluecat.tools.cli.CatalogSession;
import io.gluecat.tools.cli.UsageException;
import io.gluecat.tools.doctor.Doctor;
import io.gluecat.tools.register.Register;
import io.gluecat.tools.repair.Repair;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/**
 * gluecat's command-line tools: {@code doctor}, {@code repair} and {@code register} (docs/operations.md).
 * Exit codes: 0 clean (or done), 1 problems found (or some table not repaired/registered), 2 a usage or
 * access error, with a message naming the option, database or table.
 */
public final class Main {
  public static final int OK = 0;
  public static final int PROBLEMS = 1;
  public static final int USAGE = 2;

  static final String USAGE_TEXT = String.join("\n",
      "usage: gluecat <command> [arguments] [catalog options]",
      "",
      "commands:",
      "  doctor   <database> [<table>...] [--json]      what each reader can load, and every problem found",
      "  repair   <database> [<table>...] [--dry-run]   rewrite fixable Delta entries into gluecat's format,",
      "           [--partitions]                        add file tables' missing classification; with",
      "                                                 --partitions, also sync partitioned non-Delta tables'",
      "                                                 Glue partition objects with their directories",
      "  register <database>.<table> <location>         create the entry of an existing Delta table",
      "  register <database> --scan <prefix>            ... of every Delta table under a prefix",
      "",
      "catalog options (as spark.sql.catalog.<name>.<option>, see docs/configuration.md):",
      "  --conf <option>=<value>     e.g. --conf region=eu-west-1 --conf glue.id=123456789012",
      "  --properties-file <file>    spark.sql.catalog.<name>.* lines of a Spark properties file",
      "  --catalog <name>            which catalog of the file (and the name used in messages; default glue)",
      "",
      "exit codes: 0 clean, 1 problems found, 2 usage or access error");

  private Main() {}

  public static void main(String[] args) {
    // before anything starts Log4j: Spark's own default would log at INFO to the terminal
    if (System.getProperty("log4j2.configurationFile") == null) {
      System.setProperty("log4j2.configurationFile", "io/gluecat/tools/log4j2-tools.properties");
    }
    int code = run(Arrays.asList(args), System.out, System.err);
    System.out.flush();
    System.exit(code);
  }

  /** Runs one command; returns its exit code. Usable in-process (a test, a notebook). */
  public static int run(List<String> args, PrintStream out, PrintStream err) {
    if (args.isEmpty() || args.contains("--help") || args.contains("-h") || args.get(0).equals("help")) {
      (args.isEmpty() ? err : out).println(USAGE_TEXT);
      return args.isEmpty() ? USAGE : OK;
    }
    try {
      Arguments a = Arguments.parse(args);
      checkShape(a);
      try (CatalogSession session = new CatalogSession(a)) {
        switch (a.command()) {
          case "doctor":
            return new Doctor(session, err).run(a.positional().get(0), a.positional().subList(1, a.positional().size()),
                a.json(), out);
          case "repair":
            return new Repair(session, out, err).run(a.positional().get(0),
                a.positional().subList(1, a.positional().size()), a.dryRun(), a.partitions());
          case "register":
            return a.scan() != null ? new Register(session, out).scan(a.positional().get(0), a.scan())
                : new Register(session, out).one(a.positional().get(0), a.positional().get(1));
          default:
            throw new IllegalStateException(a.command());
        }
      }
    } catch (UsageException e) {
      err.println("gluecat: " + e.getMessage());
      if (e.getCause() == null || e.getMessage().startsWith("unknown") || e.getMessage().contains("usage")) {
        err.println("run 'gluecat --help' for usage");
      }
      return USAGE;
    }
  }

  /** The arguments each command takes; anything else is a usage error before any connection is made. */
  private static void checkShape(Arguments a) {
    int n = a.positional().size();
    switch (a.command()) {
      case "doctor":
      case "repair":
        if (n < 1) {
          throw new UsageException(a.command() + ": name a database (" + a.command() + " <database> [<table>...])");
        }
        if (a.scan() != null) {
          throw new UsageException(a.command() + ": --scan belongs to register");
        }
        if (a.command().equals("doctor") && (a.dryRun() || a.partitions())) {
          throw new UsageException("doctor: --dry-run and --partitions belong to repair");
        }
        if (a.command().equals("repair") && a.json()) {
          throw new UsageException("repair: --json belongs to doctor");
        }
        return;
      case "register":
        if (a.scan() != null ? n != 1 : n != 2) {
          throw new UsageException("register takes <database>.<table> <location>, or <database> --scan <prefix>");
        }
        if (a.json() || a.dryRun() || a.partitions()) {
          throw new UsageException("register takes no --json, --dry-run or --partitions");
        }
        return;
      default:
        throw new UsageException("unknown command '" + a.command() + "' (doctor, repair or register)");
    }
  }
}
