package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import io.mqroute.protocol.Status;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Conservation, the ring bound and the liveness check, on small machines in virtual time. */
class MachineInvariantsTest {

  /** A closed loop of {@code depth} requests, {@code count} requests in all (size-based). */
  private static JobPlan closedLoop(int depth, int count, boolean foreground) {
    return JobPlan.of(
        0,
        "loop",
        0,
        new int[] {0},
        0,
        depth,
        foreground,
        1.0,
        true,
        4096,
        4096,
        4096L * count,
        1,
        0,
        0,
        0,
        false,
        0,
        false);
  }

  private static MachineRun.Outcome run(MachineSpec spec, JobPlan plan, long seed) {
    return MachineRun.run(
        "inv", spec, List.of(plan), i -> new JobStats(JobInfo.named("loop")), seed);
  }

  @Test
  void aFullRingNeverHoldsMoreThanItsSlotsAndNothingIsLost() {
    MachineSpec spec =
        TestMachines.pureQueueing(
            "kind = independent, count = 1, ring-size = 16, full-ring = refill-on-completion",
            "exponential(40us)");
    MachineRun.Outcome o = run(spec, closedLoop(64, 20_000, true), 3);
    MachineResult r = o.result();
    assertThat(r.violations()).isEmpty();
    assertThat(r.stall()).isNull();
    FlowProtocol.QueueStats q = r.queues().get(0);
    assertThat(q.maxOccupancy()).isEqualTo(16);
    assertThat(q.overflowWaits()).isGreaterThan(0);
    assertThat(q.accepted()).isEqualTo(20_000).isEqualTo(q.completed());
    assertThat(r.jobs().get(0).direction(Direction.READ).totalIos()).isEqualTo(20_000);
  }

  @Test
  void theDelayedRetryWaitsForItsTimerWhileRefillDoesNot() {
    String queues = "kind = independent, count = 1, ring-size = 16, full-ring = \"%s\"";
    MachineResult retry =
        run(
                TestMachines.pureQueueing(
                    String.format(queues, "delayed-retry(1ms)"), "fixed(40us)"),
                closedLoop(32, 5_000, true),
                4)
            .result();
    MachineResult refill =
        run(
                TestMachines.pureQueueing(
                    String.format(queues, "refill-on-completion"), "fixed(40us)"),
                closedLoop(32, 5_000, true),
                4)
            .result();
    assertThat(retry.queues().get(0).delayedRetries()).isGreaterThan(0);
    assertThat(refill.queues().get(0).delayedRetries()).isZero();
    // With refill the device never idles (32 in flight > 16 slots): 5000 x 40 us back to back.
    assertThat(refill.endNanos()).isBetween(200_000_000L, 200_100_000L);
    // With the 1 ms retry, new submissions take each freed slot before the parked requests (they
    // try the
    // ring first), so the device stays busy too, but the parked ones starve for whole timer
    // periods.
    assertThat(retry.endNanos()).isBetween(200_000_000L, 210_000_000L);
    long retryP999 = retry.jobs().get(0).direction(Direction.READ).lat().valueAtPercentile(99.9);
    long refillP999 = refill.jobs().get(0).direction(Direction.READ).lat().valueAtPercentile(99.9);
    assertThat(retryP999).isGreaterThan(refillP999 + 1_000_000);
  }

  @Test
  void anAsyncDeviceIsBoundByItsPollerThreadNotByItsLatency() {
    // one poller thread spends 10 us per request, the backend adds 100 us it does not wait for
    MachineSpec spec =
        TestMachines.pureQueueing(
            "kind = independent, count = 1, ring-size = 1024", "dpu(10us, 100us, 0)");
    MachineResult r = run(spec, closedLoop(64, 10_000, true), 8).result();
    assertThat(r.healthy()).isTrue();
    assertThat(r.endNanos()).isBetween(100_000_000L, 100_200_000L);
    assertThat(r.jobs().get(0).direction(Direction.READ).lat().mean())
        .isBetween(600_000.0, 660_000.0);
  }

  @Test
  void enomemRequeuedOnAnEmptyRingIsReportedAsAStall() {
    MachineSpec spec =
        TestMachines.parse(
            "machine { numa-nodes = 1, cores-per-node = 1, cpu { c-states = none } }\n"
                + "queues { kind = independent, count = 1, ring-size = 4, enqueue-error = requeue,"
                + " enomem-probability = 0.3 }\n"
                + "router { selector = single }\n"
                + "device = \"fixed(40us)\"\n"
                + "stall-limit = 50ms\n");
    MachineResult r = run(spec, closedLoop(8, 1_000_000, true), 5).result();
    assertThat(r.stall())
        .isNotNull()
        .contains("stall: job 0")
        .contains("queue 0 (cpu 0): on ring 0");
    FlowProtocol.QueueStats q = r.queues().get(0);
    assertThat(q.onRing()).isZero();
    assertThat(q.queued()).isPositive();
    assertThat(q.stuck()).hasSize(q.queued());
  }

  @Test
  void enomemFailedBackToTheCallerEndsTheRequestWithEnomem() {
    MachineSpec spec =
        TestMachines.pureQueueing(
            "kind = independent, count = 1, ring-size = 4, enqueue-error = fail, enomem-probability = 0.1",
            "fixed(40us)");
    MachineResult r = run(spec, closedLoop(8, 10_000, true), 6).result();
    assertThat(r.healthy()).isTrue();
    FlowProtocol.QueueStats q = r.queues().get(0);
    // every attempt to add to the ring can fail (the argbuf allocation comes before the space
    // check)
    assertThat(q.enomem() / (double) q.ringAttempts()).isBetween(0.09, 0.11);
    assertThat(r.jobs().get(0).errorCounts()).containsEntry(Status.ENOMEM.errno(), q.enomem());
    assertThat(r.jobs().get(0).direction(Direction.READ).totalIos()).isEqualTo(10_000 - q.enomem());
  }
}
