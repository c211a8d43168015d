package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.actors.device.Device;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import io.mqroute.protocol.Op;
import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/**
 * A device behind a server thread (a per-cpu ring queue) is asked for its time when the request
 * reaches it, after the server's CPU work, not when the server starts: a disk books its head then.
 */
class DiskArrivalTest {
  /** Records when it is asked; 10 µs per request. */
  private static final class RecordingDevice implements Device {
    final List<Long> askedAt = new ArrayList<>();

    @Override
    public long serviceNanos(
        Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
      askedAt.add(nowNanos);
      return 10_000;
    }

    @Override
    public String spec() {
      return "recording";
    }
  }

  @Test
  void theDeviceIsAskedWhenTheServersWorkIsDone() {
    MachineSpec parsed =
        TestMachines.parse(
            "machine { numa-nodes = 1, cores-per-node = 1, cpu { submit-cost = 0,"
                + " server-cost = 1ms, completion-cost = 0, wake-cost = 0, reap-cost = 0, switch-cost = 0,"
                + " migrate-cost = 0, c-states = none } }\n"
                + "queues { kind = per-cpu, ring-size = 4 }\n"
                + "device = \"fixed(10us)\"\n");
    RecordingDevice device = new RecordingDevice();
    MachineSpec spec = parsed.withDevice("recording", () -> device);
    JobPlan psync =
        JobPlan.of(
            0,
            "qd1",
            0,
            new int[] {0},
            0,
            1,
            true,
            1.0,
            true,
            4096,
            4096,
            3 * 4096L,
            0,
            0,
            0,
            0,
            false,
            0,
            false);
    MachineResult r =
        MachineRun.run("disk", spec, List.of(psync), i -> new JobStats(JobInfo.named("qd1")), 1)
            .result();
    assertThat(r.violations()).isEmpty();
    // each request: 1 ms of server work, then the device (10 µs); one at a time
    assertThat(device.askedAt).containsExactly(1_000_000L, 2_010_000L, 3_020_000L);
  }
}
