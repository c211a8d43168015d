package io.mqroute.cluster;

/**
 * Where the file backend's next read or write runs under {@code file-io = auto}: on the queue's own
 * thread while such I/O stays as fast as a page-cache copy, on the blocking pool for a while after
 * it did not. It approximates io_uring's io_issue_sqe, which tries the I/O in the submitter's
 * context with IOCB_NOWAIT and punts it to an io-wq worker on -EAGAIN; Java has no RWF_NOWAIT, so
 * the answer comes from timing the inline I/O after the fact.
 *
 * <p>Cost: reads that miss the page cache still stall the node before the policy learns (at most
 * {@link #SLOW_IN_WINDOW} such reads per {@link #WINDOW}); then every read and write goes to the
 * pool for {@link #POOL_NANOS} before inline is tried again. A thread preempted during an inline
 * copy looks slow too, however long the preemption: one slow copy alone, however slow, is taken for
 * that. (It used to send the queue to the pool at once when one copy took 2 ms: with every read in
 * the page cache, two busy vCPUs sent a device to the pool 26-46 times in a one-minute benchmark,
 * 20 times without that rule; BENCHMARKS.md "Spin before block".)
 *
 * <p>Not thread-safe: one per queue, called from that queue's poller only.
 */
final class InlineIoPolicy {
  /** A page-cache copy of 4 KiB takes 2-10 µs here (BENCHMARKS.md); an NVMe read 50 µs or more. */
  static final long FAST_NANOS = 50_000;

  /** Copy time allowed per byte on top of {@link #FAST_NANOS}: 1 GB/s, below any memory copy. */
  static final long NANOS_PER_BYTE = 1;

  /** Inline I/Os per window, and how many slow ones in a window send the queue to the pool. */
  static final int WINDOW = 64;

  static final int SLOW_IN_WINDOW = 4;

  /** How long the queue stays on the pool before it tries inline again. */
  static final long POOL_NANOS = 1_000_000_000L;

  private boolean pooled;
  private long poolUntil;
  private int inWindow;
  private int slow;

  /** True: run the next I/O inline; false: on the pool. */
  boolean inline(long now) {
    if (pooled && now - poolUntil >= 0) {
      pooled = false;
    }
    return !pooled;
  }

  /**
   * An inline I/O of {@code bytes} took {@code nanos}, ending at {@code now}; true when that sends
   * the queue to the pool.
   */
  boolean took(long nanos, int bytes, long now) {
    boolean wasSlow = nanos > FAST_NANOS + NANOS_PER_BYTE * bytes;
    if (wasSlow) {
      slow++;
    }
    if (slow >= SLOW_IN_WINDOW) {
      pooled = true;
      poolUntil = now + POOL_NANOS;
      inWindow = 0;
      slow = 0;
      return true;
    }
    if (++inWindow == WINDOW) {
      inWindow = 0;
      slow = 0;
    }
    return false;
  }
}
