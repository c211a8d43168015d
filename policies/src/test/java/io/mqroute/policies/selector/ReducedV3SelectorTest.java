package io.mqroute.policies.selector;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.testing.ScriptedRandom;
import io.mqroute.policies.topology.CpuTopology;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rows derived by hand from the v3 pseudo-code (kernel notes §3.4–3.5) on two NUMA nodes of four
 * CPUs (CPUs 0–3 node 0, 4–7 node 1), one queue per CPU, thresholds 2/3/4, retries 2.
 */
class ReducedV3SelectorTest {

  static final int[] ALL = {0, 1, 2, 3, 4, 5, 6, 7};
  static final int N = QueueSelector.NONE;

  record Case(
      String name,
      boolean fgOnly,
      int[] registered,
      int[] nrReqs,
      int cpu,
      boolean bg,
      int[] draws,
      int expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Case full(
      String name, int[] reg, int[] nr, int cpu, boolean bg, int[] draws, int expected) {
    return new Case(name, false, reg, nr, cpu, bg, draws, expected);
  }

  static Case fgOnly(
      String name, int[] reg, int[] nr, int cpu, boolean bg, int[] draws, int expected) {
    return new Case(name, true, reg, nr, cpu, bg, draws, expected);
  }

  static int[] a(int... v) {
    return v;
  }

  static Stream<Case> cases() {
    return Stream.of(
        full("fg stays on own queue at the NUMA threshold (3)", ALL, a(0, 3), 1, false, a(), 1),
        full(
            "fg over threshold: node p2c, lighter draw wins",
            ALL,
            a(2, 4, 1, 0),
            1,
            false,
            a(0, 2),
            2),
        full("fg p2c tie goes to the second draw", ALL, a(1, 4, 0, 1), 1, false, a(0, 3), 3),
        full("fg p2c same index twice: first, no redraw", ALL, a(0, 4), 1, false, a(2, 2), 2),
        full(
            "fg with a local queue never walks neighbours",
            ALL,
            a(9, 9, 9, 9),
            1,
            false,
            a(0, 1, 4, 5),
            5),
        full("bg goes to the next queue of the node mask", ALL, a(), 1, true, a(), 2),
        full(
            "bg walks neighbours: nth((qid+1)%w) with updated qid",
            ALL, a(1, 0, 4, 4), 1, true, a(), 0),
        full(
            "bg retries exhausted: node p2c may pick own queue",
            ALL,
            a(5, 0, 5, 5),
            1,
            true,
            a(1, 2),
            1),
        full(
            "bg retries limited by weight > retries+1, then global",
            a(0, 1, 4, 5, 6, 7),
            a(5, 5),
            1,
            true,
            a(0, 1, 2, 3),
            5),
        full("fg missing local queue: neighbour path", a(0, 2, 4, 5, 6, 7), a(), 1, false, a(), 0),
        full(
            "fg missing local queue: neighbour busy, retry next",
            a(0, 2, 4, 5, 6, 7),
            a(4),
            1,
            false,
            a(),
            2),
        full(
            "no registered queue on the node: global, best_numa NULL",
            a(0, 1, 2, 3),
            a(7, 6),
            5,
            false,
            a(0, 1),
            1),
        full(
            "all over every threshold: NUMA pick beats global",
            ALL,
            a(9, 9, 9, 9, 9, 9, 8, 9),
            1,
            false,
            a(0, 1, 2, 3),
            1),
        full(
            "node busy, global under threshold (<= 4) wins",
            ALL,
            a(5, 5, 5, 5, 9, 9, 4, 9),
            1,
            false,
            a(0, 1, 6, 6),
            6),
        full(
            "one registered queue: no draw even when busy",
            a(6),
            a(0, 0, 0, 0, 0, 0, 9),
            1,
            false,
            a(),
            6),
        full("nothing registered: NONE", a(), a(), 1, false, a(), N),
        full("offline CPU's queue is still picked (static masks)", ALL, a(), 1, true, a(), 2),
        fgOnly("4/6 form: fast path uses LOCAL threshold (2)", ALL, a(0, 2), 1, false, a(), 1),
        fgOnly("4/6 form: nr 3 leaves the local queue", ALL, a(0, 3), 1, false, a(0, 2), 2),
        fgOnly("4/6 form: background routes like foreground", ALL, a(), 1, true, a(), 1),
        fgOnly(
            "4/6 form: missing local goes straight to node p2c",
            a(0, 2, 4, 5, 6, 7),
            a(0, 0, 1),
            1,
            false,
            a(1, 0),
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void followsThePseudoCode(Case c) {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4))
            .registered(c.registered())
            .nrReqs(c.nrReqs())
            .offline(2)
            .build();
    ScriptedRandom random = new ScriptedRandom(c.draws());
    QueueSelector s = ReducedV3Selector.newBuilder().foregroundOnly(c.fgOnly()).build();

    assertThat(s.select(view, c.cpu(), c.bg(), random)).isEqualTo(c.expected());
    random.assertExhausted();
  }

  @Test
  void foregroundWithLocalQueueDrawsOnlyForNodeAndGlobal() {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4))
            .nrReqs(9, 9, 9, 9, 9, 9, 9, 9)
            .build();
    ScriptedRandom random = new ScriptedRandom(0, 1, 4, 5);
    ReducedV3Selector.newBuilder().build().select(view, 1, false, random);
    assertThat(random.bounds()).containsExactly(4, 4, 8, 8);
  }

  @Test
  void cpuBeyondQueueCountUsesQueueZeroAndItsNode() {
    // 8 CPUs, 4 queues on CPUs 0-3 (node 0). CPU 6 -> qid 0 -> node of CPU 0, not of CPU 6.
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4))
            .queues(4)
            .nrReqs(5, 0, 0, 0)
            .build();
    ScriptedRandom random = new ScriptedRandom(1, 2);
    assertThat(ReducedV3Selector.newBuilder().build().select(view, 6, false, random)).isEqualTo(2);
    assertThat(random.bounds()).containsExactly(4, 4);
  }

  @Test
  void zeroRetriesGoesStraightToNodeP2c() {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4)).nrReqs(0, 0, 4).build();
    ScriptedRandom random = new ScriptedRandom(0, 1);
    assertThat(ReducedV3Selector.newBuilder().retries(0).build().select(view, 1, true, random))
        .isEqualTo(1);
    random.assertExhausted();
  }

  @Test
  void customThresholdsAreUsed() {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4)).nrReqs(0, 5).build();
    QueueSelector tolerant = ReducedV3Selector.newBuilder().numaThreshold(5).build();
    assertThat(tolerant.select(view, 1, false, new ScriptedRandom())).isEqualTo(1);
  }

  @Test
  void toStringNamesTheParameters() {
    assertThat(ReducedV3Selector.newBuilder().build())
        .hasToString("ReducedV3Selector[local=2, numa=3, global=4, retries=2]");
    assertThat(ReducedV3Selector.newBuilder().foregroundOnly(true).retries(1).build())
        .hasToString("ReducedV3Selector[local=2, numa=3, global=4, retries=1, foreground-only]");
  }
}
