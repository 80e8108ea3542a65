package io.gluecat.hive;

import com.univocity.parsers.csv.CsvParser;
import io.gluecat.compat.SparkCompat;
import java.io.IOException;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.csv.CSVOptions;
import org.apache.spark.sql.catalyst.csv.UnivocityParser;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.execution.datasources.HadoopFileLinesReader;
import org.apache.spark.sql.execution.datasources.PartitionedFile;
import org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex;
import org.apache.spark.sql.execution.datasources.v2.FilePartitionReaderFactory;
import org.apache.spark.sql.execution.datasources.v2.FileScanBuilder;
import org.apache.spark.sql.execution.datasources.v2.PartitionReaderWithPartitionValues;
import org.apache.spark.sql.execution.datasources.v2.csv.CSVScan;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.unsafe.types.UTF8String;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Spark's csv scan with the text SerDes' empty and null fields. Spark's csv parser reads an empty unquoted field
 * as its null value, so it cannot tell an empty string from a null, and its line reader skips a line that trims
 * to nothing; Hive's text SerDes do neither: LazySimpleSerDe reads null only where a field is the entry's null
 * format ({@code serialization.null.format}, {@code \N} unset) and an empty field of a string column as an empty
 * string; OpenCSVSerde has no null at all, every field is a string and an empty one is an empty string. Both read
 * an empty field of a column of another type (Athena's typed OpenCSVSerde columns) as null. So each line of the
 * files is a row, split by Spark's csv parser with no null value but the null format, and the declared types are
 * applied afterwards by Spark's own csv conversions.
 */
final class HiveTextFields {
  private HiveTextFields() {}

  /** A csv scan builder as Spark's, whose scans read fields as the text SerDes do. */
  static final class Builder extends FileScanBuilder {
    private final SparkSession spark;
    private final PartitioningAwareFileIndex index;
    private final StructType dataSchema;
    private final CaseInsensitiveStringMap options;
    private final String nullFormat;

    /** @param nullFormat the field that reads as null; null for none (OpenCSVSerde) */
    Builder(SparkSession spark, PartitioningAwareFileIndex index, StructType dataSchema,
        CaseInsensitiveStringMap options, String nullFormat) {
      super(spark, index, dataSchema);
      this.spark = spark;
      this.index = index;
      this.dataSchema = dataSchema;
      this.options = options;
      this.nullFormat = nullFormat;
    }

    @Override
    public Scan build() {
      return new TextScan(spark, index, dataSchema, readDataSchema(), readPartitionSchema(), options,
          this, nullFormat);
    }

    /** No data filter goes into the reader; Spark filters the rows it returns. */
    @Override
    public Filter[] pushDataFilters(Filter[] dataFilters) {
      return new Filter[0];
    }
  }

  /** Spark's csv scan, whose readers read lines and fields as the text SerDes do. */
  static final class TextScan extends CSVScan {
    private final String nullFormat;

    TextScan(SparkSession spark, PartitioningAwareFileIndex index, StructType dataSchema, StructType readDataSchema,
        StructType readPartitionSchema, CaseInsensitiveStringMap options, FileScanBuilder builder,
        String nullFormat) {
      super(spark, index, dataSchema, readDataSchema, readPartitionSchema, options, new Filter[0],
          builder.partitionFilters(), builder.dataFilters());
      this.nullFormat = nullFormat;
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
      Map<String, String> settings = options().asCaseSensitiveMap();
      org.apache.spark.broadcast.Broadcast<SerializableConfiguration> broadcast =
          ScanHadoopConf.broadcast(sparkSession(), settings);
      SQLConf sql = SQLConf.get();
      scala.collection.immutable.Map<String, String> scalaSettings = SparkCompat.scalaMap(settings);
      CSVOptions typed = new CSVOptions(scalaSettings, sql.csvColumnPruning(), sql.sessionLocalTimeZone(),
          sql.columnNameOfCorruptRecord());
      StringFields strings = new StringFields(scalaSettings, sql.csvColumnPruning(), sql.sessionLocalTimeZone(),
          sql.columnNameOfCorruptRecord());
      return new Factory(broadcast, dataSchema(), readDataSchema(), readPartitionSchema(), strings, typed, nullFormat);
    }

    // CSVScan is a case class: a scan of another null format is another scan
    @Override
    public boolean equals(Object other) {
      return other instanceof TextScan t && super.equals(other) && java.util.Objects.equals(nullFormat, t.nullFormat);
    }

    @Override
    public int hashCode() {
      return super.hashCode();
    }
  }

  /**
   * Spark's csv options whose parser reads an empty field, quoted or not, as an empty string, and an empty line as
   * a line. Sent to executors.
   */
  static final class StringFields extends CSVOptions {
    private static final long serialVersionUID = 1L;

    StringFields(scala.collection.immutable.Map<String, String> options, boolean columnPruning, String timeZone,
        String corruptColumn) {
      super(options, columnPruning, timeZone, corruptColumn);
    }

    @Override
    public com.univocity.parsers.csv.CsvParserSettings asParserSettings() {
      com.univocity.parsers.csv.CsvParserSettings parser = super.asParserSettings();
      parser.setNullValue("");
      parser.setEmptyValue("");
      parser.setSkipEmptyLines(false);
      return parser;
    }
  }

  /**
   * One reader a file: Hadoop's lines, as Spark's csv source reads them, split by the SerDe's parser and converted
   * to the declared types. Every line is a row, as in Hive: Spark's csv source would skip a line that trims to
   * nothing, which with Hive's \001 delimiter is a row of empty strings.
   */
  static final class Factory extends FilePartitionReaderFactory {
    private static final long serialVersionUID = 1L;
    private final org.apache.spark.broadcast.Broadcast<SerializableConfiguration> conf;
    private final StructType dataSchema;
    private final StructType readDataSchema;
    private final StructType partitionSchema;
    private final StringFields strings;
    private final CSVOptions typed;
    private final String nullFormat;

    Factory(org.apache.spark.broadcast.Broadcast<SerializableConfiguration> conf, StructType dataSchema,
        StructType readDataSchema, StructType partitionSchema, StringFields strings, CSVOptions typed,
        String nullFormat) {
      this.conf = conf;
      this.dataSchema = dataSchema;
      this.readDataSchema = readDataSchema;
      this.partitionSchema = partitionSchema;
      this.strings = strings;
      this.typed = typed;
      this.nullFormat = nullFormat;
    }

    @Override
    public org.apache.spark.sql.catalyst.FileSourceOptions options() {
      return typed;
    }

    @Override
    public PartitionReader<InternalRow> buildReader(PartitionedFile file) {
      HadoopFileLinesReader lines = new HadoopFileLinesReader(file, strings.lineSeparatorInRead(), conf.value().value());
      return new PartitionReaderWithPartitionValues(new Lines(lines, file.start() == 0 && strings.headerFlag(), this),
          readDataSchema, partitionSchema, file.partitionValues());
    }
  }

  /** One file split's rows, with the declared types. */
  private static final class Lines implements PartitionReader<InternalRow> {
    private final HadoopFileLinesReader lines;
    private final CsvParser tokenizer;
    private final java.nio.charset.Charset charset;
    private final int[] positions;
    private final StructType data;
    private final String nullFormat;
    private final scala.Function1<String, Object>[] converters;
    private boolean skipHeader;
    private InternalRow current;

    @SuppressWarnings("unchecked")
    Lines(HadoopFileLinesReader lines, boolean skipHeader, Factory factory) {
      this.lines = lines;
      this.skipHeader = skipHeader;
      this.tokenizer = new CsvParser(factory.strings.asParserSettings());
      this.charset = java.nio.charset.Charset.forName(factory.strings.charset());
      this.data = factory.readDataSchema;
      this.nullFormat = factory.nullFormat;
      this.positions = new int[data.length()];
      this.converters = new scala.Function1[data.length()];
      UnivocityParser parser = null;
      for (int i = 0; i < data.length(); i++) {
        StructField f = data.fields()[i];
        positions[i] = factory.dataSchema.fieldIndex(f.name());
        if (!(f.dataType() instanceof StringType)) {
          if (parser == null) {
            parser = new UnivocityParser(data, data, factory.typed);
          }
          converters[i] = parser.makeConverter(f.name(), f.dataType(), true);
        }
      }
    }

    @Override
    public boolean next() {
      if (skipHeader) { // skip.header.line.count = 1: the first line of each file
        skipHeader = false;
        if (lines.hasNext()) {
          lines.next();
        }
      }
      if (!lines.hasNext()) {
        return false;
      }
      org.apache.hadoop.io.Text line = lines.next();
      String text = new String(line.getBytes(), 0, line.getLength(), charset);
      String[] fields = text.isEmpty() ? null : tokenizer.parseLine(text);
      if (fields == null) { // an empty line: one empty field, the rest missing
        fields = new String[] {""};
      }
      Object[] values = new Object[data.length()];
      for (int i = 0; i < values.length; i++) {
        int at = positions[i];
        values[i] = at < fields.length && fields[at] != null ? field(i, fields[at]) : null;
      }
      current = new GenericInternalRow(values);
      return true;
    }

    @Override
    public InternalRow get() {
      return current;
    }

    /**
     * A field as the text SerDes read it: the null format is null; in a column that is not a string an empty field
     * is null too, and a value the type does not parse.
     */
    private Object field(int i, String value) {
      if (value.equals(nullFormat)) {
        return null;
      }
      if (converters[i] == null) {
        return UTF8String.fromString(value);
      }
      if (value.isEmpty()) {
        return null;
      }
      try {
        return converters[i].apply(value);
      } catch (RuntimeException e) { // as Hive reads a value its type does not parse
        return null;
      }
    }

    @Override
    public void close() throws IOException {
      lines.close();
    }
  }
}
