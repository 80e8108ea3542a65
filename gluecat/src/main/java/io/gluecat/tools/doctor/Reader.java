package io.gluecat.tools.doctor;

/** The readers doctor judges an entry for. */
public enum Reader {
  GLUECAT("gluecat"),
  TRINO("trino"),
  ATHENA("athena"),
  HIVE_PATH("hive-path");

  private final String label;

  Reader(String label) {
    this.label = label;
  }

  public String label() { return label; }
}
