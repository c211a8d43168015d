package io.mqroute.actors.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FallbackCpuTest {
  /** Two nodes of four CPUs: 0-3 and 4-7. */
  private static int fallback(int cpu, boolean[] online, int[] allowed) {
    return FallbackCpu.of(cpu, online.length, c -> online[c], c -> c / 4, allowed);
  }

  private static boolean[] onlineExcept(int... off) {
    boolean[] o = new boolean[8];
    java.util.Arrays.fill(o, true);
    for (int c : off) {
      o[c] = false;
    }
    return o;
  }

  @Test
  void sameNodeFirstSearchingUpwards() {
    assertThat(fallback(3, onlineExcept(3), null)).isEqualTo(0);
    assertThat(fallback(1, onlineExcept(1, 2), null)).isEqualTo(3);
    assertThat(fallback(5, onlineExcept(4, 5, 6, 7), null)).isEqualTo(0);
  }

  @Test
  void allowedCpusBeforeTheNodeThenAffinityBreaks() {
    assertThat(fallback(1, onlineExcept(1), new int[] {1, 6})).isEqualTo(6); // allowed, other node
    assertThat(fallback(1, onlineExcept(1, 6), new int[] {1, 6})).isEqualTo(2); // affinity broken: same node
    assertThat(fallback(1, onlineExcept(0, 1, 2, 3, 6), new int[] {1, 6})).isEqualTo(4);
  }

  @Test
  void noneOnline() {
    boolean[] none = new boolean[8];
    assertThat(fallback(2, none, null)).isEqualTo(-1);
  }
}
