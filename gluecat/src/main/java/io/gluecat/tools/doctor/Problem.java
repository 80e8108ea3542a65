package io.gluecat.tools.doctor;

/** One problem of one entry: its code and what exactly is wrong. */
public final class Problem {
  private final Code code;
  private final String detail;

  public Problem(Code code, String detail) {
    this.code = code;
    this.detail = detail;
  }

  public Code code() { return code; }
  public String detail() { return detail; }
}
