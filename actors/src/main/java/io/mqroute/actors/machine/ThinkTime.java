package io.mqroute.actors.machine;

/**
 * fio's thinktime (backend.c handle_thinktime): after every {@code blocks} I/Os the job waits for
 * its in-flight I/O (io_u_quiesce), burns {@code spinNanos} of CPU on its core, then sleeps for the
 * rest of {@code nanos}.
 *
 * @param nanos thinktime=, the whole pause (0: none)
 * @param spinNanos thinktime_spin=, the part of it spent running on the CPU (at most {@code nanos})
 * @param blocks thinktime_blocks=, I/Os between two pauses (fio's default 1)
 * @param onIssue thinktime_blocks_type=issue: count issued I/Os; false (fio's default, complete):
 *     completed ones
 */
public record ThinkTime(long nanos, long spinNanos, int blocks, boolean onIssue) {
  /** No thinktime. */
  public static final ThinkTime NONE = new ThinkTime(0, 0, 1, false);

  public ThinkTime {
    if (nanos < 0 || spinNanos < 0 || spinNanos > nanos) {
      throw new IllegalArgumentException("thinktime must be >= 0 and thinktime_spin within it");
    }
    if (blocks < 1) {
      throw new IllegalArgumentException("thinktime_blocks must be >= 1");
    }
  }

  public boolean enabled() {
    return nanos > 0;
  }
}
