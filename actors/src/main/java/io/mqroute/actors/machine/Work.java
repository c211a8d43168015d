package io.mqroute.actors.machine;

/** What a piece of CPU work is, for per-core accounting. */
public enum Work {
  /** The application's submit path. */
  SUBMIT,
  /**
   * A FUSE server thread handling a request of its queue (and, for a passthrough server, the I/O).
   */
  SERVER,
  /** Ending a request in the kernel on the completing core. */
  COMPLETION,
  /** Waking the waiter on another core (IPI, context switch) and its reap of the completion. */
  WAKE,
  /** The application reaping a completion on the core it already runs on. */
  REAP,
  /** The pre-cleanup fiq->pending hop (seed 000). */
  PENDING,
  /** The application burning CPU between I/Os (fio's thinktime_spin). */
  THINK,
  /**
   * An io-wq worker of the application issuing a punted io_uring request (io_wq_submit_work →
   * io_issue_sqe → the FUSE submit path), and its wake-up when it slept ({@link IoUringPunt}).
   */
  IOWQ,
  /**
   * The waker's side of a wake-up on another CPU: the reschedule IPI it sends ({@code ipi-cost}; on
   * a guest, an exit to the host), before the woken thread's CPU gets its {@link #WAKE}.
   */
  IPI;

  /**
   * Whether work of this kind always wakes a thread from an I/O wait: a ring thread woken for a
   * request (it waits in io_uring_enter with its FUSE commands in flight, which io_uring counts as
   * iowait since 6.5). An application's wake-up depends on its engine and is decided where the
   * wake-up is made (the router).
   */
  boolean iowaitWakeup() {
    return this == SERVER;
  }

  /**
   * Which thread runs it: 0 the application, 1 a FUSE server thread, 2 an io-wq worker, -1 kernel
   * context (no switch).
   */
  int thread() {
    return switch (this) {
      case SUBMIT, WAKE, REAP, THINK -> 0;
      case SERVER -> 1;
      case IOWQ -> 2;
      case COMPLETION, PENDING, IPI -> -1;
    };
  }

  /**
   * Whether it is the first work of a thread that sleeps between requests in the kernel and was
   * woken for this one: a FUSE server thread, or an io-wq worker. Such a thread pays {@code
   * sleep-wake-cost} when its core slept ({@link io.mqroute.actors.cpu.SleepWakeCost}).
   */
  boolean wokenThread() {
    return this == SERVER || this == IOWQ;
  }
}
