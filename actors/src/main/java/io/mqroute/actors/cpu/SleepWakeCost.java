package io.mqroute.actors.cpu;

/**
 * Models the woken server thread's first pass after finish_task_switch on a CPU that slept.
 *
 * <p>The CPU time a FUSE server thread (a ring thread, a libfuse /dev/fuse worker) pays for a
 * sleep–wake cycle in which its CPU went idle: back from finish_task_switch into its request path
 * (fuse_uring_send_in_task / fuse_dev_do_read, libfuse's loop, the reply) on caches and TLB the
 * idle CPU lost — in a KVM guest an idle vCPU leaves the guest (HLT) and the host runs other work
 * on the physical core; on bare metal a deep C-state flushes L1/L2. Charged once, on the first
 * server work after the core has been in a C-state: a thread that serves k requests per wake-up
 * pays it once, a thread woken on a CPU that stayed busy (the application that woke it just ran
 * there, as with a pinned reader and its ring thread) pays nothing. The wake-up's own mechanics
 * (the IPI, ttwu_do_activate, schedule() out of idle) are {@code wake-cost}, charged where the
 * wake-up is decided; this is only the woken thread's extra work, so nothing is counted twice.
 *
 * <p>Why per idle period and not per wake-up: on the 2-vCPU guest of issue 21 a pinned reader wakes
 * its ring thread for every request and the thread spends 3.9 µs per request, while an unpinned
 * reader, whose ring thread's CPU idles between its requests, costs the same thread 17–23 µs
 * (real-fuse/data/2026-12-02; EXPERIMENTS.md, real-fuse-this-vm).
 *
 * <p>An io-wq worker that issues a punted io_uring request ({@code machine.kernel.io-uring-punt =
 * io-wq}) is such a thread too: woken for the request from a sleep in the kernel, it runs the
 * request path on its CPU.
 *
 * <p>One per core; its Core actor calls it from its own thread.
 */
public final class SleepWakeCost {
  private final long nanos;

  /** The core has been in a C-state since a server thread last ran here. */
  private boolean cold;

  private long paid;

  /**
   * @param nanos the CPU time of one sleep–wake cycle of a server thread, at full frequency
   */
  public SleepWakeCost(long nanos) {
    if (nanos < 0) {
      throw new IllegalArgumentException("sleep-wake-cost must be >= 0 ns, was " + nanos);
    }
    this.nanos = nanos;
  }

  /** The core starts work after an idle period; {@code slept}: long enough for a C-state. */
  public void coreWakes(boolean slept) {
    cold |= slept;
  }

  /**
   * Work of one thread starts on the core.
   *
   * @param serverThread the work is a FUSE server thread's (or an io-wq worker's)
   * @return the extra CPU work it pays, at full frequency
   */
  public long charge(boolean serverThread) {
    if (!serverThread || !cold) {
      return 0;
    }
    cold = false;
    if (nanos > 0) {
      paid++;
    }
    return nanos;
  }

  /** CPU work they added, at full frequency. */
  public long paidNanos() {
    return paid * nanos;
  }
}
