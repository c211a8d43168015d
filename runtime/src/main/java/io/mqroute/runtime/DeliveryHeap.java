package io.mqroute.runtime;

import java.util.Arrays;

/**
 * The virtual-time driver's own timers: one-shot tasks at an instant ({@link TimedDelivery}s), in a
 * 4-ary heap over two arrays ordered by (deadline, sequence). Driver thread only, so no lock, no
 * node object and no comparator call per timer: the cost notes of issue #18 measured the
 * synchronized, object-per-entry {@link TimerQueue} at a sixth of a request's time, three monitor
 * round trips and a {@code compareTo} chase per level for every CPU item's end.
 *
 * <p>Not cancellable: a timed delivery that must not happen is redirected, never removed.
 */
final class DeliveryHeap {
  /** Entry i's deadline at 2i and sequence at 2i + 1: one cache line holds four entries' keys. */
  private long[] keys = new long[2 * 1024];

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
    return keys[0];
  }

  /** The earliest entry's sequence number; only when not empty. */
  long headSequence() {
    return keys[1];
  }

  void add(long deadline, long sequence, Runnable task) {
    if (size == tasks.length) {
      keys = Arrays.copyOf(keys, 4 * size);
      tasks = Arrays.copyOf(tasks, 2 * size);
    }
    siftUp(size++, deadline, sequence, task);
  }

  /** Puts the entry at the hole {@code i} or above it, moving down the parents it precedes. */
  private void siftUp(int i, long deadline, long sequence, Runnable task) {
    long[] k = keys;
    while (i > 0) {
      int parent = (i - 1) >>> 2;
      long pd = k[2 * parent];
      if (pd < deadline || (pd == deadline && k[2 * parent + 1] < sequence)) {
        break;
      }
      k[2 * i] = pd;
      k[2 * i + 1] = k[2 * parent + 1];
      tasks[i] = tasks[parent];
      i = parent;
    }
    k[2 * i] = deadline;
    k[2 * i + 1] = sequence;
    tasks[i] = task;
  }

  /**
   * Removes and returns the earliest entry's task; only when not empty. A 4-ary heap: half the
   * levels of a binary one, and a node's four children's keys are adjacent. Bottom-up: the hole at
   * the top goes down along the smaller children to a leaf without comparing them with the last
   * entry, which is then sifted up from there; the last entry belongs near the bottom, so this
   * saves a comparison per level for the one or two it costs at the end.
   */
  Runnable poll() {
    long[] k = keys;
    Runnable head = tasks[0];
    int last = --size;
    long d = k[2 * last];
    long s = k[2 * last + 1];
    Runnable t = tasks[last];
    tasks[last] = null;
    if (last > 0) {
      int i = 0;
      while (true) {
        int first = 4 * i + 1;
        if (first >= last) {
          break;
        }
        int best = first;
        long bd = k[2 * first];
        long bs = k[2 * first + 1];
        int end = Math.min(first + 4, last);
        for (int c = first + 1; c < end; c++) {
          long cd = k[2 * c];
          if (cd < bd || (cd == bd && k[2 * c + 1] < bs)) {
            best = c;
            bd = cd;
            bs = k[2 * c + 1];
          }
        }
        k[2 * i] = bd;
        k[2 * i + 1] = bs;
        tasks[i] = tasks[best];
        i = best;
      }
      siftUp(i, d, s, t);
    }
    return head;
  }

  /** Drops every entry (the scheduler closed). */
  void clear() {
    Arrays.fill(tasks, 0, size, null);
    size = 0;
  }
}
