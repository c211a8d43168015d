package io.mqroute.policies.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class SeededRandomTest {

  @Test
  void fnv1aMatchesPublishedVectors() {
    assertThat(Fnv1a.hash64("")).isEqualTo(0xcbf29ce484222325L);
    assertThat(Fnv1a.hash64("a")).isEqualTo(0xaf63dc4c8601ec8cL);
    assertThat(Fnv1a.hash64("foobar")).isEqualTo(0x85944171f73967e8L);
  }

  /** The documented derivation, re-implemented from its specification (SplitMix64 + FNV-1a). */
  @Test
  void streamFollowsTheSpecifiedDerivation() {
    long seed = 42;
    long id = spec(seed ^ Fnv1a.hash64("routing"));
    long state = id;
    SeededRandom r = SeededRandom.stream(seed, "routing");
    assertThat(r.identity()).isEqualTo(id);
    for (int i = 0; i < 5; i++) {
      state += 0x9e3779b97f4a7c15L; // SplittableRandom's GOLDEN_GAMMA for a seeded instance
      assertThat(r.nextLong()).isEqualTo(spec(state));
    }
  }

  private static long spec(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  @Test
  void splitDependsOnNameAndSeedButNotOnDrawsSoFar() {
    SeededRandom root = SeededRandom.root(7);
    long first = root.split("arrivals").nextLong();
    root.nextLong();
    root.nextInt(10);
    assertThat(root.split("arrivals").nextLong()).isEqualTo(first);
    assertThat(root.split("service").nextLong()).isNotEqualTo(first);
    assertThat(SeededRandom.root(8).split("arrivals").nextLong()).isNotEqualTo(first);
    assertThat(root.split("a").split("b").identity())
        .isNotEqualTo(root.split("b").split("a").identity());
  }

  @Test
  void boundedDrawsStayInRangeAndHitEveryValue() {
    SeededRandom r = SeededRandom.stream(1, "t");
    int[] seen = new int[7];
    for (int i = 0; i < 7000; i++) {
      seen[r.nextInt(7)]++;
    }
    for (int c : seen) {
      assertThat(c).isBetween(850, 1150);
    }
    assertThat(r.nextInt(1)).isZero();
    for (int i = 0; i < 1000; i++) {
      assertThat(r.nextInt(Integer.MAX_VALUE)).isNotNegative();
      double d = r.nextDouble();
      assertThat(d).isGreaterThanOrEqualTo(0.0).isLessThan(1.0);
    }
    assertThatThrownBy(() -> r.nextInt(0)).hasMessage("bound must be > 0, got 0");
  }

  @Test
  void exponentialHasTheRequestedMean() {
    SeededRandom r = SeededRandom.stream(3, "service");
    int n = 200_000;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      double x = r.nextExponential(40.0);
      assertThat(x).isNotNegative();
      sum += x;
    }
    // standard error of the mean = 40 / sqrt(n) ~ 0.089; allow 4 of them
    assertThat(sum / n).isCloseTo(40.0, Offset.offset(0.36));
  }
}
