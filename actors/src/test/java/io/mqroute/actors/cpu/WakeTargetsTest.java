package io.mqroute.actors.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * select_idle_sibling's fast path as WakeTargets models it, on two LLCs of four CPUs and one task.
 */
class WakeTargetsTest {
  private static final int[] LLC = {0, 0, 0, 0, 1, 1, 1, 1};
  private static final int[] ALL = IntStream.range(0, LLC.length).toArray();

  private static WakeTargets oneTask(int startCpu, int... allowed) {
    return new WakeTargets(
        LLC,
        new int[] {startCpu},
        new int[][] {allowed.length == 0 ? ALL : allowed},
        () -> 0L,
        false,
        false);
  }

  @Test
  void aWakerOnTheWaitersOwnCpuPushesItToTheNextIdleCpuOfTheSameLlc() {
    WakeTargets w = oneTask(1);
    // the ring thread on CPU 1 ends the request: CPU 1 is busy with it, CPUs 2 and 3 are idle
    int cpu = w.wake(0, 1, 1, false);
    assertThat(cpu).isEqualTo(2); // for_each_cpu_wrap from target + 1
    assertThat(w.taskCpu(0)).isEqualTo(cpu);
  }

  @Test
  void recentUsedCpuMakesTheWaiterPingPongBetweenTwoCpus() {
    WakeTargets w = oneTask(1);
    int first = w.wake(0, 1, 1, false);
    int second = w.wake(0, first, first, false);
    int third = w.wake(0, second, second, false);
    assertThat(first).isNotEqualTo(1);
    assertThat(second).isEqualTo(1); // back to the CPU it left: p->recent_used_cpu
    assertThat(third).isEqualTo(first);
  }

  @Test
  void anIdlePreviousCpuKeepsTheWaiterWhereItSlept() {
    WakeTargets w = oneTask(0);
    assertThat(w.wake(0, 0, 1, false)).isZero(); // remote wake-up, no migration
  }

  @Test
  void aBusyLlcLeavesTheWaiterQueuedOnItsPreviousCpu() {
    WakeTargets w = oneTask(0);
    for (int c = 1; c < 4; c++) {
      w.load(c, 1);
    }
    w.load(0, 2);
    // every CPU of LLC 0 is busy; LLC 1 is idle but select_idle_sibling never leaves the LLC
    assertThat(w.wake(0, 0, 1, false)).isZero();
  }

  @Test
  void cpusAllowedIsRespected() {
    WakeTargets w = oneTask(1, 1, 3);
    assertThat(w.wake(0, 1, 1, false)).isEqualTo(3);
  }

  @Test
  void wakeUpOnCurrentCpuRunsTheWaiterOnTheWakersCpuWhenAllowed() {
    WakeTargets w = oneTask(0);
    assertThat(w.wakeOnCurrent(0, 0, 5)).isEqualTo(5);
    WakeTargets pinned = oneTask(0, 0);
    assertThat(pinned.wakeOnCurrent(0, 0, 5)).isZero();
  }

  @Test
  void aKworkerOnTheWaitersCpuLetsItStayThere() {
    WakeTargets user = oneTask(2);
    WakeTargets kworker = oneTask(2);
    assertThat(user.wake(0, 2, 2, false)).isNotEqualTo(2);
    assertThat(kworker.wake(0, 2, 2, true)).isEqualTo(2);
  }

  private static WakeTargets packing(int... taskCpus) {
    int[][] allowed = new int[taskCpus.length][];
    java.util.Arrays.fill(allowed, ALL);
    return new WakeTargets(LLC, taskCpus, allowed, () -> 0L, true, false);
  }

  @Test
  void vcpuPackingKeepsTheWaiterOnTheCpuItsWakerHoldsAlone() {
    // the ring thread on CPU 2 ends the request of the reader that slept on CPU 2: mainline moves
    // the reader to idle CPU 3, a packing guest keeps it behind the ring thread (wake-probe.c)
    assertThat(oneTask(2).wake(0, 2, 2, false)).isEqualTo(3);
    WakeTargets w = packing(2);
    assertThat(w.wake(0, 2, 2, false)).isEqualTo(2);
    assertThat(w.taskCpu(0)).isEqualTo(2);
  }

  @Test
  void vcpuPackingLeavesACpuWithASecondAwakeTaskAndAnIdlePreviousCpuAsMainlineDoes() {
    WakeTargets w = packing(2, 2);
    w.workQueued(1); // task 1 is awake on CPU 2 beside the waker: a second runnable task
    assertThat(w.wake(0, 2, 2, false)).isEqualTo(3);
    WakeTargets idlePrev = packing(0);
    assertThat(idlePrev.wake(0, 0, 1, false)).isZero(); // the previous CPU is idle: back to it
  }

  @Test
  void withSleepingWakerTheWaiterStaysOnlyWhenItsWakerSleepsNext() {
    int[][] allowed = {ALL};
    WakeTargets w = new WakeTargets(LLC, new int[] {2}, allowed, () -> 0L, true, true);
    // the ring thread ends the reader's only request and sleeps: packed, as with vcpu-pack alone
    assertThat(w.wake(0, 2, 2, false, false)).isEqualTo(2);
    // it has other requests of its ring to serve or commit: the reader goes to idle CPU 3
    assertThat(w.wake(0, 2, 2, false, true)).isEqualTo(3);
    assertThat(w.taskCpu(0)).isEqualTo(3);
    // without the rule the waker's CPU keeps the reader either way
    WakeTargets plain = new WakeTargets(LLC, new int[] {2}, allowed, () -> 0L, true, false);
    assertThat(plain.wake(0, 2, 2, false, true)).isEqualTo(2);
    // and a kworker's exception is not the packing's: it keeps the reader too
    assertThat(w.wake(0, 3, 3, true, true)).isEqualTo(3);
  }

  @Test
  void aCpuRunningAnAwakeTaskBetweenTwoPiecesOfItsWorkIsNotIdle() {
    WakeTargets w =
        new WakeTargets(LLC, new int[] {1, 2}, new int[][] {ALL, ALL}, () -> 0L, false, false);
    w.workQueued(1); // task 1 is awake on CPU 2 (it has reaped and is about to submit)
    // task 0's waker busies CPU 1; CPU 2 hosts the awake task 1, so the next idle CPU is 3
    assertThat(w.wake(0, 1, 1, false)).isEqualTo(3);
    w.workDone(1);
    assertThat(w.idle(2)).isTrue();
  }

  @Test
  void anOfflineCpuIsNeverAWakeUpTarget() {
    WakeTargets w = oneTask(1);
    w.setOnline(2, false);
    assertThat(w.wake(0, 1, 1, false)).isEqualTo(3);
    w.setOnline(5, false);
    assertThat(w.wakeOnCurrent(0, 3, 5)).isNotEqualTo(5);
  }

  @Test
  void aTaskMovedOffItsCpuTakesItsAwakeStateAlong() {
    WakeTargets w = oneTask(2);
    w.workQueued(0);
    w.moveTask(0, 3);
    assertThat(w.taskCpu(0)).isEqualTo(3);
    assertThat(w.idle(2)).isTrue();
    assertThat(w.idle(3)).isFalse();
  }

  @Test
  void aTaskIsAwakeWhileAnyOfItsWorkIsQueued() {
    WakeTargets w = oneTask(0);
    assertThat(w.running(0)).isFalse();
    w.workQueued(0);
    w.workQueued(0);
    w.workDone(0);
    assertThat(w.running(0)).isTrue();
    w.workDone(0);
    assertThat(w.running(0)).isFalse();
  }

  @Test
  void aCpuWhoseWorkEndsAtThisInstantIsNotIdleYet() {
    // the two readers of issue 21 in lockstep: CPU 1's ring thread ends its request at the instant
    // CPU 0's wakes its reader; CPU 1 is still running that thread, so the reader stays on CPU 0
    long[] now = {5_000};
    WakeTargets w =
        new WakeTargets(
            new int[] {0, 0}, new int[] {0}, new int[][] {{0, 1}}, () -> now[0], false, false);
    w.load(1, 0, 5_000);
    assertThat(w.idle(1)).isFalse();
    assertThat(w.wake(0, 0, 0, false)).isZero();
    now[0] = 5_001;
    assertThat(w.idle(1)).isTrue();
    assertThat(w.wake(0, 0, 0, false)).isEqualTo(1);
  }
}
