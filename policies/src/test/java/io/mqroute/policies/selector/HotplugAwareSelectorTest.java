package io.mqroute.policies.selector;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.random.SeededRandom;
import io.mqroute.policies.testing.ScriptedRandom;
import io.mqroute.policies.testing.Views;
import io.mqroute.policies.topology.CpuTopology;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class HotplugAwareSelectorTest {

  @Test
  void innerSeesOfflineQueuesAsUnregistered() {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4)).offline(2).build();
    // reduced-v3 alone goes to queue 2 (nth(2) of {0,1,2,3}); filtered, the node mask is {0,1,3}
    assertThat(ReducedV3Selector.newBuilder().build().select(view, 1, true, new ScriptedRandom()))
        .isEqualTo(2);
    QueueSelector aware = HotplugAwareSelector.wrap(ReducedV3Selector.newBuilder().build());
    assertThat(aware.select(view, 1, true, new ScriptedRandom())).isEqualTo(3);
  }

  @Test
  void staticCpuOnAnOfflineHomeQueueIsNone() {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, 4)).offline(3).build();
    QueueSelector aware = HotplugAwareSelector.wrap(StaticCpuSelector.newBuilder().build());
    assertThat(aware.select(view, 3, false, new ScriptedRandom())).isEqualTo(QueueSelector.NONE);
    view.setCpuOnline(3, true);
    assertThat(aware.select(view, 3, false, new ScriptedRandom())).isEqualTo(3);
  }

  @Test
  void followsOnlineChangesOfQueuesSharingACpu() {
    // queues 0 and 2 live on CPU 0, queues 1 and 3 on CPU 1
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, 2)).queues(4).build();
    QueueSelector rr = HotplugAwareSelector.wrap(RoundRobinSelector.newBuilder().build());
    view.setCpuOnline(1, false);
    ScriptedRandom r = new ScriptedRandom();
    assertThat(
            new int[] {
              rr.select(view, 0, false, r),
              rr.select(view, 0, false, r),
              rr.select(view, 0, false, r)
            })
        .containsExactly(0, 2, 0);
  }

  @Test
  void neverPicksAQueueWhoseHomeCpuIsOffline() {
    SplittableRandom r = new SplittableRandom(11);
    SeededRandom routing = SeededRandom.stream(11, "routing");
    for (String inner : Selectors.BUILT_IN) {
      if (inner.equals("hotplug-aware")) {
        continue;
      }
      QueueSelector s = Selectors.create("hotplug-aware", Map.of("inner", inner));
      for (int i = 0; i < 300; i++) {
        MutableRoutingView view = Views.random(r);
        int q = s.select(view, r.nextInt(view.cpuCount()), r.nextBoolean(), routing);
        if (q != QueueSelector.NONE) {
          assertThat(view.cpuOnline(view.queueCpu(q)))
              .as("%s picked offline queue %d", inner, q)
              .isTrue();
        }
      }
    }
  }
}
