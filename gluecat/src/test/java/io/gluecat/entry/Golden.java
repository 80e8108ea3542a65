package io.gluecat.entry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.gluecat.testkit.SdkJson;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Compares a Glue entry with a golden file under gluecat/src/test/resources/golden. On a difference the
 * actual entry is written to target/golden-actual/ for review; with -Dgluecat.golden.update=true it
 * replaces the golden file (review the diff before committing it).
 */
public final class Golden {
  private Golden() {}

  public static void assertMatches(String name, Object entry) {
    String actual = SdkJson.toJson(entry);
    String resource = "/golden/" + name + ".json";
    if (Boolean.getBoolean("gluecat.golden.update")) {
      // the repository root is where matrix.yaml is (the build passes its path)
      Path root = Paths.get(System.getProperty("gluecat.matrix.file", "matrix.yaml")).toAbsolutePath().getParent();
      write(root.resolve(Paths.get("gluecat", "src", "test", "resources", "golden", name + ".json")), actual);
      return;
    }
    String expected;
    try (InputStream in = Golden.class.getResourceAsStream(resource)) {
      assertNotNull(in, "no golden file " + resource + " (run with -Dgluecat.golden.update=true to create it)");
      expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
    if (!expected.equals(actual)) {
      write(Paths.get("target", "golden-actual", name + ".json"), actual);
    }
    assertEquals(expected, actual, "Glue entry differs from golden file " + resource);
  }

  private static void write(Path path, String content) {
    try {
      Files.createDirectories(path.getParent());
      Files.writeString(path, content);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }
}
