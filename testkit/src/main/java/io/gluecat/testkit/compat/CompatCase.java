package io.gluecat.testkit.compat;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a compatibility test as one cell of the compatibility report: which case it shows and which reader
 * reads there. {@link CompatResults} (a JUnit extension) writes the cell's outcome when the test ends.
 *
 * <p>A test of a known limit passes when the limit still holds (for example "the legacy Hive path cannot
 * create a Delta table in a database without a location") and is recorded as {@code known-limit}, with
 * {@link #limit()} saying what the limit is.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface CompatCase {
  /** A stable case id, kebab-case, e.g. {@code delta-partitioned-ctas}; the report's row. */
  String id();

  /** Who reads the table in this case, e.g. {@code trino-delta}, {@code gluecat}, {@code spark-hive-path}. */
  String reader();

  /** Who wrote the table, e.g. {@code gluecat}, {@code trino}, {@code spark-hive-path}. */
  String writer();

  /** A short description of the case for the report. */
  String title();

  /** When non-empty, the test demonstrates a known limit and this says what it is. */
  String limit() default "";

  /**
   * Where the case ran when it is not the suite's usual emulator (MiniStack, no IAM), e.g.
   * {@code moto-iam} (moto with IAM enforced, the catalog under a role of docs/iam/); the report puts such
   * cells in a table of their own under the matrix row. Empty for the usual backend.
   */
  String backend() default "";
}
