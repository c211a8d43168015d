package io.mqroute.runtime;

import java.util.Arrays;

/**
 * The virtual-time driver's own timers: one-shot tasks at an instant ({@link TimedDelivery}s), in a
 * binary heap over parallel arrays ordered by (deadline, sequence). Driver thread only, so no lock,
 * no node object and no comparator call per timer: the cost notes of issue #18 measured the
 * synchronized, object-per-entry {@link TimerQueue} at a sixth of a request's time, three monitor
 * round trips and a {@code compareTo} chase per level for every CPU item's end.
 *
 * <p>Not cancellable: a timed delivery that must not happen is redirected, never removed.
 */
final class DeliveryHeap {
  private long[] deadlines = new long[1024];
  private long[] sequences = new long[1024];
  private Runnable[] tasks = new Runnable[1024];
  private int size;

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  /** The earliest deadline; only when not empty. */
  long headDeadline() {
    return deadlines[0];
  }

  /** The earliest entry's sequence number; only when not empty. */
  long headSequence() {
    return sequences[0];
  }

  void add(long deadline, long sequence, Runnable task) {
    if (size == tasks.length) {
      int n = size * 2;
      deadlines = Arrays.copyOf(deadlines, n);
      sequences = Arrays.copyOf(sequences, n);
      tasks = Arrays.copyOf(tasks, n);
    }
    int i = size++;
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      long pd = deadlines[parent];
      if (pd < deadline || (pd == deadline && sequences[parent] < sequence)) {
        break;
      }
      deadlines[i] = pd;
      sequences[i] = sequences[parent];
      tasks[i] = tasks[parent];
      i = parent;
    }
    deadlines[i] = deadline;
    sequences[i] = sequence;
    tasks[i] = task;
  }

  /** Removes and returns the earliest entry's task; only when not empty. */
  Runnable poll() {
    Runnable head = tasks[0];
    int last = --size;
    long d = deadlines[last];
    long s = sequences[last];
    Runnable t = tasks[last];
    tasks[last] = null;
    if (last > 0) {
      int i = 0;
      int half = last >>> 1;
      while (i < half) {
        int child = 2 * i + 1;
        int right = child + 1;
        if (right < last
            && (deadlines[right] < deadlines[child]
                || (deadlines[right] == deadlines[child] && sequences[right] < sequences[child]))) {
          child = right;
        }
        long cd = deadlines[child];
        if (d < cd || (d == cd && s < sequences[child])) {
          break;
        }
        deadlines[i] = cd;
        sequences[i] = sequences[child];
        tasks[i] = tasks[child];
        i = child;
      }
      deadlines[i] = d;
      sequences[i] = s;
      tasks[i] = t;
    }
    return head;
  }

  /** Drops every entry (the scheduler closed). */
  void clear() {
    Arrays.fill(tasks, 0, size, null);
    size = 0;
  }
}
