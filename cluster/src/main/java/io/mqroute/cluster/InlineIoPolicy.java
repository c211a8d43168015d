package io.mqroute.cluster;

/**
 * Where the file backend's next read or write runs under {@code file-io = auto}: on the queue's own
 * thread while such I/O stays as fast as a page-cache copy, on the blocking pool for a while after
 * it did not. It approximates io_uring's io_issue_sqe, which tries the I/O in the submitter's
 * context with IOCB_NOWAIT and punts it to an io-wq worker on -EAGAIN; Java has no RWF_NOWAIT, so
 * the answer comes from timing the inline I/O after the fact, and then from asking the page cache.
 *
 * <p>Cost: reads that miss the page cache still stall the node before the policy learns (at most
 * {@link #SLOW_IN_WINDOW} such reads per {@link #WINDOW}, one more where it can ask the page
 * cache); then every read and write goes to the pool for {@link #POOL_NANOS} before inline is tried
 * again.
 *
 * <p>A thread preempted during an inline copy looks slow too, as does one whose vCPU the hypervisor
 * took away: neither the run delay nor the thread's CPU time tells those from a sleep in a disk
 * read on a VM (measured here: page-cached 4 KiB reads of 50-250 µs with no run delay). So where
 * the caller can ask the page cache ({@link FileBackend#residency}, mincore), a slow I/O is only a
 * suspicion: for the next {@link #WINDOW} I/Os ({@link #proving}) the caller asks before each read,
 * and a read of cached pages is never slow however long it took, one of pages not cached always is,
 * as io_uring's IOCB_NOWAIT attempt would have returned -EAGAIN for it. Writes (and reads it cannot
 * tell) are judged by time as before: one slow copy alone, however slow, is taken for a preemption,
 * {@link #SLOW_IN_WINDOW} in a window for a disk. (On two busy vCPUs, timing alone sent a device
 * with every read in the page cache to the pool 4-36 times per benchmark run, a second each;
 * BENCHMARKS.md "Spin before block", "Asking the page cache".)
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

  private final boolean canProve;
  private boolean pooled;
  private long poolUntil;
  private int inWindow;
  private int slow;
  private int proving;

  /**
   * @param canProve the caller can ask the page cache before a read when {@link #proving}
   */
  InlineIoPolicy(boolean canProve) {
    this.canProve = canProve;
  }

  /** True: ask the page cache before the next inline read and pass the answer to {@link #took}. */
  boolean proving() {
    return proving > 0;
  }

  /** True: run the next I/O inline; false: on the pool. */
  boolean inline(long now) {
    if (pooled && now - poolUntil >= 0) {
      pooled = false;
    }
    return !pooled;
  }

  /**
   * An inline I/O of {@code bytes} took {@code nanos}, ending at {@code now}; {@code seen}: what
   * the page cache said before it (UNKNOWN: not asked); true when that sends the queue to the pool.
   */
  boolean took(long nanos, FileBackend.Residency seen, int bytes, long now) {
    boolean wasProving = proving > 0;
    if (wasProving) {
      proving--;
    }
    if (seen != FileBackend.Residency.UNKNOWN) {
      if (seen == FileBackend.Residency.NOT_CACHED) {
        slow++;
      }
    } else if (nanos > FAST_NANOS + NANOS_PER_BYTE * bytes) {
      if (canProve && !wasProving) {
        proving = WINDOW; // a suspicion: the next reads show whether they miss the page cache
      } else {
        slow++;
      }
    }
    if (slow >= SLOW_IN_WINDOW) {
      pooled = true;
      poolUntil = now + POOL_NANOS;
      inWindow = 0;
      slow = 0;
      proving = 0;
      return true;
    }
    if (++inWindow == WINDOW) {
      inWindow = 0;
      slow = 0;
    }
    return false;
  }
}
