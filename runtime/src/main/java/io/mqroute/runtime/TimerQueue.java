package io.mqroute.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.pekko.actor.Scheduler;
import org.apache.pekko.event.LoggingAdapter;
import scala.concurrent.ExecutionContext;
import scala.concurrent.duration.FiniteDuration;

/**
 * Timers ordered by (deadline, sequence number) in a binary heap, shared by the virtual-time and
 * the precise real-time scheduler. Thread-safe: every method takes this object's monitor.
 *
 * <p>Cancelled timers stay in the heap and are dropped when they reach its head (removing an
 * arbitrary element from a binary heap is O(n)). The heap is compacted when more than half of it is
 * cancelled, so a model that keeps re-arming a long timeout does not grow it without bound.
 *
 * <p>Deadlines are in the owning scheduler's clock (virtual or {@code System.nanoTime}); this class
 * never reads a clock. {@link #NO_DEADLINE} means "no timer".
 */
final class TimerQueue {
  /**
   * Returned by {@link #nextDeadline()} when no live timer exists; real deadlines are capped below
   * it.
   */
  static final long NO_DEADLINE = Long.MAX_VALUE;

  private static final int COMPACT_MIN_CANCELLED = 256;

  private final PriorityQueue<ScheduledTimer> heap = new PriorityQueue<>(1024);

  /**
   * Shared with the virtual-time driver's {@link DeliveryHeap}, so that the two merge in one
   * (deadline, sequence) order.
   */
  private final AtomicLong sequences;

  private int cancelledInHeap;
  private volatile boolean closed;

  /**
   * The head entry's deadline and sequence, published on every change of the head so that the
   * driver can compare it with its own timers without the lock; the head may be a cancelled timer
   * not yet dropped. {@link #NO_DEADLINE} when empty.
   */
  private volatile long headDeadline = NO_DEADLINE;

  private volatile long headSequence;

  TimerQueue() {
    this(new AtomicLong());
  }

  TimerQueue(AtomicLong sequences) {
    this.sequences = sequences;
  }

  /**
   * Adds a timer.
   *
   * @param deadline absolute deadline; values at or above {@link #NO_DEADLINE} are capped just
   *     below it
   * @param intervalNanos 0 for one-shot, the period for fixed-rate timers
   * @throws IllegalStateException after {@link #close()} (Pekko's contract for a scheduler that
   *     cannot schedule)
   */
  synchronized ScheduledTimer add(
      long deadline, long intervalNanos, Runnable task, ExecutionContext ec) {
    if (closed) {
      throw new IllegalStateException("scheduler is closed; cannot schedule " + task);
    }
    ScheduledTimer timer =
        new ScheduledTimer(this, Math.min(deadline, NO_DEADLINE - 1), intervalNanos, task, ec);
    timer.sequence = sequences.getAndIncrement();
    heap.add(timer);
    publishHead();
    return timer;
  }

  /** A one-shot timer due {@code delay} after {@code now}; negative delays count as 0. */
  ScheduledTimer addOnce(long now, FiniteDuration delay, Runnable task, ExecutionContext ec) {
    return add(deadlineAfter(now, delay), 0L, task, ec);
  }

  /**
   * A fixed-rate timer first due {@code initialDelay} after {@code now}, then every {@code
   * interval}.
   */
  ScheduledTimer addFixedRate(
      long now,
      FiniteDuration initialDelay,
      FiniteDuration interval,
      Runnable task,
      ExecutionContext ec) {
    long intervalNanos = interval.toNanos();
    if (intervalNanos <= 0) {
      throw new IllegalArgumentException("interval must be positive, got " + interval);
    }
    return add(deadlineAfter(now, initialDelay), intervalNanos, task, ec);
  }

  /**
   * True if {@code timer} is now the earliest timer (a waiting timer thread must re-check its
   * deadline).
   */
  synchronized boolean isHead(ScheduledTimer timer) {
    return heap.peek() == timer;
  }

  /** Deadline of the earliest live timer, or {@link #NO_DEADLINE}. */
  synchronized long nextDeadline() {
    ScheduledTimer head = liveHead();
    return head == null ? NO_DEADLINE : head.deadline;
  }

  /**
   * Removes and returns the earliest live timer whose deadline is at or before {@code instant}, or
   * null. A fixed-rate timer is re-armed one period later with a new sequence number before it is
   * returned, so that it orders after timers already scheduled for that instant; it stays the same
   * {@link ScheduledTimer}, so cancelling the handle the caller holds stops it.
   */
  synchronized ScheduledTimer pollDue(long instant) {
    ScheduledTimer head = liveHead();
    if (head == null || head.deadline > instant) {
      return null;
    }
    heap.poll();
    if (head.isPeriodic()) {
      head.deadline = saturatedAdd(head.deadline, head.intervalNanos);
      head.sequence = sequences.getAndIncrement();
      heap.add(head);
    } else {
      head.state = ScheduledTimer.FIRED;
    }
    publishHead();
    return head;
  }

  /**
   * As {@link #pollDue}, but only a timer that orders before (deadline, sequence) {@code
   * (beforeDeadline, beforeSequence)}: the driver's merge with its {@link DeliveryHeap}.
   */
  synchronized ScheduledTimer pollDueBefore(
      long instant, long beforeDeadline, long beforeSequence) {
    ScheduledTimer head = liveHead();
    if (head == null
        || head.deadline > instant
        || head.deadline > beforeDeadline
        || (head.deadline == beforeDeadline && head.sequence > beforeSequence)) {
      return null;
    }
    return pollDue(instant);
  }

  /** The head's deadline as last published (see {@link #headDeadline}); no lock. */
  long publishedHeadDeadline() {
    return headDeadline;
  }

  /** The head's sequence as last published; no lock. */
  long publishedHeadSequence() {
    return headSequence;
  }

  private void publishHead() {
    ScheduledTimer head = heap.peek();
    if (head == null) {
      headDeadline = NO_DEADLINE;
    } else {
      headSequence = head.sequence;
      headDeadline = head.deadline;
    }
  }

  /** Number of live (not cancelled, not yet fired) timers. */
  synchronized int liveCount() {
    return heap.size() - cancelledInHeap;
  }

  /** Number of heap entries including cancelled ones that have not been dropped yet. */
  synchronized int heapSize() {
    return heap.size();
  }

  /**
   * Closes the queue and runs, on the calling thread, the pending {@link Scheduler.TaskRunOnClose}
   * tasks in deadline order (Pekko's contract for a closeable scheduler; dispatcher shutdown
   * actions are such tasks). Failures are logged, not thrown.
   */
  void closeAndRunOnCloseTasks(LoggingAdapter log) {
    for (Runnable task : close()) {
      try {
        task.run();
      } catch (RuntimeException e) {
        log.error(e, "task run on scheduler close failed: {}", task);
      }
    }
  }

  /**
   * Closes the queue: later {@link #add} calls throw, all timers are dropped, and the live {@link
   * Scheduler.TaskRunOnClose} tasks are returned in deadline order for the caller to run (outside
   * this lock).
   */
  synchronized List<Runnable> close() {
    closed = true;
    List<Runnable> runOnClose = new ArrayList<>();
    ScheduledTimer timer;
    while ((timer = heap.poll()) != null) {
      if (timer.state == ScheduledTimer.PENDING && timer.task instanceof Scheduler.TaskRunOnClose) {
        runOnClose.add(timer.task);
      }
    }
    cancelledInHeap = 0;
    publishHead();
    return runOnClose;
  }

  boolean isClosed() {
    return closed;
  }

  /**
   * Called by {@link ScheduledTimer#cancel()}; false if the timer already fired (one-shot) or was
   * cancelled.
   */
  synchronized boolean markCancelled(ScheduledTimer timer) {
    if (timer.state != ScheduledTimer.PENDING) {
      return false;
    }
    timer.state = ScheduledTimer.CANCELLED;
    if (!closed) {
      cancelledInHeap++;
      if (cancelledInHeap >= COMPACT_MIN_CANCELLED && cancelledInHeap * 2 > heap.size()) {
        heap.removeIf(ScheduledTimer::isCancelled);
        cancelledInHeap = 0;
        publishHead();
      }
    }
    return true;
  }

  private ScheduledTimer liveHead() {
    ScheduledTimer head;
    boolean dropped = false;
    while ((head = heap.peek()) != null && head.state == ScheduledTimer.CANCELLED) {
      heap.poll();
      cancelledInHeap--;
      dropped = true;
    }
    if (dropped) {
      publishHead();
    }
    return head;
  }

  private static long deadlineAfter(long now, FiniteDuration delay) {
    return saturatedAdd(now, Math.max(0L, delay.toNanos()));
  }

  static long saturatedAdd(long base, long delta) {
    long sum = base + delta;
    // Overflow iff both operands have the same sign and the sum's sign differs.
    if (((base ^ sum) & (delta ^ sum)) < 0) {
      return delta > 0 ? NO_DEADLINE - 1 : Long.MIN_VALUE;
    }
    return Math.min(sum, NO_DEADLINE - 1);
  }
}
