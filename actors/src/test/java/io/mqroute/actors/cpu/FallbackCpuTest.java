package io.mqroute.actors.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class FallbackCpuTest {
  /** Two nodes of four CPUs: 0-3 and 4-7. */
  private static int fallback(int cpu, boolean[] online, int[] allowed) {
    return FallbackCpu.of(cpu, online.length, c -> online[c], c -> c / 4, allowed);
  }

  private static boolean[] onlineExcept(int... off) {
    boolean[] o = new boolean[8];
    Arrays.fill(o, true);
    for (int c : off) {
      o[c] = false;
    }
    return o;
  }

  @Test
  void theLowestOnlineCpuOfTheNodeFirst() {
    assertThat(fallback(3, onlineExcept(3), null)).isEqualTo(0);
    assertThat(fallback(1, onlineExcept(1, 2), null)).isEqualTo(0);
    assertThat(fallback(6, onlineExcept(6), null)).isEqualTo(4);
    assertThat(fallback(5, onlineExcept(4, 5, 6, 7), null)).isEqualTo(0);
  }

  @Test
  void allowedCpusAnywhereThenAffinityBreaksToTheLowestOnlineCpu() {
    assertThat(fallback(1, onlineExcept(1), new int[] {1, 6})).isEqualTo(6); // allowed, other node
    // a thread pinned to its dead CPU: affinity broken, the lowest online CPU of all (not of its
    // node)
    assertThat(fallback(5, onlineExcept(5), new int[] {5})).isEqualTo(0);
    assertThat(fallback(1, onlineExcept(0, 1, 6), new int[] {1, 6})).isEqualTo(2);
  }

  @Test
  void noneOnline() {
    boolean[] none = new boolean[8];
    assertThat(fallback(2, none, null)).isEqualTo(-1);
  }
}
