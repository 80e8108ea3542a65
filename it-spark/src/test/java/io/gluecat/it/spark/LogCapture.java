package io.gluecat.it.spark;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/**
 * Collects every log line (message and stack trace) the test's logging lets through, to check what was
 * logged. It hangs off the root logger only: events of other loggers reach it through additivity.
 */
public final class LogCapture extends AbstractAppender implements AutoCloseable {
  private final List<String> sink;

  private LogCapture(List<String> sink) {
    super("gluecat-test-capture", null, null, true, Property.EMPTY_ARRAY);
    this.sink = sink;
  }

  public static LogCapture start(List<String> sink) {
    LogCapture capture = new LogCapture(sink);
    capture.start();
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    context.getConfiguration().getRootLogger().addAppender(capture, null, null);
    context.updateLoggers();
    return capture;
  }

  @Override
  public void append(LogEvent event) {
    StringBuilder line = new StringBuilder(event.getLoggerName()).append(": ")
        .append(event.getMessage().getFormattedMessage());
    if (event.getThrown() != null) {
      StringWriter trace = new StringWriter();
      event.getThrown().printStackTrace(new PrintWriter(trace));
      line.append('\n').append(trace);
    }
    synchronized (sink) {
      sink.add(line.toString());
    }
  }

  @Override
  public void close() {
    LoggerContext context = (LoggerContext) LogManager.getContext(false);
    context.getConfiguration().getRootLogger().removeAppender(getName());
    context.updateLoggers();
    stop();
  }
}
