package io.gluecat.files;

import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import io.gluecat.storage.CatalogHadoopConf;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.catalog.CatalogColumnStat;
import org.apache.spark.sql.catalyst.catalog.CatalogStatistics;
import org.apache.spark.sql.catalyst.catalog.CatalogTable;
import org.apache.spark.sql.catalyst.expressions.Attribute;
import org.apache.spark.sql.catalyst.plans.logical.ColumnStat;
import org.apache.spark.sql.catalyst.plans.logical.LogicalPlan;
import org.apache.spark.sql.errors.QueryCompilationErrors;
import org.apache.spark.sql.execution.command.CommandUtils;
import org.apache.spark.sql.types.BinaryType;
import org.apache.spark.sql.types.BooleanType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DatetimeType;
import org.apache.spark.sql.types.DecimalType;
import org.apache.spark.sql.types.DoubleType;
import org.apache.spark.sql.types.FloatType;
import org.apache.spark.sql.types.IntegralType;
import org.apache.spark.sql.types.StringType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.math.BigInt;

/**
 * What ANALYZE TABLE computes for a file source table, as Spark's own catalog computes it (its
 * {@code AnalyzeTableCommand} and {@code AnalyzeColumnCommand}): the size of the data files, the row count, and
 * column statistics by Spark's own aggregation ({@code CommandUtils}). Only the size is measured here, because
 * Spark's measure opens the files with the session's Hadoop settings, where this table's are the catalog's.
 */
public final class FileStatistics {
  private static final Logger LOG = LoggerFactory.getLogger(FileStatistics.class);

  private FileStatistics() {}

  /**
   * The bytes of the data files under {@code locations} (the table's, or each partition's): hidden files and
   * directories ({@code _}, {@code .}, Hive's staging directory) left out, as Spark counts them. A location that
   * cannot be read counts 0, with a warning, as in Spark.
   */
  public static long size(SparkSession spark, CatalogHadoopConf hadoop, String qualified, List<String> locations) {
    String staging = spark.conf().get("hive.exec.stagingdir", ".hive-staging");
    long total = 0;
    for (String location : locations) {
      try {
        FileSystem fs = hadoop.open(qualified, location);
        Path path = new Path(location);
        total += size(fs, fs.getFileStatus(path), staging);
      } catch (IOException | RuntimeException e) {
        LOG.warn("Could not measure {} of table {}: {}", location, qualified, e.toString());
      }
    }
    return total;
  }

  private static long size(FileSystem fs, FileStatus status, String staging) throws IOException {
    if (!status.isDirectory()) {
      return status.getLen();
    }
    long bytes = 0;
    for (FileStatus child : fs.listStatus(status.getPath())) {
      String name = child.getPath().getName();
      if (!name.startsWith(staging) && !name.startsWith("_") && !name.startsWith(".")) {
        bytes += size(fs, child, staging);
      }
    }
    return bytes;
  }

  /**
   * The table's new statistics after {@code ANALYZE TABLE ... COMPUTE STATISTICS [NOSCAN]}, or empty when they
   * equal the stored ones (Spark then writes nothing).
   */
  public static Optional<CatalogStatistics> table(SparkSession spark, String qualified, CatalogTable stored,
      long size, boolean noScan) {
    scala.Option<BigInt> rows = noScan ? scala.Option.empty()
        : scala.Option.apply(BigInt.apply(spark.table(qualified).count()));
    scala.Option<CatalogStatistics> updated = CommandUtils.compareAndGetNewStats(stored.stats(), BigInt.apply(size),
        rows);
    return updated.isDefined() ? Optional.of(updated.get()) : Optional.empty();
  }

  /**
   * The table's statistics after {@code ANALYZE TABLE ... FOR COLUMNS} ({@code columns} null: FOR ALL COLUMNS):
   * its size and row count, with the columns' statistics replacing their stored ones.
   */
  public static CatalogStatistics columns(SparkSession spark, String qualified, CatalogTable stored, long size,
      List<String> columns) {
    LogicalPlan relation = spark.table(qualified).queryExecution().analyzed();
    List<Attribute> output = Scala.javaList(relation.output());
    List<Attribute> analyzed = new ArrayList<>();
    if (columns == null) {
      analyzed.addAll(output);
    } else {
      scala.Function2<String, String, Object> resolver = org.apache.spark.sql.internal.SQLConf.get().resolver();
      for (String column : columns) {
        Optional<Attribute> found = output.stream().filter(a -> (Boolean) resolver.apply(a.name(), column))
            .findFirst();
        if (found.isEmpty()) {
          throw Scala.rethrow(QueryCompilationErrors.columnNotFoundError(column));
        }
        analyzed.add(found.get());
      }
    }
    for (Attribute column : analyzed) {
      if (!supportsStatistics(column.dataType())) {
        throw Scala.rethrow(QueryCompilationErrors.columnTypeNotSupportStatisticsCollectionError(column.name(),
            stored.identifier(), column.dataType()));
      }
    }
    scala.Tuple2<Object, scala.collection.immutable.Map<Attribute, ColumnStat>> computed =
        SparkCompat.columnStatistics(spark, relation, analyzed);
    Map<String, CatalogColumnStat> columnStats = new LinkedHashMap<>(stored.stats().isDefined()
        ? Scala.javaMap(stored.stats().get().colStats()) : Map.of());
    Scala.javaMap(computed._2()).forEach((attribute, stat) ->
        columnStats.put(attribute.name(), stat.toCatalogColumnStat(attribute.name(), attribute.dataType())));
    return new CatalogStatistics(BigInt.apply(size), scala.Option.apply(BigInt.apply((Long) computed._1())),
        SparkCompat.scalaMap(columnStats));
  }

  /** The types Spark collects column statistics of (the same list as its AnalyzeColumnCommand's). */
  private static boolean supportsStatistics(DataType type) {
    return type instanceof IntegralType || type instanceof DecimalType || type instanceof DoubleType
        || type instanceof FloatType || type instanceof BooleanType || type instanceof DatetimeType
        || type instanceof BinaryType
        || type instanceof StringType;
  }
}
