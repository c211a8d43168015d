package io.mqroute.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The host router's slot bookkeeping, without actors (queue handles are strings, sorted by
 * themselves).
 */
class QueueSlotsTest {
  private static QueueSlots<String> slots(int capacity) {
    return new QueueSlots<>(capacity, Function.identity());
  }

  /** A listing in the given iteration order (as a hash set would give it, any order). */
  private static Set<String> listing(String... refs) {
    return new LinkedHashSet<>(List.of(refs));
  }

  @Test
  void newQueuesGetTheLowestFreeSlotsInPathOrderWhateverTheListingOrder() {
    QueueSlots<String> a = slots(4);
    QueueSlots<String> b = slots(4);
    a.update(listing("q/c", "q/a", "q/b"));
    b.update(listing("q/b", "q/c", "q/a"));
    for (QueueSlots<String> s : List.of(a, b)) {
      assertThat(s.queue(0)).isEqualTo("q/a");
      assertThat(s.queue(1)).isEqualTo("q/b");
      assertThat(s.queue(2)).isEqualTo("q/c");
      assertThat(s.queue(3)).isNull();
      assertThat(s.size()).isEqualTo(3);
    }
  }

  @Test
  void aDepartedQueueFreesItsSlotAndTheOthersKeepTheirs() {
    QueueSlots<String> s = slots(4);
    assertThat(s.update(listing("a", "b", "c")))
        .isEqualTo(new QueueSlots.Change(List.of(0, 1, 2), List.of()));
    assertThat(s.update(listing("a", "c"))).isEqualTo(new QueueSlots.Change(List.of(), List.of(1)));
    assertThat(s.slotOf("b")).isEqualTo(-1);
    assertThat(s.slotOf("c")).isEqualTo(2);
    // a newcomer takes the freed slot; an unchanged listing changes nothing
    assertThat(s.update(listing("d", "a", "c")))
        .isEqualTo(new QueueSlots.Change(List.of(1), List.of()));
    assertThat(s.queue(1)).isEqualTo("d");
    assertThat(s.update(listing("a", "c", "d")).isEmpty()).isTrue();
  }

  @Test
  void queuesBeyondTheCapacityWaitUntilASlotFrees() {
    QueueSlots<String> s = slots(2);
    assertThat(s.update(listing("c", "b", "a")).added()).containsExactly(0, 1);
    assertThat(s.waiting()).isEqualTo(1);
    assertThat(s.slotOf("c")).isEqualTo(-1);
    QueueSlots.Change change = s.update(listing("c", "b"));
    assertThat(change).isEqualTo(new QueueSlots.Change(List.of(0), List.of(0)));
    assertThat(s.queue(0)).isEqualTo("c");
    assertThat(s.waiting()).isZero();
  }

  @Test
  void capacityMustBePositive() {
    assertThatThrownBy(() -> slots(0)).isInstanceOf(IllegalArgumentException.class);
  }
}
