package io.mqroute.policies.topology;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class Select64Test {

  @Test
  void agreesWithClearingLowestBits() {
    SplittableRandom r = new SplittableRandom(64);
    long[] special = {1L, -1L, Long.MIN_VALUE, 0x8000000000000001L, 0xff00L, 0x5555555555555555L};
    for (int trial = 0; trial < 20_000; trial++) {
      long x =
          trial < special.length
              ? special[trial]
              : r.nextLong() & r.nextLong() | (1L << r.nextInt(64));
      long bits = x;
      for (int rank = 0; rank < Long.bitCount(x); rank++) {
        assertThat(Select64.select(x, rank))
            .as("x=%x rank=%d", x, rank)
            .isEqualTo(Long.numberOfTrailingZeros(bits));
        bits &= bits - 1;
      }
    }
  }
}
