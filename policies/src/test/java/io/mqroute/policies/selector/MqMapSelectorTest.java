package io.mqroute.policies.selector;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.testing.ScriptedRandom;
import io.mqroute.policies.topology.CpuTopology;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code group_cpus_evenly} as used by {@code virtio_fs_map_queues}. */
class MqMapSelectorTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
        one node, even split                       | 0 0 0 0 0 0 0 0 | 4 | 0 0 1 1 2 2 3 3
        one node, rounding extra goes first        | 0 0 0 0 0 0 0 0 | 3 | 0 0 0 1 1 1 2 2
        one queue                                  | 0 0 0 0 1 1 1 1 | 1 | 0 0 0 0 0 0 0 0
        groups <= nodes: nodes round-robin         | 0 0 1 1 2 2 3 3 | 2 | 0 0 1 1 0 0 1 1
        uneven nodes: smaller node sorted first    | 0 0 0 0 0 0 1 1 | 4 | 1 1 2 2 3 3 0 0
        two equal nodes: heap sort visits node 1 first | 0 0 0 0 1 1 1 1 | 4 | 2 2 3 3 0 0 1 1
        interleaved nodes stay NUMA-local          | 0 1 0 1 0 1 0 1 | 4 | 2 0 2 0 3 1 3 1
        more queues than CPUs: one CPU each        | 0 0 0 0         | 6 | 0 1 2 3
        per-CPU queues                             | 0 0 1 1         | 4 | 2 3 0 1
        CPU-less node sorts first (UINT_MAX wraps) | 0 0 0 0 2 2     | 3 | 1 1 2 2 0 0
        """)
  void groupsLikeTheKernel(String name, String nodes, int queues, String expected) {
    assertThat(GroupCpusEvenly.map(StaticCpuSelectorTest.ints(nodes), queues))
        .containsExactly(StaticCpuSelectorTest.ints(expected));
  }

  @Test
  void heapSortMatchesLibSortOnTies() {
    int[] ids = {0, 1};
    GroupCpusEvenly.heapSort(ids, id -> 4);
    assertThat(ids).containsExactly(1, 0);
    int[] three = {0, 1, 2};
    int[] keys = {8, 2, 5};
    GroupCpusEvenly.heapSort(three, id -> keys[id]);
    assertThat(three).containsExactly(1, 2, 0);
  }

  @Test
  void everyCpuGetsAQueueAndQueuesAreBalancedPerNode() {
    SplittableRandom r = new SplittableRandom(3);
    for (int trial = 0; trial < 200; trial++) {
      int nodes = 1 + r.nextInt(4);
      int[] cpuToNode =
          IntStream.range(0, nodes * (1 + r.nextInt(40))).map(c -> c % nodes).toArray();
      int queues = 1 + r.nextInt(cpuToNode.length);
      int[] map = GroupCpusEvenly.map(cpuToNode, queues);
      int[] size = new int[queues];
      for (int q : map) {
        size[q]++;
      }
      assertThat(Arrays.stream(size).min().getAsInt()).as("every queue used").isPositive();
      if (queues >= nodes) {
        for (int cpu = 0; cpu < map.length; cpu++) { // a queue never spans two nodes
          for (int other = 0; other < map.length; other++) {
            if (map[cpu] == map[other]) {
              assertThat(cpuToNode[cpu]).isEqualTo(cpuToNode[other]);
            }
          }
        }
      }
    }
  }

  @Test
  void selectorLooksUpTheCurrentCpuAndIgnoresLoadAndHotplug() {
    MutableRoutingView view =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, 8))
            .queues(4)
            .nrReqs(50, 0, 0, 0)
            .offline(1)
            .build();
    QueueSelector s = MqMapSelector.newBuilder().build();
    ScriptedRandom random = new ScriptedRandom();
    int[] picks =
        IntStream.range(0, 8).map(cpu -> s.select(view, cpu, cpu % 2 == 0, random)).toArray();
    assertThat(picks).containsExactly(0, 0, 1, 1, 2, 2, 3, 3);
    view.unregister(2);
    assertThat(s.select(view, 4, false, random)).isEqualTo(QueueSelector.NONE);
    assertThat(random.used()).isZero();
  }

  @Test
  void mapIsRecomputedForAnotherView() {
    MqMapSelector s = MqMapSelector.newBuilder().build();
    MutableRoutingView two =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, 4)).queues(2).build();
    MutableRoutingView four =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, 4)).queues(4).build();
    assertThat(s.mapFor(two)).containsExactly(0, 0, 1, 1);
    assertThat(s.mapFor(four)).containsExactly(0, 1, 2, 3);
  }
}
