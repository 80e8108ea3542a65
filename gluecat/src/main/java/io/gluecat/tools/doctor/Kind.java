package io.gluecat.tools.doctor;

/** Who wrote an entry, as far as its shape tells. */
public enum Kind {
  GLUECAT_DELTA("gluecat Delta"),
  HIVE_PATH_DELTA("Hive-path Delta"),
  TRINO_DELTA("Trino Delta"),
  FILE_SOURCE("file source"),
  HIVE_SERDE("Hive SerDe"),
  ICEBERG("Iceberg"),
  VIEW("view"),
  UNREADABLE("unreadable");

  private final String label;

  Kind(String label) {
    this.label = label;
  }

  public String label() { return label; }

  public boolean isDelta() {
    return this == GLUECAT_DELTA || this == HIVE_PATH_DELTA || this == TRINO_DELTA;
  }
}
