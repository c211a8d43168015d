package io.mqroute.policies.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DispatchAndWakeTest {

  @Test
  void fifoKeepsRingOrder() {
    long[] batch = {9, 1, 2, 3, 9};
    DispatchOrder.fifo().order(batch, 1, 3);
    assertThat(batch).containsExactly(9, 1, 2, 3, 9);
    assertThat(DispatchOrder.fifo().concurrency()).isEqualTo(1);
    assertThat(DispatchOrder.fifo().completesInOrder()).isTrue();
  }

  @Test
  void lifoPerBatchReversesOnlyTheBatchLikeGListPrepend() {
    long[] batch = {9, 1, 2, 3, 4, 9};
    DispatchOrder.lifoPerBatch().order(batch, 1, 4);
    assertThat(batch).containsExactly(9, 4, 3, 2, 1, 9);
    int[] odd = {1, 2, 3};
    DispatchOrder.lifoPerBatch().order(odd, 0, 3);
    assertThat(odd).containsExactly(3, 2, 1);
    int[] one = {7};
    DispatchOrder.lifoPerBatch().order(one, 0, 1);
    assertThat(one).containsExactly(7);
    assertThat(DispatchOrder.lifoPerBatch().workerFor(3)).isZero();
  }

  @Test
  void poolStartsInRingOrderOnNWorkersAndCompletesUnordered() {
    DispatchOrder pool = DispatchOrder.pool(4);
    long[] batch = {1, 2, 3, 4, 5, 6};
    pool.order(batch, 0, 6);
    assertThat(batch).containsExactly(1, 2, 3, 4, 5, 6);
    assertThat(new int[] {pool.workerFor(0), pool.workerFor(3), pool.workerFor(5)})
        .containsExactly(0, 3, 1);
    assertThat(pool.concurrency()).isEqualTo(4);
    assertThat(pool.completesInOrder()).isFalse();
    assertThat(pool.spec()).isEqualTo("pool(4)");
    assertThatThrownBy(() -> DispatchOrder.pool(0))
        .hasMessage("pool workers must be in [1, 65536], got 0");
  }

  @Test
  void wakePolicyPicksTheWaiterOrTheCompletingCpu() {
    assertThat(WakePolicy.WAITER_CPU.wakeCpu(3, 11)).isEqualTo(3);
    assertThat(WakePolicy.COMPLETING_CPU.wakeCpu(3, 11)).isEqualTo(11);
    assertThat(WakePolicy.COMPLETING_CPU.wakeCpu(5, 5)).isEqualTo(5);
  }
}
