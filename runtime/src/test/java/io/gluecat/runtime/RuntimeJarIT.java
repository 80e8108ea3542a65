package io.gluecat.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * What the two jars of this row contain. The plain jar is gluecat's classes only (its dependencies are declared
 * in its pom); the runtime jar adds the AWS SDK modules gluecat needs and their own dependencies, every one
 * relocated under {@code io.gluecat.shaded}, except the S3A-facing credentials providers, which S3A checks
 * against the SDK it sees itself and which are therefore kept exactly as compiled. Neither contains anything
 * of Spark, Delta, Hadoop or Scala.
 */
class RuntimeJarIT {
  private static final String SHADED = "io/gluecat/shaded/";
  /** The classes S3A loads by name (the shade filter and the antrun step of runtime/pom.xml use the same pattern). */
  private static final Pattern S3A_FACING = Pattern.compile("io/gluecat/s3a/[^/$]*CredentialsProvider\\.class");
  /** Packages a user's Spark installation provides; a jar carrying any of them would fight it. */
  private static final List<String> PROVIDED = List.of("org/apache/spark/", "io/delta/", "org/apache/hadoop/",
      "scala/", "org/slf4j/", "org/apache/log4j/", "org/apache/logging/", "com/fasterxml/", "io/netty/");
  /** Packages the runtime jar carries relocated only. */
  private static final List<String> RELOCATED = List.of("software/amazon/awssdk/", "software/amazon/eventstream/",
      "org/reactivestreams/", "org/apache/hc/");

  @Test
  void thePlainJarHoldsGluecatClassesOnly() {
    Map<String, byte[]> plain = Artifacts.entries(Artifacts.plainJar());
    List<String> foreign = plain.keySet().stream()
        .filter(n -> n.endsWith(".class") && !n.startsWith("io/gluecat/"))
        .collect(Collectors.toList());
    assertEquals(List.of(), foreign, "classes outside io.gluecat in the plain jar");
    assertFalse(plain.keySet().stream().anyMatch(n -> n.startsWith(SHADED)), "the plain jar holds relocated classes");
    assertTrue(plain.containsKey("io/gluecat/GlueCatalog.class"));
  }

  @Test
  void theRuntimeJarHoldsNothingOfSparkDeltaHadoopOrScala() {
    Set<String> names = Artifacts.entries(Artifacts.runtimeJar()).keySet();
    for (String provided : PROVIDED) {
      List<String> hits = names.stream().filter(n -> n.startsWith(provided)).limit(5).collect(Collectors.toList());
      assertEquals(List.of(), hits, "the runtime jar carries " + provided);
    }
    List<String> foreign = names.stream()
        .filter(n -> n.endsWith(".class") && !n.startsWith("io/gluecat/") && !n.startsWith("META-INF/versions/"))
        .limit(10).collect(Collectors.toList());
    assertEquals(List.of(), foreign, "classes outside io.gluecat in the runtime jar: an unrelocated dependency");
    for (String relocated : RELOCATED) {
      assertTrue(names.stream().noneMatch(n -> n.startsWith(relocated) || n.startsWith("META-INF/versions/")
          && n.contains("/" + relocated)), relocated + " is in the runtime jar unrelocated");
    }
  }

  @Test
  void theRuntimeJarCarriesTheSdkRelocated() {
    Set<String> names = Artifacts.entries(Artifacts.runtimeJar()).keySet();
    for (String cls : List.of("software/amazon/awssdk/services/glue/GlueClient.class",
        "software/amazon/awssdk/services/sts/StsClient.class",
        "software/amazon/awssdk/http/apache5/Apache5HttpClient.class",
        "org/apache/hc/client5/http/impl/classic/CloseableHttpClient.class",
        "org/reactivestreams/Publisher.class")) {
      assertTrue(names.contains(SHADED + cls), SHADED + cls + " is missing");
    }
    // the SDK finds its HTTP client through ServiceLoader: the service file must be relocated with it
    assertTrue(names.contains("META-INF/services/io.gluecat.shaded.software.amazon.awssdk.http.SdkHttpService"));
    assertFalse(names.contains("META-INF/services/software.amazon.awssdk.http.SdkHttpService"));
  }

  @Test
  void bothJarsRegisterTheExtensionCheckWithSpark() {
    // Spark loads it for every session (docs/extensions.md, "Without the extension"); Spark is not relocated
    String service = "META-INF/services/org.apache.spark.sql.SparkSessionExtensionsProvider";
    for (Path jar : List.of(Artifacts.runtimeJar(), Artifacts.plainJar())) {
      byte[] listed = Artifacts.entries(jar).get(service);
      assertNotNull(listed, jar + " has no " + service);
      assertEquals("io.gluecat.extensions.ExtensionRequiredCheck",
          new String(listed, StandardCharsets.UTF_8).trim(), jar.toString());
    }
  }

  @Test
  void gluecatClassesReferToTheSdkOnlyRelocated() {
    Map<String, byte[]> runtime = Artifacts.entries(Artifacts.runtimeJar());
    List<String> unrelocated = new ArrayList<>();
    for (Map.Entry<String, byte[]> e : runtime.entrySet()) {
      String name = e.getKey();
      if (!name.endsWith(".class") || S3A_FACING.matcher(name).matches()) {
        continue;
      }
      String text = new String(e.getValue(), StandardCharsets.ISO_8859_1);
      for (String pkg : RELOCATED) {
        for (String form : List.of(pkg, pkg.replace('/', '.'))) {
          for (int i = text.indexOf(form); i >= 0; i = text.indexOf(form, i + 1)) {
            String before = text.substring(Math.max(0, i - SHADED.length()), i);
            char previous = i > 0 ? text.charAt(i - 1) : 0;
            boolean prose = previous == ' ' || previous == '\'';   // a name inside a message, not a reference
            if (!prose && !before.equals(SHADED) && !before.equals(SHADED.replace('/', '.'))) {
              unrelocated.add(name + " -> " + form);
              break;
            }
          }
        }
      }
    }
    assertEquals(List.of(), unrelocated.stream().distinct().limit(20).collect(Collectors.toList()),
        "classes of the runtime jar that name an unrelocated dependency");
  }

  @Test
  void theS3aFacingProvidersAreKeptExactlyAsCompiled() {
    Map<String, byte[]> plain = Artifacts.entries(Artifacts.plainJar());
    Map<String, byte[]> runtime = Artifacts.entries(Artifacts.runtimeJar());
    Set<String> facing = plain.keySet().stream().filter(n -> S3A_FACING.matcher(n).matches())
        .collect(Collectors.toCollection(TreeSet::new));
    assertTrue(facing.contains("io/gluecat/s3a/CatalogCredentialsProvider.class"), facing.toString());
    for (String name : facing) {
      assertTrue(runtime.containsKey(name), name + " is missing from the runtime jar");
      assertArrayEquals(plain.get(name), runtime.get(name), name + " differs from the plain jar's (relocated?)");
    }
    // every other gluecat class is in both jars (relocation rewrites their bytes, so only the names are compared)
    Set<String> plainGluecat = plain.keySet().stream().filter(n -> n.startsWith("io/gluecat/") && n.endsWith(".class"))
        .collect(Collectors.toCollection(TreeSet::new));
    Set<String> runtimeGluecat = runtime.keySet().stream()
        .filter(n -> n.startsWith("io/gluecat/") && !n.startsWith(SHADED) && n.endsWith(".class"))
        .collect(Collectors.toCollection(TreeSet::new));
    assertEquals(plainGluecat, runtimeGluecat);
  }

  @Test
  void bothArtifactsHaveSourcesAndJavadocJars() throws Exception {
    Path plain = Artifacts.plainJar();
    String base = plain.getFileName().toString().replaceAll("\\.jar$", "");
    Path sources = plain.resolveSibling(base + "-sources.jar");
    Path javadoc = plain.resolveSibling(base + "-javadoc.jar");
    assertTrue(Artifacts.entries(sources).containsKey("io/gluecat/GlueCatalog.java"), sources.toString());
    assertTrue(Artifacts.entries(javadoc).containsKey("io/gluecat/GlueCatalog.html"), javadoc.toString());
    // the runtime artifact attaches copies of them (same API)
    Path api = Artifacts.runtimeJar().resolveSibling("api");
    assertArrayEquals(Files.readAllBytes(sources), Files.readAllBytes(api.resolve(sources.getFileName())));
    assertArrayEquals(Files.readAllBytes(javadoc), Files.readAllBytes(api.resolve(javadoc.getFileName())));
  }
}
