package io.mqroute.runtime;

import org.apache.pekko.actor.Cancellable;
import org.apache.pekko.actor.SchedulerTask;
import org.apache.pekko.event.LoggingAdapter;
import scala.concurrent.ExecutionContext;

/**
 * One entry of a {@link TimerQueue}; also the {@link Cancellable} handed back to Pekko.
 *
 * <p>Mutable fields are guarded by the owning queue's monitor; {@code state} is volatile so that
 * {@link #isCancelled()} can be read from any thread without taking the lock.
 */
final class ScheduledTimer implements Cancellable, Comparable<ScheduledTimer> {
  static final int PENDING = 0;
  static final int FIRED = 1;
  static final int CANCELLED = 2;

  private final TimerQueue queue;
  final Runnable task;
  final ExecutionContext executionContext;

  /** 0 for a one-shot timer, the period in nanoseconds for a fixed-rate timer. */
  final long intervalNanos;

  long deadline;
  long sequence;
  volatile int state = PENDING;

  ScheduledTimer(
      TimerQueue queue,
      long deadline,
      long intervalNanos,
      Runnable task,
      ExecutionContext executionContext) {
    this.queue = queue;
    this.deadline = deadline;
    this.intervalNanos = intervalNanos;
    this.task = task;
    this.executionContext = executionContext;
  }

  boolean isPeriodic() {
    return intervalNanos > 0;
  }

  /**
   * Pekko semantics for a task that throws: a repeated task is not run again. The failure is
   * logged.
   */
  void failed(RuntimeException failure, LoggingAdapter log) {
    if (isPeriodic()) {
      cancel();
    }
    log.error(failure, "timer task {} failed", task);
  }

  @Override
  public int compareTo(ScheduledTimer other) {
    int byDeadline = Long.compare(deadline, other.deadline);
    return byDeadline != 0 ? byDeadline : Long.compare(sequence, other.sequence);
  }

  @Override
  public boolean cancel() {
    if (!queue.markCancelled(this)) {
      return false;
    }
    // Pekko's contract: a cancelled SchedulerTask is told so (fixed-delay timers stop re-arming).
    if (task instanceof SchedulerTask schedulerTask) {
      schedulerTask.cancelled();
    }
    return true;
  }

  @Override
  public boolean isCancelled() {
    return state == CANCELLED;
  }

  @Override
  public String toString() {
    return "ScheduledTimer[deadline="
        + deadline
        + ", interval="
        + intervalNanos
        + ", task="
        + task
        + "]";
  }
}
