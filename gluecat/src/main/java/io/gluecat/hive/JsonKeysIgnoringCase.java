package io.gluecat.hive;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
import io.gluecat.compat.Scala;
import io.gluecat.compat.SparkCompat;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.json.JSONOptionsInRead;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.execution.datasources.PartitioningAwareFileIndex;
import org.apache.spark.sql.execution.datasources.v2.FileScanBuilder;
import org.apache.spark.sql.execution.datasources.v2.json.JsonPartitionReaderFactory;
import org.apache.spark.sql.execution.datasources.v2.json.JsonScan;
import org.apache.spark.sql.internal.SQLConf;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.MapType;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.apache.spark.util.SerializableConfiguration;

/**
 * Spark's json source with the OpenX SerDe's key matching: a JSON key that matches no column exactly is read
 * as the column whose name differs only in case, at any depth (OpenX's {@code case.insensitive}, on by
 * default). Spark's own source matches keys exactly, so Glue's lower-case columns would read a key written
 * {@code "UserId"} as null. The keys are renamed as the parser reads them, before Spark looks them up.
 */
final class JsonKeysIgnoringCase {
  private JsonKeysIgnoringCase() {}

  /** Every field name of the schema, nested ones too, by its lower-case spelling. */
  static Map<String, String> names(StructType schema) {
    Map<String, String> names = new HashMap<>();
    collect(schema, names);
    return names;
  }

  private static void collect(DataType type, Map<String, String> names) {
    if (type instanceof StructType struct) {
      for (StructField f : struct.fields()) {
        names.putIfAbsent(f.name().toLowerCase(Locale.ROOT), f.name());
        collect(f.dataType(), names);
      }
    } else if (type instanceof ArrayType array) {
      collect(array.elementType(), names);
    } else if (type instanceof MapType map) {
      collect(map.valueType(), names);
    }
  }

  /** A json scan builder as Spark's, whose scans read keys ignoring case. */
  static final class Builder extends FileScanBuilder {
    private final SparkSession spark;
    private final PartitioningAwareFileIndex index;
    private final StructType dataSchema;
    private final CaseInsensitiveStringMap options;

    Builder(SparkSession spark, PartitioningAwareFileIndex index, StructType dataSchema,
        CaseInsensitiveStringMap options) {
      super(spark, index, dataSchema);
      this.spark = spark;
      this.index = index;
      this.dataSchema = dataSchema;
      this.options = options;
    }

    @Override
    public Scan build() {
      return new CaseIgnoringScan(spark, index, dataSchema, readDataSchema(), readPartitionSchema(), options,
          pushedDataFilters(), this);
    }

    /** No data filter goes into the parser: a filter names columns, the parser sees keys before renaming. */
    @Override
    public Filter[] pushDataFilters(Filter[] dataFilters) {
      return new Filter[0];
    }
  }

  /** Spark's json scan, whose readers parse with {@link Options}. */
  static final class CaseIgnoringScan extends JsonScan {
    CaseIgnoringScan(SparkSession spark, PartitioningAwareFileIndex index, StructType dataSchema,
        StructType readDataSchema, StructType readPartitionSchema, CaseInsensitiveStringMap options,
        Filter[] pushedFilters, FileScanBuilder builder) {
      super(spark, index, dataSchema, readDataSchema, readPartitionSchema, options, pushedFilters,
          builder.partitionFilters(), builder.dataFilters());
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
      Map<String, String> settings = options().asCaseSensitiveMap();
      org.apache.spark.broadcast.Broadcast<SerializableConfiguration> broadcast =
          ScanHadoopConf.broadcast(sparkSession(), settings);
      SQLConf sql = SQLConf.get();
      Options parsed = new Options(SparkCompat.scalaMap(settings), sql.sessionLocalTimeZone(),
          sql.columnNameOfCorruptRecord(), names(readDataSchema()));
      return new JsonPartitionReaderFactory(sql, broadcast, dataSchema(), readDataSchema(), readPartitionSchema(),
          parsed, Scala.list(Arrays.asList(pushedFilters())));
    }
  }

  /** Spark's json read options, whose parsers rename keys to the schema's spelling. Sent to executors. */
  static final class Options extends JSONOptionsInRead {
    private static final long serialVersionUID = 1L;
    private final HashMap<String, String> names;

    Options(scala.collection.immutable.Map<String, String> options, String timeZone, String corruptColumn,
        Map<String, String> names) {
      super(options, timeZone, corruptColumn);
      this.names = new HashMap<>(names);
    }

    @Override
    public JsonFactory buildJsonFactory() {
      return new Factory(super.buildJsonFactory(), names);
    }
  }

  /** A factory as Spark configured it, whose parsers rename keys. */
  private static final class Factory extends JsonFactory {
    private static final long serialVersionUID = 1L;
    private final Map<String, String> names;

    Factory(JsonFactory configured, Map<String, String> names) {
      super(configured, null);
      this.names = names;
    }

    @Override
    public JsonParser createParser(byte[] data, int offset, int len) throws IOException {
      return new Renaming(super.createParser(data, offset, len), names);
    }

    @Override
    public JsonParser createParser(byte[] data) throws IOException {
      return new Renaming(super.createParser(data), names);
    }

    @Override
    public JsonParser createParser(InputStream in) throws IOException {
      return new Renaming(super.createParser(in), names);
    }

    @Override
    public JsonParser createParser(Reader r) throws IOException {
      return new Renaming(super.createParser(r), names);
    }

    @Override
    public JsonParser createParser(String content) throws IOException {
      return new Renaming(super.createParser(content), names);
    }
  }

  /** Reports a key that matches no field exactly under the field's spelling, when one differs only in case. */
  private static final class Renaming extends JsonParserDelegate {
    private final Map<String, String> names;
    private final java.util.Set<String> exact;

    Renaming(JsonParser parser, Map<String, String> names) {
      super(parser);
      this.names = names;
      this.exact = new java.util.HashSet<>(names.values());
    }

    private String renamed(String name) {
      if (name == null || exact.contains(name)) {
        return name;
      }
      String field = names.get(name.toLowerCase(Locale.ROOT));
      return field != null ? field : name;
    }

    @Override
    @SuppressWarnings("deprecation") // what Spark 3.5 calls
    public String getCurrentName() throws IOException {
      return renamed(super.getCurrentName());
    }

    @Override
    public String currentName() throws IOException {
      return renamed(super.currentName());
    }

    @Override
    public String getText() throws IOException {
      String text = super.getText();
      return currentToken() == JsonToken.FIELD_NAME ? renamed(text) : text;
    }
  }
}
