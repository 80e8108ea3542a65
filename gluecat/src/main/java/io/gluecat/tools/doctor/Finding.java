package io.gluecat.tools.doctor;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** What doctor found for one entry: its kind, a verdict per reader ("yes", "no" or "-"), its problems. */
public final class Finding {
  private final String table;
  private final Kind kind;
  private final Map<Reader, String> readers = new EnumMap<>(Reader.class);
  private final List<Problem> problems = new ArrayList<>();

  Finding(String table, Kind kind) {
    this.table = table;
    this.kind = kind;
  }

  void verdict(Reader reader, Boolean canRead) {
    readers.put(reader, canRead == null ? "-" : canRead ? "yes" : "no");
  }

  void problem(Code code, String detail) {
    problems.add(new Problem(code, detail));
  }

  public String table() { return table; }
  public Kind kind() { return kind; }
  /** "yes", "no", or "-" when the reader does not apply (views, or a reader of another table format). */
  public String verdict(Reader reader) { return readers.getOrDefault(reader, "-"); }
  public List<Problem> problems() { return problems; }

  public boolean has(Code code) {
    return problems.stream().anyMatch(p -> p.code() == code);
  }

  /**
   * Whether repair can change this entry for the better: a problem it fixes on this kind of entry, and for a
   * Delta entry a log to rewrite it from.
   */
  public boolean repairable() {
    return problems.stream().anyMatch(p -> p.code().fixableOn(kind)) && (!kind.isDelta()
        || !has(Code.NO_DELTA_LOG) && !has(Code.NO_LOCATION) && !has(Code.LOCATION_UNREACHABLE));
  }
}
