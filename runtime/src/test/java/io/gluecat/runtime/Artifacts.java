package io.gluecat.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Map;
import java.util.TreeMap;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/** The two jars of this row as the build left them, and a class loader that sees the runtime jar as Spark would. */
final class Artifacts {
  private Artifacts() {}

  static String property(String name) {
    String value = System.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new IllegalStateException("system property " + name + " is not set (the runtime module's failsafe sets it)");
    }
    return value;
  }

  /** The plain artifact, gluecat-spark-X: the jar this module's test classpath got it from. */
  static Path plainJar() {
    // by resource, not by loading the class (which would need Spark)
    java.net.URL url = Artifacts.class.getClassLoader().getResource("io/gluecat/GlueCatalog.class");
    if (url == null) {
      throw new IllegalStateException("the plain artifact is not on the test classpath");
    }
    String s = url.toString();
    if (!s.startsWith("jar:file:")) {
      throw new IllegalStateException("the plain artifact is not packaged: " + s + " (run at least `package`)");
    }
    try {
      return Paths.get(new java.net.URI(s.substring("jar:".length(), s.indexOf("!/"))));
    } catch (URISyntaxException e) {
      throw new IllegalStateException(s, e);
    }
  }

  /** The runtime artifact, gluecat-spark-runtime-X, as the shade and antrun steps of `package` left it. */
  static Path runtimeJar() {
    Path path = Paths.get(property("gluecat.runtime.jar"));
    if (!Files.isRegularFile(path)) {
      throw new IllegalStateException("no runtime jar at " + path);
    }
    return path;
  }

  /** Every entry of a jar, by name, with its bytes. */
  static Map<String, byte[]> entries(Path jar) {
    Map<String, byte[]> result = new TreeMap<>();
    try (JarFile file = new JarFile(jar.toFile())) {
      for (JarEntry e : java.util.Collections.list(file.entries())) {
        if (!e.isDirectory()) {
          result.put(e.getName(), file.getInputStream(e).readAllBytes());
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return result;
  }

  /**
   * A loader for the runtime jar over this test's classpath (Hadoop, the unrelocated AWS SDK) with the plain
   * artifact's {@code io.gluecat} classes hidden: the class path a Spark job with the runtime jar has.
   */
  static URLClassLoader runtimeLoader() {
    ClassLoader testLoader = Artifacts.class.getClassLoader();
    ClassLoader withoutPlainGluecat = new ClassLoader(testLoader) {
      @Override
      protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith("io.gluecat.") && !name.startsWith("io.gluecat.runtime.")
            && !name.startsWith("io.gluecat.testkit.")) {
          throw new ClassNotFoundException(name);
        }
        return super.loadClass(name, resolve);
      }

      @Override
      public URL getResource(String name) {
        return name.startsWith("io/gluecat/") ? null : super.getResource(name);
      }
    };
    try {
      return new URLClassLoader(new URL[] {runtimeJar().toUri().toURL()}, withoutPlainGluecat);
    } catch (MalformedURLException e) {
      throw new IllegalStateException(e);
    }
  }
}
