package io.gluecat.it;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * docs/reliability.md holds sections the reliability suites generate: each sits between
 * {@code <!-- generated:<id> -->} and {@code <!-- end:<id> -->}. A suite checks that its section matches what
 * it found, so the document cannot drift from the code; run it with {@code -Dgluecat.docs.update=true} to
 * rewrite the section instead (then review and commit the change).
 */
final class ReliabilityDoc {
  private ReliabilityDoc() {}

  static Path file() {
    String matrix = System.getProperty("gluecat.matrix.file");
    Path root = matrix != null ? Paths.get(matrix).getParent() : Paths.get("").toAbsolutePath().getParent().getParent();
    return root.resolve("docs").resolve("reliability.md");
  }

  /** Asserts (or, with gluecat.docs.update, writes) the generated section {@code id}. */
  static void check(String id, String content) {
    // both Spark lines may run at once and write their own sections of the one file (the lock file is ignored by git)
    Path lock = file().resolveSibling(".reliability.md.lock");
    try (java.nio.channels.FileChannel channel = java.nio.channels.FileChannel.open(lock,
        java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE);
        java.nio.channels.FileLock held = channel.lock()) {
      checkLocked(id, content);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void checkLocked(String id, String content) {
    Path doc = file();
    String text;
    try {
      text = Files.readString(doc, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    String begin = "<!-- generated:" + id + " -->\n";
    String end = "<!-- end:" + id + " -->";
    int from = text.indexOf(begin);
    int to = text.indexOf(end);
    assertTrue(from >= 0 && to > from, doc + " has no section " + begin.trim() + " ... " + end);
    String current = text.substring(from + begin.length(), to);
    String wanted = content.endsWith("\n") ? content : content + "\n";
    if (Boolean.getBoolean("gluecat.docs.update")) {
      try {
        Files.writeString(doc, text.substring(0, from + begin.length()) + wanted + text.substring(to),
            StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return;
    }
    assertEquals(wanted, current, "section '" + id + "' of " + doc + " differs from what the suite found; rerun "
        + "with -Dgluecat.docs.update=true to rewrite it, then review the change");
  }
}
