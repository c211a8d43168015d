package io.mqroute.policies.selector;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.testing.ScriptedRandom;
import io.mqroute.policies.topology.CpuTopology;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Rows derived by hand from the v2 6/7 diff as posted in seed 002, on two NUMA nodes of four CPUs
 * (CPUs 0–3 node 0, 4–7 node 1), one queue per CPU, thresholds 3/4, retries 2. Where v3 differs,
 * the row says so.
 */
class ReducedV2SelectorTest {

  static final int[] ALL = {0, 1, 2, 3, 4, 5, 6, 7};

  record Case(
      String name, boolean asPosted, int[] nrReqs, int cpu, boolean bg, int[] draws, int expected) {
    @Override
    public String toString() {
      return name;
    }
  }

  static int[] a(int... v) {
    return v;
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case(
            "fg stays on its own queue at the NUMA threshold", true, a(0, 3), 1, false, a(), 1),
        // v3 never walks for a foreground request that has its own queue (weight > retries + 1
        // guard)
        new Case(
            "fg with a busy own queue walks to the neighbour", true, a(0, 4, 0), 1, false, a(), 2),
        new Case("fg walks twice, then the node pick", true, a(3, 4, 9, 9), 1, false, a(0), 0),
        new Case("bg goes to the next queue of the node", true, a(), 1, true, a(), 2),
        new Case(
            "bg walks: nth((qid+1)%w) with the updated qid", true, a(1, 0, 4, 4), 1, true, a(), 0),
        // as posted: one draw, redrawn while it hits the submitting CPU (the two 1s); its load is
        // not looked at,
        // so the busy pick sends the request on to the global pick
        new Case(
            "bg node pick as posted skips the own CPU",
            true,
            a(9, 9, 9, 9),
            1,
            true,
            a(1, 1, 3, 5),
            5),
        // a pick over the NUMA threshold goes global; as posted the global pick is taken whatever
        // its load
        new Case(
            "as posted the global pick is taken even when busy",
            true,
            a(9, 9, 9, 9, 9, 9, 9, 9),
            1,
            false,
            a(0, 6),
            6),
        new Case(
            "not as posted: two different queues, lighter wins",
            false,
            a(3, 9, 9, 9),
            1,
            false,
            a(1, 1, 0),
            0),
        new Case(
            "not as posted: busy global falls back to the node pick",
            false,
            a(9, 9, 9, 8, 9, 9, 9, 9),
            1,
            false,
            a(3, 0, 5, 6),
            3));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void followsThePostedDiff(Case c) {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4))
            .registered(ALL)
            .nrReqs(c.nrReqs())
            .build();
    ScriptedRandom random = new ScriptedRandom(c.draws());
    QueueSelector s = ReducedV2Selector.newBuilder().asPosted(c.asPosted()).build();

    assertThat(s.select(view, c.cpu(), c.bg(), random)).isEqualTo(c.expected());
    random.assertExhausted();
  }
}
