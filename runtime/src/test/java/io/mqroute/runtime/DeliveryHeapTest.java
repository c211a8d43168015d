package io.mqroute.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The driver's heap hands out its tasks in (deadline, sequence) order, through any interleaving.
 */
class DeliveryHeapTest {
  private record Entry(long deadline, long sequence, Runnable task) {}

  @Test
  void pollsInDeadlineThenSequenceOrderAsASortedListWould() {
    SplittableRandom rnd = new SplittableRandom(42);
    DeliveryHeap heap = new DeliveryHeap();
    PriorityQueue<Entry> reference =
        new PriorityQueue<>(
            Comparator.comparingLong(Entry::deadline).thenComparingLong(Entry::sequence));
    long sequence = 0;
    for (int step = 0; step < 200_000; step++) {
      if (reference.isEmpty() || rnd.nextInt(100) < 55) {
        // few distinct deadlines, so that ties are common and the sequence decides
        Entry e = new Entry(rnd.nextLong(50), sequence++, () -> {});
        heap.add(e.deadline(), e.sequence(), e.task());
        reference.add(e);
      } else {
        Entry first = reference.poll();
        assertThat(heap.headDeadline()).isEqualTo(first.deadline());
        assertThat(heap.headSequence()).isEqualTo(first.sequence());
        assertThat(heap.poll()).isSameAs(first.task());
      }
      assertThat(heap.size()).isEqualTo(reference.size());
    }
  }
}
