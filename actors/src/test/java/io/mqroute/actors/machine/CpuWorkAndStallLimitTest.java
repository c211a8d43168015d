package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.config.ConfigError;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * CPU work against the stall limit: costs no request can get through within the limit are refused
 * before the run, and a request whose CPU work is still running or waiting when the liveness check
 * fires is held by that CPU — never reported as lost.
 */
class CpuWorkAndStallLimitTest {
  private static final String ONE_CPU =
      "machine { numa-nodes = 1, cores-per-node = 1, cpu { c-states = none, %s } }\n"
          + "queues { kind = per-cpu, ring-size = 8 }\n"
          + "device = \"fixed(10us)\"\n";

  @Test
  void aCostLongerThanTheStallLimitIsRefusedNamingTheKey() {
    assertThatThrownBy(() -> TestMachines.parse(String.format(ONE_CPU, "submit-cost = 2s")))
        .isInstanceOf(ConfigError.class)
        .hasMessageStartingWith("<string>:1: machine.cpu.submit-cost: every request needs 2.000")
        .hasMessageContaining("not less than stall-limit 1s");
    // the sum counts: each cost below the limit, together above it
    assertThatThrownBy(
            () ->
                TestMachines.parse(
                    String.format(ONE_CPU, "submit-cost = 400ms, completion-cost = 700ms")))
        .hasMessageContaining("machine.cpu.completion-cost: every request needs 1.100");
    // defaults against a tiny limit: the limit is what was written, so it is blamed
    assertThatThrownBy(
            () ->
                TestMachines.parse(
                    String.format(ONE_CPU, "governor = performance") + "stall-limit = 2us"))
        .hasMessageContaining("stall-limit: every request needs");
    assertThat(
            TestMachines.parse(String.format(ONE_CPU, "submit-cost = 100ms")).costs().submitNanos())
        .isEqualTo(100_000_000L);
  }

  @Test
  void requestsWaitingForCpuWorkAtAStallAreNotReportedAsLost() {
    // 4 submits of 400 ms queue up on the one CPU, and the first completion's work waits behind
    // them: nothing completes in the first second, a real stall, with every request still on the
    // CPU
    MachineSpec spec = TestMachines.parse(String.format(ONE_CPU, "submit-cost = 400ms"));
    JobPlan job =
        JobPlan.of(
            0,
            "slow",
            0,
            new int[] {0},
            0,
            4,
            false,
            1.0,
            true,
            4096,
            4096,
            1L << 30,
            0,
            0,
            5_000_000_000L,
            0,
            true,
            0,
            false);
    MachineResult r =
        MachineRun.run("cpu-stall", spec, List.of(job), i -> new JobStats(JobInfo.named("slow")), 1)
            .result();
    assertThat(r.stall()).contains("stall: job 0 has had 4 request(s) outstanding", "in CPU work");
    assertThat(r.violations()).noneMatch(v -> v.contains("lost"));
  }
}
