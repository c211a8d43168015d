package io.mqroute.cluster;

import io.mqroute.metrics.LogRateLimit;
import java.time.Duration;
import java.util.Arrays;
import org.slf4j.Logger;

/**
 * Warnings about what a peer sent wrong (a forged completion, a batch nobody could answer): at most
 * one per kind per {@link #INTERVAL} in this process, with the number held back since the last one,
 * so that a peer cannot decide how much a node logs (issue #15 item 3). The events themselves are
 * counted in {@code /metrics} by the caller ({@link NodeMetrics#dropped}).
 */
public final class PeerLog {
  /** The default of {@code mqroute.cluster.inbound.log-interval}. */
  static final Duration INTERVAL = Duration.ofSeconds(10);

  private static final LogRateLimit LIMIT = new LogRateLimit(INTERVAL.toNanos(), 64);

  private PeerLog() {}

  /** Logs {@code format} with {@code args} unless a line of {@code kind} went out recently. */
  public static void warn(Logger log, String kind, String format, Object... args) {
    long held = LIMIT.allow(kind, System.nanoTime());
    if (held >= 0) {
      Object[] all = Arrays.copyOf(args, args.length + 1);
      all[args.length] = held;
      log.warn(format + " ({} more like it since the last line)", all);
    }
  }
}
