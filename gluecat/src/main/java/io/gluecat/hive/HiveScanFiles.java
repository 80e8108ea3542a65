package io.gluecat.hive;

import io.gluecat.InvalidGlueEntryException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.compress.CompressionCodec;
import org.apache.hadoop.io.compress.CompressionCodecFactory;

/**
 * What a Hive-format table's scan checks of the files it lists, and the Hadoop settings it lists and opens
 * them with. Kept apart from {@link HiveFormats}, which maps an entry without touching storage.
 */
final class HiveScanFiles {
  private HiveScanFiles() {}

  /**
   * File name extensions of the codecs Hive's and Trino's text readers decompress. Hadoop, as Spark's text
   * sources use it, picks a codec by extension too, but reads a file whose extension names no codec it has
   * (LZO without hadoop-lzo) as plain text: compressed bytes as rows.
   */
  private static final Map<String, String> TEXT_CODEC_EXTENSIONS = Map.of(".gz", "gzip", ".bz2", "bzip2",
      ".deflate", "deflate", ".snappy", "snappy", ".lz4", "lz4", ".zst", "zstd", ".lzo", "lzo",
      ".lzo_deflate", "lzo");

  /**
   * Refuses a text table's file that is compressed with a codec this Spark cannot decompress: one whose
   * extension names a codec Hadoop does not have here (read as plain text otherwise) or one whose native
   * library is not loaded (read failing inside the reader otherwise). Looks at names only, plus one codec
   * instantiation per codec found.
   *
   * @param partition the partition's values, for the message; null for an unpartitioned table
   */
  static void requireDecompressible(String qualified, List<String> partition,
      List<Path> files, Map<String, String> options) {
    CompressionCodecFactory codecs = null;
    Map<String, String> checked = new HashMap<>(); // codec by extension: "" when usable, else the problem
    for (Path file : files) {
      String name = file.getName();
      int dot = name.lastIndexOf('.');
      String extension = dot < 0 ? "" : name.substring(dot).toLowerCase(Locale.ROOT);
      String codecName = TEXT_CODEC_EXTENSIONS.get(extension);
      if (codecName == null) {
        continue;
      }
      if (codecs == null) {
        codecs = new CompressionCodecFactory(hadoopConf(options));
      }
      CompressionCodecFactory factory = codecs;
      String problem = checked.computeIfAbsent(extension, e -> {
        CompressionCodec codec = factory.getCodec(file);
        if (codec == null) {
          return "which Spark's Hadoop has no codec for here, so it would read the compressed bytes as text";
        }
        try {
          codec.createDecompressor(); // a native codec without its library fails here, as its reader would
          return "";
        } catch (RuntimeException | LinkageError unusable) {
          return "whose codec " + codec.getClass().getSimpleName() + " cannot decompress here ("
              + unusable.getMessage() + ")";
        }
      });
      if (!problem.isEmpty()) {
        throw new InvalidGlueEntryException(String.format("Table %s%s has the file %s, compressed with %s (by its "
            + "extension %s), %s.", qualified, partition == null ? "" : " (Glue partition " + partition + ")", file,
            codecName, extension, problem));
      }
    }
  }

  /** The Hadoop settings a scan reads with: the session's, under the table's read options (the catalog's storage). */
  static Configuration hadoopConf(Map<String, String> options) {
    Configuration conf = io.gluecat.compat.SparkCompat.newHadoopConf();
    options.forEach((k, v) -> {
      if (k != null && v != null && !k.equalsIgnoreCase("path")) {
        conf.set(k, v);
      }
    });
    return conf;
  }
}
