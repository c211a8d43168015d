package io.mqroute.metrics;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * At most one log line per key per interval; the lines it holds back are counted and reported with
 * the next line it lets through. What a bad peer can make a node log is then bounded by the number
 * of keys (fixed kinds, never text from the wire) times the run time over the interval, whatever
 * the number of connections or frames. Time comes from the caller, in nanoseconds of any monotonic
 * clock.
 */
public final class LogRateLimit {
  private final long intervalNanos;
  private final int maxKeys;
  private final ConcurrentHashMap<String, Slot> slots = new ConcurrentHashMap<>();

  private static final class Slot {
    // the first line of a key always passes: start one interval in the past
    private long lastNanos;
    private boolean used;
    private final AtomicLong held = new AtomicLong();
  }

  /**
   * @param intervalNanos at most one line per key in this long (> 0)
   * @param maxKeys keys beyond this many share one slot (so a caller's mistake cannot grow the map)
   */
  public LogRateLimit(long intervalNanos, int maxKeys) {
    if (intervalNanos <= 0 || maxKeys < 1) {
      throw new IllegalArgumentException("interval must be > 0 and maxKeys >= 1");
    }
    this.intervalNanos = intervalNanos;
    this.maxKeys = maxKeys;
  }

  /**
   * Whether a line of {@code key} may be logged at {@code nowNanos}.
   *
   * @return -1 to hold it back (counted), else the number of lines held back since the last one of
   *     this key (0 or more), for the caller to print with it
   */
  public long allow(String key, long nowNanos) {
    Slot s = slots.get(key);
    if (s == null) {
      s = slots.size() < maxKeys ? slots.computeIfAbsent(key, k -> new Slot()) : overflow();
    }
    synchronized (s) {
      if (s.used && nowNanos - s.lastNanos < intervalNanos) {
        s.held.incrementAndGet();
        return -1;
      }
      s.used = true;
      s.lastNanos = nowNanos;
      return s.held.getAndSet(0);
    }
  }

  private Slot overflow() {
    return slots.computeIfAbsent("\0overflow", k -> new Slot());
  }

  /** Lines held back so far and not yet reported, over all keys. */
  public long held() {
    long n = 0;
    for (Slot s : slots.values()) {
      n += s.held.get();
    }
    return n;
  }
}
