package io.mqroute.policies.selector;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.testing.ScriptedRandom;
import io.mqroute.policies.topology.CpuTopology;
import org.junit.jupiter.api.Test;

/** random, round-robin, p2c, shortest and single, with scripted draws. */
class BaselineSelectorsTest {

  static final int NONE = QueueSelector.NONE;

  static MutableRoutingView view(int[] registered, int... nrReqs) {
    return MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4))
        .registered(registered)
        .nrReqs(nrReqs)
        .build();
  }

  @Test
  void randomIndexesTheRegisteredMask() {
    MutableRoutingView v = view(new int[] {1, 4, 6});
    ScriptedRandom r = new ScriptedRandom(0, 2, 1);
    QueueSelector s = RandomSelector.newBuilder().build();
    assertThat(
            new int[] {s.select(v, 0, false, r), s.select(v, 0, true, r), s.select(v, 7, false, r)})
        .containsExactly(1, 6, 4);
    assertThat(r.bounds()).containsExactly(3, 3, 3);
    assertThat(s.select(view(new int[0]), 0, false, new ScriptedRandom())).isEqualTo(NONE);
  }

  @Test
  void roundRobinCyclesOverRegisteredQueuesAndFollowsRegistration() {
    MutableRoutingView v = view(new int[] {1, 4, 6});
    QueueSelector s = RoundRobinSelector.newBuilder().build();
    ScriptedRandom r = new ScriptedRandom();
    assertThat(
            new int[] {
              s.select(v, 0, false, r),
              s.select(v, 0, false, r),
              s.select(v, 0, false, r),
              s.select(v, 0, false, r)
            })
        .containsExactly(1, 4, 6, 1);
    v.unregister(4);
    assertThat(s.select(v, 0, false, r)).isEqualTo(6);
    v.unregister(1);
    v.unregister(6);
    assertThat(s.select(v, 0, false, r)).isEqualTo(NONE);
  }

  @Test
  void p2cPicksLighterDrawAndTiesGoToTheLaterDraw() {
    MutableRoutingView v = view(new int[] {0, 1, 2, 3, 4, 5, 6, 7}, 0, 0, 0, 2, 0, 1, 0, 0);
    QueueSelector two = PowerOfChoicesSelector.newBuilder().build();
    assertThat(two.select(v, 0, false, new ScriptedRandom(3, 5))).isEqualTo(5);
    assertThat(two.select(v, 0, false, new ScriptedRandom(5, 3))).isEqualTo(5);
    assertThat(two.select(v, 0, false, new ScriptedRandom(0, 1))).isEqualTo(1);
    assertThat(two.select(v, 0, false, new ScriptedRandom(3, 3))).isEqualTo(3);
    v.setNrReqs(0, 3);
    v.setNrReqs(1, 1);
    v.setNrReqs(2, 1);
    QueueSelector three = PowerOfChoicesSelector.newBuilder().choices(3).build();
    ScriptedRandom r = new ScriptedRandom(0, 1, 2);
    assertThat(three.select(v, 0, false, r)).isEqualTo(2);
    r.assertExhausted();
  }

  @Test
  void p2cWithOneQueueDoesNotDraw() {
    ScriptedRandom r = new ScriptedRandom();
    assertThat(PowerOfChoicesSelector.newBuilder().build().select(view(new int[] {5}), 0, false, r))
        .isEqualTo(5);
    assertThat(PowerOfChoicesSelector.newBuilder().build().select(view(new int[0]), 0, false, r))
        .isEqualTo(NONE);
  }

  @Test
  void shortestPicksLowestLoadLowestIndexOnTiesOverRegisteredOnly() {
    MutableRoutingView v = view(new int[] {1, 2, 3, 5, 7}, 0, 4, 1, 5, 9, 1, 9, 0);
    QueueSelector s = ShortestQueueSelector.newBuilder().build();
    assertThat(s.select(v, 0, false, new ScriptedRandom())).isEqualTo(7);
    v.setNrReqs(7, 1);
    assertThat(s.select(v, 0, false, new ScriptedRandom())).isEqualTo(2);
    assertThat(s.select(view(new int[0]), 0, false, new ScriptedRandom())).isEqualTo(NONE);
  }

  @Test
  void shortestScansBeyondTheFirstWord() {
    MutableRoutingView v = MutableRoutingView.newBuilder(CpuTopology.uniform(2, 150)).build();
    for (int q = 0; q < 300; q++) {
      v.setNrReqs(q, 5);
    }
    v.setNrReqs(257, 2);
    assertThat(ShortestQueueSelector.newBuilder().build().select(v, 0, false, new ScriptedRandom()))
        .isEqualTo(257);
  }

  @Test
  void singleUsesConfiguredQueueOrFirstRegistered() {
    MutableRoutingView v = view(new int[] {2, 3, 6});
    ScriptedRandom r = new ScriptedRandom();
    assertThat(SingleQueueSelector.newBuilder().build().select(v, 7, true, r)).isEqualTo(2);
    assertThat(SingleQueueSelector.newBuilder().queue(6).build().select(v, 0, false, r))
        .isEqualTo(6);
    assertThat(SingleQueueSelector.newBuilder().queue(5).build().select(v, 0, false, r))
        .isEqualTo(NONE);
    assertThat(SingleQueueSelector.newBuilder().queue(99).build().select(v, 0, false, r))
        .isEqualTo(NONE);
    v.unregister(2);
    assertThat(SingleQueueSelector.newBuilder().build().select(v, 7, true, r)).isEqualTo(3);
  }
}
