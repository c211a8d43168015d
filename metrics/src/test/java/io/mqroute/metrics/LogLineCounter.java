package io.mqroute.metrics;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;

/**
 * For the fuzz tests (cluster's WireFuzzTest, nbd's NbdFuzzTest): counts what the process logs at
 * WARN and above while it is attached to the root logger, the lines with a stack trace (an
 * exception with frames; a stackless one prints its one line only), and keeps the first few.
 */
public final class LogLineCounter extends AppenderBase<ILoggingEvent> {
  private final AtomicLong lines = new AtomicLong();
  private final AtomicLong traces = new AtomicLong();
  private final ConcurrentLinkedQueue<String> sample = new ConcurrentLinkedQueue<>();
  private final int keep;

  private LogLineCounter(int keep) {
    this.keep = keep;
  }

  /** Counts from now on, keeping the first {@code keep} lines. */
  public static LogLineCounter attach(int keep) {
    LogLineCounter c = new LogLineCounter(keep);
    Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    c.setContext(root.getLoggerContext());
    c.start();
    root.addAppender(c);
    return c;
  }

  /** Stops counting. */
  public void detach() {
    ((Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME)).detachAppender(this);
  }

  public long lines() {
    return lines.get();
  }

  public long traces() {
    return traces.get();
  }

  /** The first lines, as {@code logger: message}. */
  public Iterable<String> sample() {
    return sample;
  }

  @Override
  protected void append(ILoggingEvent e) {
    if (!e.getLevel().isGreaterOrEqual(Level.WARN)) {
      return;
    }
    lines.incrementAndGet();
    for (var t = e.getThrowableProxy(); t != null; t = t.getCause()) {
      if (t.getStackTraceElementProxyArray().length > 0) {
        traces.incrementAndGet();
        break;
      }
    }
    if (sample.size() < keep) {
      sample.add(e.getLoggerName() + ": " + e.getFormattedMessage());
    }
  }
}
