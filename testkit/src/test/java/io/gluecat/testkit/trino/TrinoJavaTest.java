package io.gluecat.testkit.trino;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrinoJavaTest {
  private static final String JAVA_17 = "/usr/lib/jvm/java-17-openjdk-amd64";

  @AfterEach
  void clear() {
    System.clearProperty(TrinoJava.PROPERTY);
  }

  @Test
  void findsAJavaOf24OrLaterByDefault() {
    TrinoJava.Jdk jdk = TrinoJava.find();
    assertTrue(jdk.version() >= 24, jdk.description());
    assertTrue(Files.isExecutable(jdk.java()));
  }

  @Test
  void aConfiguredJavaThatIsTooOldIsRefusedWithItsVersion() {
    System.setProperty(TrinoJava.PROPERTY, JAVA_17);
    IllegalStateException e = assertThrows(IllegalStateException.class, TrinoJava::find);
    assertTrue(e.getMessage().contains("Trino needs Java 24 or later"), e.getMessage());
    assertTrue(e.getMessage().contains("Java 17 at " + JAVA_17), e.getMessage());
  }

  @Test
  void aConfiguredJavaExecutableNamesItsHome() {
    System.setProperty(TrinoJava.PROPERTY, TrinoJava.DEFAULT_HOME + "/bin/java");
    assertEquals(Path.of(TrinoJava.DEFAULT_HOME), TrinoJava.find().home());
  }

  @Test
  void aConfiguredDirectoryThatIsNoJdkIsRefused(@TempDir Path dir) {
    System.setProperty(TrinoJava.PROPERTY, dir.toString());
    IllegalStateException e = assertThrows(IllegalStateException.class, TrinoJava::find);
    assertTrue(e.getMessage().contains("is not a JDK"), e.getMessage());
  }

  @Test
  void aStartWithTooOldAJavaFailsBeforeLaunchingAndSaysWhy() {
    System.setProperty(TrinoJava.PROPERTY, JAVA_17);
    TrinoServer.Builder builder = TrinoServer.builder().catalog("tpch_like", Map.of("connector.name", "delta_lake"));
    IllegalStateException e = assertThrows(IllegalStateException.class, builder::start);
    assertTrue(e.getMessage().contains("Java 17"), e.getMessage());
  }

  @Test
  void aCatalogNeedsAConnectorAndATrinoName() {
    assertThrows(IllegalArgumentException.class, () -> TrinoServer.builder().catalog("x", Map.of("a", "b")));
    assertThrows(IllegalArgumentException.class,
        () -> TrinoServer.builder().catalog("Bad-Name", Map.of("connector.name", "delta_lake")));
  }
}
