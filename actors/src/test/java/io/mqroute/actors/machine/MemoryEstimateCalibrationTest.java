package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import io.mqroute.runtime.SimSystem;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Measures what {@link MemoryEstimate}'s constants stand for: the heap retained (after a full GC)
 * by a machine that is built and running, on machines where one kind of object dominates — CPUs and
 * queues, ring slots, latency histograms, requests in flight. The estimate must be an upper bound,
 * and not a wild one (within 5x: the retained heap after a GC varies from run to run, and one CI
 * run of the in-flight case measured 24.8 MiB against 74.5 MiB estimated). Integration tier: a heap
 * measurement must not share the JVM with test classes running beside it.
 */
@Tag("integration")
class MemoryEstimateCalibrationTest {
  private static final double SLACK = 5.0;

  private static long usedAfterGc() {
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 4; i++) {
      System.gc();
      used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    }
    return used;
  }

  /** The heap the machine holds after {@code virtualNanos} of its run, beyond what was there. */
  private static long measure(MachineSpec spec, List<JobPlan> plans, long virtualNanos) {
    long before = usedAfterGc();
    CompletableFuture<MachineResult> result = new CompletableFuture<>();
    try (SimSystem<MachineProtocol.Command> sim =
        SimSystem.start(
            "calibrate",
            ConfigFactory.parseString("pekko.loglevel = WARNING"),
            Machine.create(spec, plans, i -> new JobStats(JobInfo.named("j")), 1, result, null))) {
      sim.runUntil(virtualNanos, result::isDone);
      return usedAfterGc() - before;
    }
  }

  private static JobPlan job(int index, int cpu, int depth, double reads) {
    return JobPlan.of(
        index,
        "j",
        0,
        new int[] {cpu},
        cpu,
        depth,
        false,
        reads,
        true,
        4096,
        4096,
        1L << 30,
        index,
        0,
        1_000_000_000L,
        0,
        true,
        0,
        false);
  }

  private static void check(String what, MachineSpec spec, List<JobPlan> plans, long virtualNanos) {
    long measured = measure(spec, plans, virtualNanos);
    MemoryEstimate e = MemoryEstimate.of(spec, plans);
    System.out.printf(
        Locale.ROOT,
        "%s: measured %s, estimated %s (%.2fx)%n",
        what,
        MemoryEstimate.bytes(measured),
        MemoryEstimate.bytes(e.runBytes()),
        e.runBytes() / (double) measured);
    assertThat(e.runBytes()).as(what + ": an upper bound").isGreaterThanOrEqualTo(measured);
    assertThat(e.runBytes())
        .as(what + ": within " + SLACK + "x")
        .isLessThan((long) (SLACK * measured));
  }

  @Test
  void cpusAndTheirQueues() {
    MachineSpec spec =
        TestMachines.parse(
            "machine { numa-nodes = 2, cores-per-node = 1024 }\nqueues { kind = per-cpu, ring-size = 8 }");
    check("2,048 CPUs and per-cpu queues", spec, List.of(job(0, 0, 1, 1)), 1_000_000);
  }

  @Test
  void ringSlots() {
    // the queue's ring is fused with it (RingStage.fused): a count, no buffer per slot, so the size
    // of a ring costs nothing (a stream stage's buffer would be 8 x 2^20 references, 32 MB or more)
    MachineSpec spec =
        TestMachines.parse("queues { kind = independent, count = 8, ring-size = 1048576 }");
    long measured = measure(spec, List.of(job(0, 0, 1, 1)), 1_000_000);
    assertThat(MemoryEstimate.of(spec, List.of(job(0, 0, 1, 1))).runBytes())
        .as("an upper bound")
        .isGreaterThanOrEqualTo(measured);
    assertThat(measured).as("8 rings of 1,048,576 slots").isLessThan(8L << 20);
  }

  @Test
  void latencyHistograms() {
    MachineSpec spec =
        TestMachines.parse(
            "machine { cores-per-node = 64 }\nqueues { kind = independent, count = 8 }\n"
                + "device = \"fixed(5us)\"");
    List<JobPlan> plans = new ArrayList<>();
    for (int i = 0; i < 128; i++) {
      plans.add(job(i, i % 64, 4, 0.5)); // reads and writes, async: 6 histograms each
    }
    check("128 randrw job clones", spec, plans, 20_000_000);
  }

  @Test
  void requestsInFlight() {
    MachineSpec spec =
        TestMachines.parse(
            "machine { cores-per-node = 16 }\nqueues { kind = independent, count = 1, ring-size = 64 }\n"
                + "device = \"fixed(50ms)\"\nstall-limit = 1h");
    List<JobPlan> plans = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      plans.add(job(i, i, 16384, 1));
    }
    check("262,144 requests in flight", spec, plans, 100_000_000);
  }
}
