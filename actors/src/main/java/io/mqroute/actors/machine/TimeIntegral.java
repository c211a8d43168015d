package io.mqroute.actors.machine;

/**
 * ∫ value dt of a piecewise-constant count that only its owner changes: set the new value whenever
 * it may have changed; the old one counts up to that moment. One actor's, not thread-safe.
 */
final class TimeIntegral {
  private long area;
  private long value;
  private long at;

  TimeIntegral(long startNanos) {
    this.at = startNanos;
  }

  /** The count is {@code newValue} from {@code now} on. */
  void set(long now, long newValue) {
    area += value * (now - at);
    at = now;
    value = newValue;
  }

  /** The integral up to {@code now}. */
  long area(long now) {
    return area + value * (now - at);
  }
}
