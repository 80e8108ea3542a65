package io.gluecat.testkit.compat;

import io.gluecat.testkit.SdkJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Records the outcome of every {@link CompatCase} test as one JSON line in
 * {@code target/compat-results/<test class>.jsonl} of the module that runs it; the compatibility report is
 * generated from these files. Register it with {@code @ExtendWith(CompatResults.class)}.
 *
 * <p>Fields of a line: {@code row} (the matrix row, system property {@code gluecat.matrix.row}),
 * {@code suite} (simple class name), {@code case}, {@code title}, {@code writer}, {@code reader},
 * {@code mode} ({@code named}, {@code session} or {@code -}; from {@link CatalogModeAware}, else from a
 * "named"/"session" in the test's display name), {@code result} ({@code pass}, {@code fail},
 * {@code known-limit}), {@code limit}, {@code test} ({@code <class>#<method>}), {@code message} (the failure's
 * first line, when it failed), {@code backend} (only when {@link CompatCase#backend()} names one) and
 * {@code runtime} (only for a {@link RuntimePairAware} test: the AWS runtime pair it ran on). A skipped
 * or aborted test records nothing.
 */
public final class CompatResults implements TestWatcher {

  /** A test class that runs in one catalog mode says which. */
  public interface CatalogModeAware {
    /** {@code named} or {@code session}. */
    String catalogMode();
  }

  /**
   * A test class that runs on one of the AWS runtimes' Spark and Delta pairs (matrix.yaml, a row's
   * {@code runtimes:}) says which; its cells go to the row's runtime table, one column per pair and mode.
   */
  public interface RuntimePairAware {
    /** The pair's id in matrix.yaml, e.g. {@code glue-6.0}. */
    String runtimePair();

    /**
     * The known limit case {@code caseId} shows on this pair, empty when it has none: a passing test of a case
     * with a limit here asserted that the limit holds, and is recorded as a known limit with this text.
     */
    default String limitOf(String caseId) {
      return "";
    }
  }

  /**
   * A test class whose cases show a known limit on some rows only (the row this JVM runs) says which; a passing
   * test of such a case asserted that the limit holds, and is recorded as a known limit with this text.
   */
  public interface RowLimits {
    /** The known limit case {@code caseId} shows on this row, empty when it has none. */
    String limitOf(String caseId);
  }

  /** Where results go: {@code gluecat.compat.results.dir}, else {@code target/compat-results}. */
  public static Path directory() {
    return Paths.get(System.getProperty("gluecat.compat.results.dir", "target/compat-results"));
  }

  @Override
  public void testSuccessful(ExtensionContext context) {
    case_(context).ifPresent(c -> write(context, c, limit(context, c).isEmpty() ? "pass" : "known-limit", null));
  }

  @Override
  public void testFailed(ExtensionContext context, Throwable cause) {
    case_(context).ifPresent(c -> write(context, c, "fail", String.valueOf(cause).split("\n", 2)[0]));
  }

  private static Optional<CompatCase> case_(ExtensionContext context) {
    return context.getTestMethod().map(m -> m.getAnnotation(CompatCase.class));
  }

  private static String limit(ExtensionContext context, CompatCase c) {
    Optional<Object> instance = context.getTestInstance();
    if (c.limit().isEmpty() && instance.isPresent() && instance.get() instanceof RuntimePairAware) {
      return ((RuntimePairAware) instance.get()).limitOf(c.id());
    }
    if (c.limit().isEmpty() && instance.isPresent() && instance.get() instanceof RowLimits) {
      return ((RowLimits) instance.get()).limitOf(c.id());
    }
    return c.limit();
  }

  private static void write(ExtensionContext context, CompatCase c, String result, String message) {
    Method method = context.getRequiredTestMethod();
    Class<?> testClass = context.getRequiredTestClass();
    Map<String, String> line = new LinkedHashMap<>();
    line.put("row", System.getProperty("gluecat.matrix.row", "-"));
    line.put("suite", testClass.getSimpleName());
    line.put("case", c.id());
    line.put("title", c.title());
    line.put("writer", c.writer());
    line.put("reader", c.reader());
    line.put("mode", mode(context));
    line.put("result", result);
    line.put("limit", limit(context, c));
    line.put("test", testClass.getName() + "#" + method.getName());
    if (message != null) {
      line.put("message", message);
    }
    if (!c.backend().isEmpty()) {
      line.put("backend", c.backend());
    }
    context.getTestInstance().filter(RuntimePairAware.class::isInstance)
        .ifPresent(i -> line.put("runtime", ((RuntimePairAware) i).runtimePair()));
    try {
      Path dir = directory();
      Files.createDirectories(dir);
      Files.writeString(dir.resolve(testClass.getSimpleName() + ".jsonl"), toJson(line) + "\n",
          StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new UncheckedIOException("could not record the compatibility result of " + line.get("test"), e);
    }
  }

  private static String mode(ExtensionContext context) {
    Optional<Object> instance = context.getTestInstance();
    if (instance.isPresent() && instance.get() instanceof CatalogModeAware) {
      return ((CatalogModeAware) instance.get()).catalogMode();
    }
    String display = context.getDisplayName().toLowerCase(java.util.Locale.ROOT);
    if (display.contains("session")) {
      return "session";
    }
    return display.contains("named") ? "named" : "-";
  }

  static String toJson(Map<String, String> fields) {
    StringBuilder b = new StringBuilder("{");
    fields.forEach((k, v) -> {
      if (b.length() > 1) {
        b.append(',');
      }
      b.append(SdkJson.quoted(k)).append(':').append(SdkJson.quoted(v));
    });
    return b.append('}').toString();
  }
}
