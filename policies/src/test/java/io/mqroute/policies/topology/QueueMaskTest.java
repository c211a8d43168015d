package io.mqroute.policies.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.BitSet;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * BitMask against java.util.BitSet as the oracle, across word boundaries (capacities up to 300).
 */
class QueueMaskTest {

  @Test
  void agreesWithBitSetOnRandomSets() {
    SplittableRandom r = new SplittableRandom(9);
    for (int trial = 0; trial < 300; trial++) {
      int capacity = 1 + r.nextInt(300);
      BitMask mask = new BitMask(capacity);
      BitSet oracle = new BitSet();
      for (int op = 0; op < 400; op++) {
        int i = r.nextInt(capacity);
        boolean set = r.nextInt(3) > 0;
        assertThat(mask.set(i, set)).isEqualTo(oracle.get(i) != set);
        oracle.set(i, set);
        if (op % 3 == 0 && !oracle.isEmpty()) { // the lazy member index must follow changes
          int rank = r.nextInt(oracle.cardinality());
          assertThat(mask.nth(rank)).isEqualTo(oracle.stream().skip(rank).findFirst().getAsInt());
        }
      }
      assertThat(mask.weight()).isEqualTo(oracle.cardinality());
      assertThat(mask.first()).isEqualTo(oracle.isEmpty() ? -1 : oracle.nextSetBit(0));
      int n = 0;
      for (int i = oracle.nextSetBit(0); i >= 0; i = oracle.nextSetBit(i + 1), n++) {
        assertThat(mask.nth(n)).isEqualTo(i);
        assertThat(mask.contains(i)).isTrue();
      }
      assertThat(mask.nth(n)).isEqualTo(QueueMask.NONE);
      assertThat(mask.nth(-1)).isEqualTo(QueueMask.NONE);
      int from = r.nextInt(capacity + 10);
      int expectedNext = oracle.nextSetBit(from);
      assertThat(mask.nextSetBit(from)).isEqualTo(expectedNext);
      QueueMask viaDefaults = new QueueMask() { // exercise the interface defaults too
            @Override
            public int capacity() {
              return mask.capacity();
            }

            @Override
            public long word(int index) {
              return mask.word(index);
            }
          };
      assertThat(viaDefaults.weight()).isEqualTo(mask.weight());
      for (int k = -1; k <= mask.weight(); k++) {
        assertThat(viaDefaults.nth(k)).as("default nth(%d)", k).isEqualTo(mask.nth(k));
      }
      assertThat(viaDefaults.first()).isEqualTo(mask.first());
      assertThat(viaDefaults.isEmpty()).isEqualTo(oracle.isEmpty());
    }
  }

  @Test
  void memberIndexFollowsEveryKindOfChangeAfterARead() {
    BitMask m = BitMask.of(200, 3, 64, 130);
    assertThat(m.nth(1)).isEqualTo(64);
    m.clear(64);
    assertThat(m.nth(1)).isEqualTo(130);
    m.set(10);
    assertThat(m.nth(1)).isEqualTo(10);
    m.set(10, false);
    assertThat(m.nth(1)).isEqualTo(130);
    m.clearAll();
    assertThat(m.nth(0)).isEqualTo(QueueMask.NONE);
    m.set(199);
    assertThat(m.first()).isEqualTo(199);
  }

  @Test
  void outOfRangeIsNeverAMemberAndCannotBeSet() {
    BitMask m = BitMask.of(70, 0, 69);
    assertThat(m.contains(70)).isFalse();
    assertThat(m.contains(-1)).isFalse();
    assertThat(m.toString()).isEqualTo("{0,69}");
    assertThatThrownBy(() -> m.set(70)).isInstanceOf(IndexOutOfBoundsException.class);
    m.clearAll();
    assertThat(m.isEmpty()).isTrue();
    assertThat(BitMask.full(130).weight()).isEqualTo(130);
  }
}
