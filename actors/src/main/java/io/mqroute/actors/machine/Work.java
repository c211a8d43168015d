package io.mqroute.actors.machine;

/** What a piece of CPU work is, for per-core accounting. */
public enum Work {
  /** The application's submit path. */
  SUBMIT,
  /** A FUSE server thread handling a request of its queue (and, for a passthrough server, the I/O). */
  SERVER,
  /** Ending a request in the kernel on the completing core. */
  COMPLETION,
  /** Waking the waiter on another core (IPI, context switch) and its reap of the completion. */
  WAKE,
  /** The application reaping a completion on the core it already runs on. */
  REAP,
  /** The pre-cleanup fiq->pending hop (seed 000). */
  PENDING;

  /** A thread that slept waiting for I/O runs it: the app reaping a completion, a ring thread with a request. */
  boolean iowaitWakeup() {
    return this == WAKE || this == REAP || this == SERVER;
  }

  /** Which thread runs it: 0 the application, 1 a FUSE server thread, -1 kernel context (no switch). */
  int thread() {
    return switch (this) {
      case SUBMIT, WAKE, REAP -> 0;
      case SERVER -> 1;
      case COMPLETION, PENDING -> -1;
    };
  }
}
