package io.mqroute.policies.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CpuTopologyTest {

  @Test
  void uniformLayoutIsContiguousPerNode() {
    CpuTopology t = CpuTopology.uniform(2, 3);
    assertThat(t.cpuCount()).isEqualTo(6);
    assertThat(t.nodeCount()).isEqualTo(2);
    assertThat(new int[] {t.cpuToNode(0), t.cpuToNode(2), t.cpuToNode(3), t.cpuToNode(5)})
        .containsExactly(0, 0, 1, 1);
    assertThat(t.cpusOnNode(1)).isEqualTo(3);
  }

  @Test
  void cpu0IsNotHotpluggableByDefault() {
    CpuTopology t = CpuTopology.ofNodes(0, 0, 1, 1);
    assertThat(t.hotpluggableCpus()).containsExactly(1, 2, 3);
    assertThat(
            CpuTopology.newBuilder().cpuToNode(0, 0).allHotpluggable().build().hotpluggableCpus())
        .containsExactly(0, 1);
    assertThat(
            CpuTopology.newBuilder()
                .cpuToNode(0, 0, 0)
                .notHotpluggable(0, 2)
                .build()
                .hotpluggableCpus())
        .containsExactly(1);
  }

  @Test
  void rejectsBadLayouts() {
    assertThatThrownBy(() -> CpuTopology.ofNodes()).hasMessage("cpus must be in [1, 65536], got 0");
    assertThatThrownBy(() -> CpuTopology.ofNodes(0, -1))
        .hasMessage("node must be in [0, 1], got -1");
    assertThatThrownBy(() -> CpuTopology.uniform(0, 4)).hasMessage("nodes must be >= 1, got 0");
    assertThatThrownBy(() -> CpuTopology.newBuilder().cpuToNode(0).notHotpluggable(3).build())
        .hasMessage("notHotpluggable cpu must be in [0, 0], got 3");
  }

  @Test
  void onlineSetRefusesToOfflineAPinnedCpuAndRestoresAll() {
    OnlineCpus online = CpuTopology.uniform(1, 4).allOnline();
    assertThatThrownBy(() -> online.setOnline(0, false)).hasMessage("cpu 0 is not hotpluggable");
    assertThat(online.setOnline(2, false)).isTrue();
    assertThat(online.setOnline(2, false)).isFalse();
    assertThat(online.setOnline(3, false)).isTrue();
    assertThat(online.isOnline(2)).isFalse();
    assertThat(online.onlineCount()).isEqualTo(2);
    assertThat(online.asMask().nth(1)).isEqualTo(1);
    assertThat(online.allOnline()).isEqualTo(2);
    assertThat(online.onlineCount()).isEqualTo(4);
  }
}
