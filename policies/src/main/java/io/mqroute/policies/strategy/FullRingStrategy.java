package io.mqroute.policies.strategy;

/**
 * What a virtio-fs queue does with a request that does not fit on its ring ({@code -ENOSPC}): it
 * always waits on the queue's overflow list ({@code queued_reqs}); this decides what moves it on.
 *
 * <ul>
 *   <li>{@link DelayedRetry} — before seed 001: a delayed work item retries the overflow head after
 *       a fixed delay (1 ms), whatever the completions; costs up to the delay in latency.
 *   <li>{@link RefillOnCompletion} — merged seed 001: the completion worker schedules the dispatch
 *       work whenever {@code queued_reqs} is non-empty; no timer, latency follows the device.
 * </ul>
 */
public sealed interface FullRingStrategy permits DelayedRetry, RefillOnCompletion {

  /** Returned by {@link #retryDelayNanos()} when no timer is used. */
  long NO_TIMER = -1;

  /** Whether a completion on the queue triggers a refill from the overflow list. */
  boolean refillsOnCompletion();

  /** The retry timer in nanoseconds, or {@link #NO_TIMER}. */
  long retryDelayNanos();

  /** Round-trippable spec, e.g. {@code delayed-retry(1ms)}. */
  String spec();

  static FullRingStrategy delayedRetry(long delayNanos) {
    return new DelayedRetry(delayNanos);
  }

  static FullRingStrategy refillOnCompletion() {
    return RefillOnCompletion.INSTANCE;
  }
}
