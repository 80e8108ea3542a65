package io.gluecat.files;

import io.gluecat.compat.SparkCompat;
import java.util.Optional;

/**
 * Whether Spark's DataFrameWriter itself is loading a table to write it ({@code saveAsTable} or
 * {@code insertInto}), as opposed to the analyzer resolving a SQL statement.
 *
 * <p>Why gluecat needs to know: both ask with the same {@code loadTable(ident, writePrivileges)} call.
 * SQL INSERT gets the V1Table of a file source table (Spark's V1 path writes its static and dynamic partitions),
 * or, for a partitioned Hive-compatible one, an {@link InsertTable}. DataFrameWriter, however, treats any V1Table as a table of Spark's
 * built-in catalog and writes there instead, which would bypass Glue. The only difference between the two
 * calls is the caller, so the caller is what decides; the class name is per Spark line (SparkCompat). This is the
 * one place that looks at the stack, and WriterCallTest, run on every line, fails when a Spark release moves
 * DataFrameWriter's loads.
 */
public enum WriterCall {
  SAVE_AS_TABLE,
  INSERT_INTO;

  private static final StackWalker STACK = StackWalker.getInstance();

  /** The DataFrameWriter method that called into gluecat directly, if any. */
  public static Optional<WriterCall> current() {
    return STACK.walk(frames -> frames
        .dropWhile(f -> f.getClassName().startsWith("io.gluecat."))
        .findFirst()
        .filter(f -> f.getClassName().equals(SparkCompat.DATAFRAME_WRITER_CLASS))
        .map(f -> f.getMethodName().startsWith("insertInto") ? INSERT_INTO : SAVE_AS_TABLE));
  }
}
