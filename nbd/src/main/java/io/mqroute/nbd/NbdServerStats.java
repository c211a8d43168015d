package io.mqroute.nbd;

import io.mqroute.metrics.LogRateLimit;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;

/**
 * What one {@link NbdServer} counts about its connections (for a node's {@code /metrics}) and the
 * bound on what they make it log: at most one line per kind per {@link #LOG_INTERVAL}, whatever the
 * number of clients, with the number held back since the last line.
 */
final class NbdServerStats {
  /** At most one line per kind of refusal in this long. */
  static final Duration LOG_INTERVAL = Duration.ofSeconds(10);

  static final String ACCEPTED = "accepted";
  static final String REFUSED_LIMIT = "refused_limit";
  static final String HANDSHAKE_TIMEOUT = "handshake_timeout";
  static final String PROTOCOL_ERROR = "protocol_error";
  static final String TRANSMISSION = "transmission";
  static final String BACKEND_REFUSED = "backend_refused";

  private final Map<String, LongAdder> counters = new ConcurrentSkipListMap<>();
  private final LogRateLimit logLimit = new LogRateLimit(LOG_INTERVAL.toNanos(), 16);
  final AtomicInteger open = new AtomicInteger();
  final AtomicInteger inTransmission = new AtomicInteger();

  NbdServerStats() {
    for (String k :
        List.of(
            ACCEPTED,
            REFUSED_LIMIT,
            HANDSHAKE_TIMEOUT,
            PROTOCOL_ERROR,
            TRANSMISSION,
            BACKEND_REFUSED)) {
      counters.put(k, new LongAdder());
    }
  }

  void count(String kind) {
    counters.get(kind).increment();
  }

  /** Counts {@code kind} and logs {@code format} (two arguments) unless one went out recently. */
  void countAndLog(Logger log, String kind, String format, Object a, Object b) {
    count(kind);
    long held = logLimit.allow(kind, System.nanoTime());
    if (held >= 0) {
      log.warn(format + " ({} more like it since the last line)", a, b, held);
    }
  }

  Map<String, Long> counters() {
    Map<String, Long> out = new TreeMap<>();
    counters.forEach((k, v) -> out.put(k, v.sum()));
    return out;
  }

  /** Connections open now, and of them those still in the handshake. */
  Map<String, Long> gauges() {
    int o = open.get();
    return Map.of("open", (long) o, "pending", (long) Math.max(0, o - inTransmission.get()));
  }
}
