package io.mqroute.policies.strategy;

/**
 * Pre-seed-001 virtio-fs: on a full ring (or {@code -ENOMEM}) requeue and {@code
 * schedule_delayed_work(&fsvq->dispatch_work, msecs_to_jiffies(1))}; completions do not refill.
 * Cheap and deadlock-free, but every overflow waits a timer tick (1 ms against ~40 µs of device
 * latency: the 60× p99.9 of seed 001).
 *
 * @param delayNanos the retry delay, {@code > 0}
 */
public record DelayedRetry(long delayNanos) implements FullRingStrategy {

  /** The kernel's 1 ms. */
  public static final long DEFAULT_DELAY_NANOS = 1_000_000L;

  public DelayedRetry {
    if (delayNanos <= 0) {
      throw new IllegalArgumentException(
          "delayed-retry delay must be > 0, got " + Durations.format(delayNanos));
    }
  }

  @Override
  public boolean refillsOnCompletion() {
    return false;
  }

  @Override
  public long retryDelayNanos() {
    return delayNanos;
  }

  @Override
  public String spec() {
    return "delayed-retry(" + Durations.format(delayNanos) + ")";
  }

  @Override
  public String toString() {
    return spec();
  }
}
