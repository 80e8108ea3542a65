package io.gluecat.tools.doctor;

import io.gluecat.entry.EntryFormat;
import io.gluecat.entry.StoredColumn;
import io.gluecat.entry.StoredTable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The problems an entry's shape alone shows (no Glue or storage call), for {@link Inspector}: comments over
 * Glue's limits, incomplete schema parts, names that differ only in case, placeholder columns.
 */
final class ShapeProblems {
  private ShapeProblems() {}

  /** Glue's limits, which the catalog's EntryWriter cuts comments to. */
  private static final int MAX_DESCRIPTION_BYTES = EntryFormat.MAX_DESCRIPTION_BYTES;
  private static final int MAX_COLUMN_COMMENT_BYTES = EntryFormat.MAX_COLUMN_COMMENT_BYTES;

  /** Problems every data source entry can have: comments over Glue's limits, incomplete schema parts, case. */
  static void checkCommonParts(StoredTable t, Finding f) {
    if (t.description() != null && utf8(t.description()) > MAX_DESCRIPTION_BYTES) {
      f.problem(Code.COMMENT_TOO_LONG, "Description has " + utf8(t.description()) + " bytes (Glue's limit is "
          + MAX_DESCRIPTION_BYTES + ")");
    }
    for (StoredColumn c : allColumns(t)) {
      if (c.comment() != null && utf8(c.comment()) > MAX_COLUMN_COMMENT_BYTES) {
        f.problem(Code.COMMENT_TOO_LONG, "column " + c.name() + " has a comment of " + utf8(c.comment())
            + " bytes (Glue's limit is " + MAX_COLUMN_COMMENT_BYTES + ")");
      }
    }
    Map<String, String> p = t.parameters();
    String declared = p.get(EntryFormat.SCHEMA_NUM_PARTS);
    List<String> parts = new ArrayList<>();
    p.keySet().stream().filter(k -> k.startsWith(EntryFormat.SCHEMA_PART_PREFIX)).forEach(parts::add);
    if (declared == null && !parts.isEmpty()) {
      f.problem(Code.SCHEMA_PARTS_MISSING, parts.size() + " schema parts but no " + EntryFormat.SCHEMA_NUM_PARTS);
    } else if (declared != null) {
      int n;
      try {
        n = Integer.parseInt(declared.trim());
      } catch (NumberFormatException e) {
        n = -1;
      }
      if (n < 1) {
        f.problem(Code.SCHEMA_PARTS_MISSING, EntryFormat.SCHEMA_NUM_PARTS + " = '" + declared + "'");
      } else {
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < n; i++) {
          if (!p.containsKey(EntryFormat.SCHEMA_PART_PREFIX + i)) {
            missing.add(EntryFormat.SCHEMA_PART_PREFIX + i);
          }
        }
        if (!missing.isEmpty()) {
          f.problem(Code.SCHEMA_PARTS_MISSING, "missing " + String.join(", ", missing) + " of " + n);
        }
      }
    }
    caseOnlyColumns(t, f);
  }

  static void caseOnlyColumns(StoredTable t, Finding f) {
    Set<String> seen = new HashSet<>();
    List<String> twice = new ArrayList<>();
    for (StoredColumn c : allColumns(t)) {
      if (c.name() != null && !seen.add(c.name().toLowerCase(Locale.ROOT))) {
        twice.add(c.name());
      }
    }
    if (!twice.isEmpty()) {
      f.problem(Code.CASE_ONLY_NAMES, "columns named more than once when case is ignored: " + String.join(", ", twice));
    }
  }

  static boolean placeholderColumns(StoredTable t) {
    if (t.columns().size() != 1) {
      return false;
    }
    StoredColumn c = t.columns().get(0);
    return EntryFormat.PLACEHOLDER_COLUMN.equalsIgnoreCase(c.name())
        && EntryFormat.PLACEHOLDER_COLUMN_TYPE.equalsIgnoreCase(c.type());
  }

  static boolean schemaParses(Map<String, String> p) {
    String json = p.get(EntryFormat.SCHEMA);
    if (json == null) {
      return true;
    }
    try {
      return org.apache.spark.sql.types.DataType.fromJson(json) instanceof org.apache.spark.sql.types.StructType;
    } catch (Exception e) {
      return false;
    }
  }

  private static List<StoredColumn> allColumns(StoredTable t) {
    List<StoredColumn> all = new ArrayList<>(t.columns());
    all.addAll(t.partitionKeys());
    return all;
  }

  /** Two locations are the same but for a trailing slash. */
  static boolean sameLocation(String a, String b) {
    return EntryFormat.withoutTrailingSlash(a).equals(EntryFormat.withoutTrailingSlash(b));
  }


  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }
}
