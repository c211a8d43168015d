package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.metrics.AllocationProbe;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OffsetGeneratorTest {

  @Test
  void sequentialWalksTheRegionAndWraps() {
    OffsetGenerator g =
        OffsetGenerator.sequential(8192, 4 * 4096 + 100, 4096); // partial last block unused
    long[] seen = new long[6];
    for (int i = 0; i < seen.length; i++) {
      seen[i] = g.next();
    }
    assertThat(seen).containsExactly(8192, 12288, 16384, 20480, 8192, 12288);
    assertThat(g.blocks()).isEqualTo(4);
  }

  @Test
  void randomIsBlockAlignedInsideTheRegionAndCoversIt() {
    OffsetGenerator g = OffsetGenerator.random(4096, 64 * 4096, 4096, new SplittableRandom(42));
    boolean[] hit = new boolean[64];
    for (int i = 0; i < 10_000; i++) {
      long off = g.next();
      assertThat(off).isBetween(4096L, 4096L + 63 * 4096);
      assertThat((off - 4096) % 4096).isZero();
      hit[(int) ((off - 4096) / 4096)] = true;
    }
    for (boolean h : hit) {
      assertThat(h).isTrue();
    }
  }

  @Test
  void randomIsDeterministicForTheSameSeedAndDiffersForAnother() {
    long[] a = draw(new SplittableRandom(7));
    assertThat(draw(new SplittableRandom(7))).containsExactly(a);
    assertThat(draw(new SplittableRandom(8))).isNotEqualTo(a);
  }

  private static long[] draw(SplittableRandom random) {
    OffsetGenerator g = OffsetGenerator.random(0, 1L << 30, 4096, random);
    long[] out = new long[32];
    for (int i = 0; i < out.length; i++) {
      out[i] = g.next();
    }
    return out;
  }

  @Test
  void rejectsARegionSmallerThanABlock() {
    assertThatThrownBy(() -> OffsetGenerator.sequential(0, 100, 4096))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> OffsetGenerator.random(0, 8192, 0, new SplittableRandom(1)))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void nextDoesNotAllocate() {
    OffsetGenerator seq = OffsetGenerator.sequential(0, 1 << 20, 4096);
    OffsetGenerator rnd = OffsetGenerator.random(0, 1L << 40, 4096, new SplittableRandom(3));
    long[] sink = new long[1];
    for (int i = 0; i < 20_000; i++) {
      sink[0] += seq.next() + rnd.next();
    }
    long bytes =
        AllocationProbe.allocatedBy(
            () -> {
              for (int i = 0; i < 100_000; i++) {
                sink[0] += seq.next() + rnd.next();
              }
            });
    assertThat(bytes).isLessThan(1_024);
  }
}
