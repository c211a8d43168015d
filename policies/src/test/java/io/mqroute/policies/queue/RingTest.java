package io.mqroute.policies.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The slot count every ring keeps: demand is the free slots, a release is new demand. */
class RingTest {
  @Test
  void anOfferBeyondTheFreeSlotsIsRefusedAndAReleaseIsTheNextOne() {
    List<String> server = new ArrayList<>();
    Ring<String> ring = Ring.counting(2, server::add);
    assertThat(ring.free()).isEqualTo(2);
    assertThat(ring.offer("a")).isTrue();
    assertThat(ring.offer("b")).isTrue();
    assertThat(ring.offer("c")).as("full: ENOSPC").isFalse();
    assertThat(server).containsExactly("a", "b");
    assertThat(ring.held()).isEqualTo(2);
    assertThat(ring.free()).isZero();
    ring.release();
    assertThat(ring.free()).isEqualTo(1);
    assertThat(ring.offer("c")).isTrue();
    assertThat(server).containsExactly("a", "b", "c");
  }

  @Test
  void aLowerLimitKeepsWhatIsHeldAndRefusesUntilEnoughIsReleased() {
    Ring<String> ring = Ring.counting(3, item -> {});
    ring.offer("a");
    ring.offer("b");
    ring.limit(1);
    assertThat(ring.held()).isEqualTo(2);
    assertThat(ring.free()).isZero();
    ring.release();
    assertThat(ring.offer("c")).as("held 1 of 1").isFalse();
    ring.release();
    assertThat(ring.offer("c")).isTrue();
    assertThatThrownBy(() -> ring.limit(4)).hasMessageContaining("usable ring slots");
    assertThatThrownBy(() -> ring.limit(0)).hasMessageContaining("usable ring slots");
  }

  @Test
  void aReleaseWithoutAHeldSlotIsABug() {
    Ring<String> ring = Ring.counting(1, item -> {});
    assertThatThrownBy(ring::release).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> Ring.counting(0, item -> {})).hasMessageContaining("ring-size");
  }
}
