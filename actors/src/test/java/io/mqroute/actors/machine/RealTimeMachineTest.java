package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The same actors on a real dispatcher and clock: everything ends exactly once, nothing stalls. */
@Tag("integration")
class RealTimeMachineTest {
  @Test
  void aSmallRunCompletesInRealTime() {
    MachineSpec spec =
        TestMachines.parse(
            "machine { numa-nodes = 1, cores-per-node = 2, cpu { c-states = none } }\n"
                + "queues { kind = per-cpu, ring-size = 4 }\n"
                + "router { selector = round-robin }\n"
                + "device = \"fixed(50us)\"\n"
                + "stall-limit = 5s\n");
    JobPlan plan =
        JobPlan.of(
            0,
            "rt",
            0,
            new int[] {0, 1},
            0,
            8,
            false,
            0.5,
            true,
            4096,
            4096,
            4096L * 2_000,
            1,
            0,
            0,
            0,
            false,
            0,
            false);
    MachineResult r =
        MachineRun.runRealTime(
            "rt",
            spec,
            List.of(plan),
            i -> new JobStats(JobInfo.named("rt")),
            1,
            null,
            Duration.ofSeconds(60));
    assertThat(r.violations()).isEmpty();
    assertThat(r.stall()).isNull();
    JobStats s = r.jobs().get(0);
    assertThat(s.direction(Direction.READ).totalIos() + s.direction(Direction.WRITE).totalIos())
        .isEqualTo(2_000);
    assertThat(r.queues().stream().mapToInt(FlowProtocol.QueueStats::maxOccupancy).max().orElse(0))
        .isLessThanOrEqualTo(4);
    assertThat(r.little().get(0).holds()).isTrue();
  }
}
