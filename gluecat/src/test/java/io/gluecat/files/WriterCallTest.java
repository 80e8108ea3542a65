package io.gluecat.files;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.analysis.NoSuchTableException;
import org.apache.spark.sql.connector.catalog.Identifier;
import org.apache.spark.sql.connector.catalog.Table;
import org.apache.spark.sql.connector.catalog.TableCatalog;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.catalog.TableWritePrivilege;
import org.apache.spark.sql.connector.expressions.Transform;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link WriterCall} tells DataFrameWriter's own loads from the analyzer's by the caller's frame: this pins, on each
 * Spark line this module is built for, that Spark's DataFrameWriter still loads the table itself for
 * {@code saveAsTable} and {@code insertInto}, and that SQL INSERT does not. A Spark patch that moves those loads
 * fails here, not silently in a user's write. The recording catalog lives in io.gluecat, as gluecat's catalog does,
 * so its frames are skipped the same way.
 */
class WriterCallTest {
  private static final List<Optional<WriterCall>> LOADS = new ArrayList<>();
  private static SparkSession spark;

  /** A catalog that has no tables and records, on each load, what WriterCall says. */
  public static final class RecordingCatalog implements TableCatalog {
    @Override
    public void initialize(String name, CaseInsensitiveStringMap options) {}

    @Override
    public String name() {
      return "rec";
    }

    @Override
    public Identifier[] listTables(String[] namespace) {
      return new Identifier[0];
    }

    @Override
    public Table loadTable(Identifier ident) throws NoSuchTableException {
      return record(ident);
    }

    @Override
    public Table loadTable(Identifier ident, Set<TableWritePrivilege> writePrivileges) throws NoSuchTableException {
      return record(ident);
    }

    private static Table record(Identifier ident) throws NoSuchTableException {
      synchronized (LOADS) {
        LOADS.add(WriterCall.current());
      }
      throw new NoSuchTableException(ident);
    }

    @Override
    public Table createTable(Identifier ident, StructType schema, Transform[] partitions,
        Map<String, String> properties) {
      throw new UnsupportedOperationException("the recording catalog creates nothing");
    }

    @Override
    public Table alterTable(Identifier ident, TableChange... changes) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean dropTable(Identifier ident) {
      return false;
    }

    @Override
    public void renameTable(Identifier oldIdent, Identifier newIdent) {
      throw new UnsupportedOperationException();
    }
  }

  @BeforeAll
  static void startSession() {
    spark = SparkSession.builder().master("local[1]").appName("writer-call")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.catalog.rec", RecordingCatalog.class.getName())
        .getOrCreate();
  }

  @AfterAll
  static void stopSession() {
    spark.stop();
  }

  @BeforeEach
  void clear() {
    synchronized (LOADS) {
      LOADS.clear();
    }
  }

  private static List<Optional<WriterCall>> loads() {
    synchronized (LOADS) {
      return List.copyOf(LOADS);
    }
  }

  @Test
  void saveAsTableLoadsFromDataFrameWriter() {
    assertThrows(Exception.class, () -> spark.range(1).write().saveAsTable("rec.db.t"));
    assertFalse(loads().isEmpty(), "saveAsTable did not load the table");
    assertEquals(Optional.of(WriterCall.SAVE_AS_TABLE), loads().get(0), "saveAsTable's first load: " + loads());
  }

  @Test
  void insertIntoLoadsFromDataFrameWriter() {
    assertThrows(Exception.class, () -> spark.range(1).write().insertInto("rec.db.t"));
    assertFalse(loads().isEmpty(), "insertInto did not load the table");
    assertEquals(Optional.of(WriterCall.INSERT_INTO), loads().get(0), "insertInto's first load: " + loads());
  }

  @Test
  void sqlInsertIsNotAWriterCall() {
    assertThrows(Exception.class, () -> spark.sql("INSERT INTO rec.db.t SELECT 1"));
    assertFalse(loads().isEmpty(), "INSERT did not load the table");
    assertTrue(loads().stream().allMatch(Optional::isEmpty), "SQL INSERT's loads: " + loads());
  }
}
