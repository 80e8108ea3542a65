package io.gluecat.hive;

import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import java.io.IOException;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.csv.CSVOptions;
import org.apache.spark.sql.catalyst.csv.UnivocityParser;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex;
import org.apache.spark.sql.execution.datasources.v2.FileScanBuilder;
import org.apache.spark.sql.execution.datasources.v2.csv.CSVPartitionReaderFactory;
import org.apache.spark.sql.execution.datasources.v2.csv.CSVScan;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StringType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Spark's csv source with the text SerDes' empty and null fields. Spark's csv parser reads an empty unquoted
 * field as its null value, so it cannot tell an empty string from a null; Hive's text SerDes can:
 * LazySimpleSerDe reads null only where a field is the entry's null format ({@code serialization.null.format},
 * {@code \N} unset) and an empty field of a string column as an empty string; OpenCSVSerde has no null at
 * all, every field is a string and an empty one is an empty string. Both read an empty field of a column of
 * another type (Athena's typed OpenCSVSerde columns) as null. So the files are parsed with every column as a
 * string and no null value but the null format, and the declared types are applied afterwards, by Spark's own
 * csv conversions.
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

    /** No data filter goes into the parser, which sees every field as a string; Spark filters the rows. */
    @Override
    public Filter[] pushDataFilters(Filter[] dataFilters) {
      return new Filter[0];
    }
  }

  /** Spark's csv scan, whose readers parse strings and convert them as the text SerDes do. */
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
      org.apache.hadoop.conf.Configuration conf = SparkCompat.newHadoopConf();
      settings.forEach((k, v) -> {
        if (v != null && !k.equalsIgnoreCase("path") && !k.equalsIgnoreCase("paths")) {
          conf.set(k, v);
        }
      });
      org.apache.spark.broadcast.Broadcast<SerializableConfiguration> broadcast = sparkSession().sparkContext()
          .broadcast(new SerializableConfiguration(conf), scala.reflect.ClassTag$.MODULE$.apply(
              SerializableConfiguration.class));
      SQLConf sql = SQLConf.get();
      scala.collection.immutable.Map<String, String> scalaSettings = SparkCompat.scalaMap(settings);
      CSVOptions typed = new CSVOptions(scalaSettings, sql.csvColumnPruning(), sql.sessionLocalTimeZone(),
          sql.columnNameOfCorruptRecord());
      StringFields strings = new StringFields(scalaSettings, sql.csvColumnPruning(), sql.sessionLocalTimeZone(),
          sql.columnNameOfCorruptRecord(), nullFormat);
      CSVPartitionReaderFactory files = new CSVPartitionReaderFactory(sql, broadcast, asStrings(dataSchema()),
          asStrings(readDataSchema()), readPartitionSchema(), strings, Scala.list(new Filter[0]));
      return new Factory(files, readDataSchema(), readPartitionSchema(), typed, nullFormat);
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

  private static StructType asStrings(StructType schema) {
    StructField[] fields = schema.fields().clone();
    for (int i = 0; i < fields.length; i++) {
      fields[i] = new StructField(fields[i].name(), DataTypes.StringType, true, fields[i].metadata());
    }
    return new StructType(fields);
  }

  /**
   * Spark's csv options whose parser reads an empty field, quoted or not, as an empty string, and whose only
   * null is the null format. Sent to executors.
   */
  static final class StringFields extends CSVOptions {
    private static final long serialVersionUID = 1L;
    private final String nullFormat;

    StringFields(scala.collection.immutable.Map<String, String> options, boolean columnPruning, String timeZone,
        String corruptColumn, String nullFormat) {
      super(options, columnPruning, timeZone, corruptColumn);
      this.nullFormat = nullFormat;
    }

    /** Spark reads a field equal to this as null; null matches no field the parser returns. */
    @Override
    public String nullValue() {
      return nullFormat;
    }

    @Override
    public com.univocity.parsers.csv.CsvParserSettings asParserSettings() {
      com.univocity.parsers.csv.CsvParserSettings parser = super.asParserSettings();
      parser.setNullValue("");
      parser.setEmptyValue("");
      return parser;
    }
  }

  /** Readers of Spark's csv reader factory whose string fields are converted to the declared types. */
  static final class Factory implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;
    private final CSVPartitionReaderFactory files;
    private final StructType readDataSchema;
    private final StructType partitionSchema;
    private final CSVOptions typed;
    private final String nullFormat;

    Factory(CSVPartitionReaderFactory files, StructType readDataSchema, StructType partitionSchema, CSVOptions typed,
        String nullFormat) {
      this.files = files;
      this.readDataSchema = readDataSchema;
      this.partitionSchema = partitionSchema;
      this.typed = typed;
      this.nullFormat = nullFormat;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      return new Converting(files.createReader(partition), this);
    }
  }

  /** One file split's rows, with the declared types. */
  private static final class Converting implements PartitionReader<InternalRow> {
    private final PartitionReader<InternalRow> strings;
    private final StructType data;
    private final StructType keys;
    private final String nullFormat;
    private final scala.Function1<String, Object>[] converters;

    @SuppressWarnings("unchecked")
    Converting(PartitionReader<InternalRow> strings, Factory factory) {
      this.strings = strings;
      this.data = factory.readDataSchema;
      this.keys = factory.partitionSchema;
      this.nullFormat = factory.nullFormat;
      this.converters = new scala.Function1[data.length()];
      UnivocityParser parser = null;
      for (int i = 0; i < data.length(); i++) {
        StructField f = data.fields()[i];
        if (!(f.dataType() instanceof StringType)) {
          if (parser == null) {
            parser = new UnivocityParser(data, data, factory.typed);
          }
          converters[i] = parser.makeConverter(f.name(), f.dataType(), true);
        }
      }
    }

    @Override
    public boolean next() throws IOException {
      return strings.next();
    }

    @Override
    public InternalRow get() {
      InternalRow row = strings.get();
      Object[] values = new Object[data.length() + keys.length()];
      for (int i = 0; i < data.length(); i++) {
        values[i] = row.isNullAt(i) ? null : field(i, row.getUTF8String(i));
      }
      for (int j = 0; j < keys.length(); j++) {
        int at = data.length() + j;
        Object value = row.isNullAt(at) ? null : row.get(at, keys.fields()[j].dataType());
        values[at] = value instanceof org.apache.spark.unsafe.types.UTF8String s ? s.clone() : value;
      }
      return new GenericInternalRow(values);
    }

    /** A field as the text SerDes read it: the null format is null, an empty field of a non-string column too. */
    private Object field(int i, org.apache.spark.unsafe.types.UTF8String text) {
      if (converters[i] == null) {
        return text.clone();
      }
      String value = text.toString();
      if (value.isEmpty() || value.equals(nullFormat)) {
        return null;
      }
      try {
        return converters[i].apply(value);
      } catch (RuntimeException e) { // a value the column's type does not parse reads as null, as in Hive
        return null;
      }
    }

    @Override
    public void close() throws IOException {
      strings.close();
    }
  }
}
