package io.gluecat.files;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.apache.spark.sql.connector.catalog.ColumnDefaultValue;
import org.apache.spark.sql.connector.catalog.TableChange;
import org.apache.spark.sql.connector.expressions.Expressions;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.Test;

class FileSchemaChangesTest {
  private static final StructType SCHEMA = new StructType().add("a", DataTypes.IntegerType)
      .add("b", DataTypes.StringType).add("k", DataTypes.StringType);

  private static TableChange addWithDefault(String name, String sql, Object value) {
    return TableChange.addColumn(new String[] {name}, DataTypes.IntegerType, true, "added", null,
        new ColumnDefaultValue(sql, Expressions.literal(value)));
  }

  @Test
  void anAddedColumnKeepsBothDefaultsAndComesBeforeThePartitionColumns() {
    StructType changed = FileSchemaChanges.apply(SCHEMA, List.of("k"), List.of(addWithDefault("e", "2 + 3", 5)),
        "parquet", "ALTER TABLE");
    assertEquals(List.of("a", "b", "e", "k"), List.of(changed.fieldNames()));
    Metadata e = changed.apply("e").metadata();
    assertEquals("2 + 3", e.getString("CURRENT_DEFAULT"), "what an INSERT fills in");
    assertEquals("5", e.getString("EXISTS_DEFAULT"), "what the rows written before read");
    assertEquals("added", changed.apply("e").getComment().get());
  }

  @Test
  void settingADefaultChangesOnlyTheCurrentDefault() {
    StructType added = FileSchemaChanges.apply(SCHEMA, List.of("k"), List.of(addWithDefault("e", "5", 5)),
        "csv", "ALTER TABLE");
    StructType changed = FileSchemaChanges.apply(added, List.of("k"),
        List.of(TableChange.updateColumnDefaultValue(new String[] {"e"}, "6"),
            TableChange.updateColumnDefaultValue(new String[] {"a"}, "7"),
            TableChange.updateColumnComment(new String[] {"k"}, "the key")),
        "csv", "ALTER TABLE");
    assertEquals(List.of("a", "b", "e", "k"), List.of(changed.fieldNames()));
    assertEquals("6", changed.apply("e").metadata().getString("CURRENT_DEFAULT"));
    assertEquals("5", changed.apply("e").metadata().getString("EXISTS_DEFAULT"), "old rows keep the first default");
    assertEquals("7", changed.apply("a").metadata().getString("CURRENT_DEFAULT"));
    assertFalse(changed.apply("a").metadata().contains("EXISTS_DEFAULT"), "a column set later has no rows without it");
    assertEquals("the key", changed.apply("k").getComment().get());
    StructType later = FileSchemaChanges.apply(changed, List.of("k"), List.of(addWithDefault("f", "1", 1)), "csv",
        "ALTER TABLE");
    assertEquals(List.of("a", "b", "e", "f", "k"), List.of(later.fieldNames()));
    assertFalse(later.apply("a").metadata().contains("EXISTS_DEFAULT"), "adding another column leaves a's alone");
    assertEquals("5", later.apply("e").metadata().getString("EXISTS_DEFAULT"));
    assertEquals("1", later.apply("f").metadata().getString("EXISTS_DEFAULT"));
  }

  @Test
  void aProviderSparkAllowsNoDefaultsForIsRefusedAsSparkRefusesIt() {
    Exception e = assertThrows(Exception.class, () -> FileSchemaChanges.apply(SCHEMA, List.of(),
        List.of(addWithDefault("e", "5", 5)), "avro", "ALTER TABLE"));
    assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("default"), e.getMessage());
  }

  @Test
  void onlyColumnChangesAreItsOwn() {
    assertTrue(FileSchemaChanges.isColumnChange(TableChange.updateColumnDefaultValue(new String[] {"a"}, "1")));
    assertFalse(FileSchemaChanges.isColumnChange(TableChange.setProperty("p", "v")));
    assertFalse(FileSchemaChanges.isColumnChange(TableChange.deleteColumn(new String[] {"a"}, false)));
  }
}
