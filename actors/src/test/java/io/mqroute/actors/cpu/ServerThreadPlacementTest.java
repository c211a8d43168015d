package io.mqroute.actors.cpu;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Where a woken /dev/fuse worker runs, on one LLC of two CPUs: the job that wakes it submits on CPU
 * 0.
 */
class ServerThreadPlacementTest {
  private static final int[] LLC = {0, 0};

  /** One application task, awake on CPU 0. */
  private static WakeTargets machine() {
    WakeTargets w =
        new WakeTargets(LLC, new int[] {0}, new int[][] {{0, 1}}, () -> 0L, false, false);
    w.workQueued(0);
    return w;
  }

  @Test
  void anIdlePreviousCpuKeepsTheWorker() {
    WakeTargets w = machine();
    w.load(0, 1);
    assertThat(new ServerThreadPlacement(w, LLC).place(1, 0)).isEqualTo(1);
  }

  @Test
  void aWorkerThatSleptOnTheWakersCpuGoesToTheIdleOne() {
    WakeTargets w = machine();
    w.load(0, 1);
    assertThat(new ServerThreadPlacement(w, LLC).place(0, 0)).isEqualTo(1);
  }

  @Test
  void withNoIdleCpuTheLessLoadedWakersCpuTakesTheWorker() {
    WakeTargets w = machine();
    w.load(0, 1); // the job: one submission running (and the job awake): 2
    w.load(1, 3); // three workers' requests running or queued
    // wake_affine_weight: (2 + 1) * 100 < 3 * 108
    assertThat(new ServerThreadPlacement(w, LLC).place(1, 0)).isEqualTo(0);
  }

  @Test
  void withNoIdleCpuAnEquallyLoadedPreviousCpuKeepsTheWorker() {
    WakeTargets w = machine();
    w.load(0, 1);
    w.load(1, 2); // (2 + 1) * 100 >= 2 * 108: the previous CPU is favoured
    assertThat(new ServerThreadPlacement(w, LLC).place(1, 0)).isEqualTo(1);
  }
}
