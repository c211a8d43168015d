package io.mqroute.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.pekko.actor.Scheduler;
import org.apache.pekko.event.LoggingAdapter;
import scala.concurrent.ExecutionContext;
import scala.concurrent.duration.FiniteDuration;

/**
 * Timers ordered by (deadline, sequence number) in a heap, shared by the virtual-time and the
 * precise real-time scheduler. Thread-safe: every method takes this object's monitor.
 *
 * <p>The heap is 4-ary with its keys in primitive arrays beside the timers (issue #18): a new
 * timer, usually the end of a few microseconds of CPU work, sifts up past most of a thousand device
 * timers, and comparing keys in arrays touches a few cache lines where comparing {@link
 * ScheduledTimer}s touched one object per level. (deadline, sequence) is a total order, so the
 * timers come out in exactly the order a binary heap gave.
 *
 * <p>Cancelled timers stay in the heap and are dropped when they reach its head (removing an
 * arbitrary element from a heap is O(n)). The heap is compacted when more than half of it is
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

  private static final int INITIAL_CAPACITY = 1024;

  /** The heap: {@code timers[i]} has the key ({@code deadlines[i]}, {@code sequences[i]}). */
  private ScheduledTimer[] timers = new ScheduledTimer[INITIAL_CAPACITY];

  private long[] deadlines = new long[INITIAL_CAPACITY];
  private long[] sequences = new long[INITIAL_CAPACITY];
  private int size;
  private long nextSequence;
  private int cancelledInHeap;
  private boolean closed;

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
    timer.sequence = nextSequence++;
    push(timer);
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
    return size > 0 && timers[0] == timer;
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
    pollHead();
    if (head.isPeriodic()) {
      head.deadline = saturatedAdd(head.deadline, head.intervalNanos);
      head.sequence = nextSequence++;
      push(head);
    } else {
      head.state = ScheduledTimer.FIRED;
    }
    return head;
  }

  /** Number of live (not cancelled, not yet fired) timers. */
  synchronized int liveCount() {
    return size - cancelledInHeap;
  }

  /** Number of heap entries including cancelled ones that have not been dropped yet. */
  synchronized int heapSize() {
    return size;
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
    while ((timer = pollHead()) != null) {
      if (timer.state == ScheduledTimer.PENDING && timer.task instanceof Scheduler.TaskRunOnClose) {
        runOnClose.add(timer.task);
      }
    }
    cancelledInHeap = 0;
    return runOnClose;
  }

  synchronized boolean isClosed() {
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
      if (cancelledInHeap >= COMPACT_MIN_CANCELLED && cancelledInHeap * 2 > size) {
        dropCancelled();
      }
    }
    return true;
  }

  private ScheduledTimer liveHead() {
    ScheduledTimer head;
    while ((head = size == 0 ? null : timers[0]) != null
        && head.state == ScheduledTimer.CANCELLED) {
      pollHead();
      cancelledInHeap--;
    }
    return head;
  }

  private static boolean before(long deadline, long sequence, long otherDeadline, long otherSeq) {
    return deadline < otherDeadline || (deadline == otherDeadline && sequence < otherSeq);
  }

  private void push(ScheduledTimer timer) {
    if (size == timers.length) {
      int capacity = size * 2;
      timers = Arrays.copyOf(timers, capacity);
      deadlines = Arrays.copyOf(deadlines, capacity);
      sequences = Arrays.copyOf(sequences, capacity);
    }
    siftUp(size++, timer);
  }

  private ScheduledTimer pollHead() {
    if (size == 0) {
      return null;
    }
    ScheduledTimer head = timers[0];
    ScheduledTimer last = timers[--size];
    timers[size] = null;
    if (size > 0) {
      siftDown(0, last);
    }
    return head;
  }

  private void place(int i, ScheduledTimer timer, long deadline, long sequence) {
    timers[i] = timer;
    deadlines[i] = deadline;
    sequences[i] = sequence;
  }

  private void siftUp(int k, ScheduledTimer timer) {
    long d = timer.deadline;
    long s = timer.sequence;
    while (k > 0) {
      int parent = (k - 1) >>> 2;
      if (!before(d, s, deadlines[parent], sequences[parent])) {
        break;
      }
      place(k, timers[parent], deadlines[parent], sequences[parent]);
      k = parent;
    }
    place(k, timer, d, s);
  }

  private void siftDown(int k, ScheduledTimer timer) {
    long d = timer.deadline;
    long s = timer.sequence;
    while (true) {
      int first = (k << 2) + 1;
      if (first >= size) {
        break;
      }
      int least = first;
      int end = Math.min(first + 4, size);
      for (int c = first + 1; c < end; c++) {
        if (before(deadlines[c], sequences[c], deadlines[least], sequences[least])) {
          least = c;
        }
      }
      if (!before(deadlines[least], sequences[least], d, s)) {
        break;
      }
      place(k, timers[least], deadlines[least], sequences[least]);
      k = least;
    }
    place(k, timer, d, s);
  }

  /** Removes every cancelled timer and rebuilds the heap (same order: the keys are total). */
  private void dropCancelled() {
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (!timers[i].isCancelled()) {
        place(kept++, timers[i], deadlines[i], sequences[i]);
      }
    }
    Arrays.fill(timers, kept, size, null);
    size = kept;
    for (int i = (size - 2) >>> 2; size > 1 && i >= 0; i--) {
      siftDown(i, timers[i]);
    }
    cancelledInHeap = 0;
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
