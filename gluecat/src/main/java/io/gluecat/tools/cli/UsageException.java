package io.gluecat.tools.cli;

/** A command line, option or access problem that stops a command before it checks anything: exit code 2. */
public final class UsageException extends RuntimeException {
  public UsageException(String message) {
    super(message);
  }

  public UsageException(String message, Throwable cause) {
    super(message, cause);
  }
}
