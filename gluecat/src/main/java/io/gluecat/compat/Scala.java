package io.gluecat.compat;

import java.util.Arrays;
import java.util.List;
import scala.collection.JavaConverters;

/**
 * Java-to-Scala conversions that compile unchanged on Scala 2.12 and 2.13. An immutable List is a
 * scala.collection.Seq on 2.12 and a scala.collection.immutable.Seq on 2.13, so it fits Spark's
 * {@code Seq} parameters on both lines. (Maps differ between the two: see SparkCompat.)
 */
@SuppressWarnings("deprecation") // JavaConverters is deprecated on 2.13 but is the one API both lines have
public final class Scala {
  private Scala() {}

  public static <T> scala.collection.immutable.List<T> list(List<T> items) {
    return JavaConverters.asScalaBuffer(items).toList();
  }

  @SafeVarargs
  public static <T> scala.collection.immutable.List<T> list(T... items) {
    return list(Arrays.asList(items));
  }

  public static <T> List<T> javaList(scala.collection.Seq<T> seq) {
    return JavaConverters.seqAsJavaList(seq);
  }

  public static <T> java.util.Set<T> javaSet(scala.collection.Set<T> set) {
    return JavaConverters.setAsJavaSet(set);
  }

  public static <K, V> java.util.Map<K, V> javaMap(scala.collection.Map<K, V> map) {
    return JavaConverters.mapAsJavaMap(map);
  }

  /**
   * Throws {@code e} as it is (Spark's AnalysisException, built by its error builders): Scala declares no checked
   * exceptions, and Java would make it one. Returns a RuntimeException so callers can write {@code throw}.
   */
  public static RuntimeException rethrow(Throwable e) {
    throw Scala.<RuntimeException>sneaky(e);
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E sneaky(Throwable e) throws E {
    throw (E) e;
  }
}
