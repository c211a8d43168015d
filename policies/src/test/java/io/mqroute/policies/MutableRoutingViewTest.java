package io.mqroute.policies;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.policies.topology.CpuTopology;
import org.junit.jupiter.api.Test;

class MutableRoutingViewTest {

  @Test
  void registrationUpdatesGlobalAndNodeMasks() {
    MutableRoutingView v =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4)).registered(1, 6).build();
    assertThat(v.registeredQueues().weight()).isEqualTo(2);
    assertThat(v.registeredQueues(0).first()).isEqualTo(1);
    assertThat(v.registeredQueues(1).first()).isEqualTo(6);
    assertThat(v.register(5)).isTrue();
    assertThat(v.register(5)).isFalse();
    assertThat(v.registeredQueues(1).weight()).isEqualTo(2);
    assertThat(v.unregister(1)).isTrue();
    assertThat(v.registeredQueues(0).isEmpty()).isTrue();
    assertThat(v.registered(1)).isFalse();
    assertThat(v.registered(99)).isFalse();
    assertThat(v.registered(-1)).isFalse();
  }

  @Test
  void queueNodeFollowsItsHomeCpu() {
    MutableRoutingView v =
        MutableRoutingView.newBuilder(CpuTopology.uniform(2, 4)).queues(2).queueCpu(1, 7).build();
    assertThat(v.registeredQueues(0).first()).isEqualTo(0);
    assertThat(v.registeredQueues(1).first()).isEqualTo(1);
    assertThat(v.queueCpu(1)).isEqualTo(7);
  }

  @Test
  void hotplugUpdatesOnlineQueuesOfThatCpuOnly() {
    MutableRoutingView v =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, 2)).queues(5).build();
    // homes: q0,q2,q4 -> cpu0; q1,q3 -> cpu1
    assertThat(v.setCpuOnline(1, false)).isTrue();
    assertThat(v.cpuOnline(1)).isFalse();
    assertThat(v.onlineQueues().toString()).isEqualTo("{0,2,4}");
    assertThat(v.registeredQueues().weight()).as("registration is static").isEqualTo(5);
    assertThat(v.setCpuOnline(1, false)).isFalse();
    v.setCpuOnline(1, true);
    assertThat(v.onlineQueues().weight()).isEqualTo(5);
  }

  @Test
  void loadsAreSetAndValidated() {
    MutableRoutingView v =
        MutableRoutingView.newBuilder(CpuTopology.uniform(1, 3)).nrReqs(4, 0, 2).build();
    assertThat(v.nrReqs(0)).isEqualTo(4);
    assertThat(v.addNrReqs(2, 3)).isEqualTo(5);
    assertThat(v.addNrReqs(2, -5)).isZero();
    assertThatThrownBy(() -> v.addNrReqs(1, -1))
        .hasMessage("nrReqs must be >= 0, got -1 for queue 1");
    assertThatThrownBy(() -> MutableRoutingView.newBuilder(CpuTopology.uniform(1, 3)).queues(0))
        .hasMessage("queues must be in [1, 65536], got 0");
    assertThatThrownBy(() -> MutableRoutingView.newBuilder(CpuTopology.uniform(1, 3)).registered(3))
        .hasMessage("queue must be in [0, 2], got 3");
  }
}
