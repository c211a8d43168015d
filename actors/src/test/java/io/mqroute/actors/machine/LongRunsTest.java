package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.config.ConfigError;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import io.mqroute.runtime.RunStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Bounded runs and bounded reports: the cap of simulated time per run, where a size-based run is
 * stopped, and stall reports that list at most 16 requests or queues per list.
 */
class LongRunsTest {
  private static JobPlan job(int group, long runtime, long ramp, long delay, int depth, long size) {
    return new JobPlan(
        0,
        "j",
        group,
        new int[] {0},
        0,
        depth,
        false,
        1.0,
        true,
        4096,
        4096,
        size,
        0,
        0,
        runtime,
        ramp,
        runtime > 0,
        0,
        0,
        false,
        1,
        delay,
        ThinkTime.NONE,
        IoPattern.SIMPLE,
        JobControl.NONE,
        IoCalls.DATA,
        false,
        false);
  }

  @Test
  void theRunPlansTheLongestJobOfEachGroupAddedUp() {
    long s = 1_000_000_000L;
    List<JobPlan> plans =
        List.of(
            job(0, 10 * s, s, 0, 1, 1 << 30),
            job(0, 3 * s, 0, 2 * s, 1, 1 << 30),
            job(1, 5 * s, 0, 0, 1, 1 << 30));
    assertThat(MachineRun.plannedNanos(plans)).isEqualTo(16 * s);
    assertThat(MachineRun.plannedNanos(List.of(job(0, 0, 0, 0, 1, 1 << 30)))).isEqualTo(-1);
    MachineSpec spec = TestMachines.parse("stall-limit = 1s");
    // size-based jobs stop at the cap (plus ten stall limits and a minute), not a day later
    assertThat(MachineRun.horizon(spec, List.of(job(0, 0, 0, 0, 1, 1 << 30))))
        .isEqualTo(MachineRun.MAX_SIMULATED_NANOS + 70 * s);
    assertThat(MachineRun.duration(MachineRun.MAX_SIMULATED_NANOS)).isEqualTo("1h");
    assertThat(MachineRun.duration(220_000_000L)).isEqualTo("0.220s");
  }

  @Test
  void aStallLimitBeyondTheCapIsRefused() {
    assertThatThrownBy(() -> TestMachines.parse("stall-limit = 1000000h"))
        .isInstanceOf(ConfigError.class)
        .hasMessage(
            "<string>:1: stall-limit: must be at most 1h, the simulated time a run may take");
  }

  @Test
  void aSizeBasedRunStillGoingAtTheCapEndsWithOneLine() {
    // a 500 ms device, 100,000 requests one at a time: 14 hours
    MachineSpec spec =
        TestMachines.parse(
            "machine { cores-per-node = 1, cpu { c-states = none } }\ndevice = \"fixed(500ms)\"");
    JobPlan slow = job(0, 0, 0, 0, 1, 4096L * 100_000);
    assertThatThrownBy(
            () ->
                MachineRun.run(
                    "slow", spec, List.of(slow), i -> new JobStats(JobInfo.named("j")), 1))
        .isInstanceOf(MachineRun.NoResult.class)
        .hasMessageContaining("was still running after 1.02h of simulated time, past the cap of 1h")
        .satisfies(
            e ->
                assertThat(((MachineRun.NoResult) e).reason())
                    .isEqualTo(RunStats.StopReason.HORIZON));
  }

  @Test
  void aStallOfManyRequestsListsSixteenOfThem() {
    // 1,000 requests in flight on a device that takes longer than the stall limit
    MachineSpec spec =
        TestMachines.parse(
            "queues { kind = independent, count = 1, ring-size = 2000 }\n"
                + "device = \"fixed(10s)\"\nstall-limit = 100ms");
    MachineResult r =
        MachineRun.run(
                "stall",
                spec,
                List.of(job(0, 1_000_000_000L, 0, 0, 1000, 1L << 30)),
                i -> new JobStats(JobInfo.named("j")),
                1)
            .result();
    assertThat(r.stall())
        .contains("has had 1000 request(s) outstanding", ", ... and 984 more]")
        .hasSizeLessThan(2_000);
    assertThat(ReportLists.capped(List.of(1, 2, 3))).isEqualTo("[1, 2, 3]");
  }
}
