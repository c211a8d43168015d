package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Seed 003's mechanism on a whole machine: a synchronous reader on per-core rings, woken by a plain
 * wake_up, leaves its busy CPU for an idle sibling after every request; woken on the completing CPU
 * it stays, and so it does on a guest kernel that packs wake-ups ({@code machine.kernel.vcpu-pack},
 * issue 21's mechanism 6).
 */
class WakePlacementTest {
  private static final int CPUS = 8;

  private static MachineSpec spec(String queues, String wake) {
    return spec(queues, wake, "");
  }

  private static MachineSpec spec(String queues, String wake, String kernel) {
    return spec(queues, wake, kernel, "");
  }

  private static MachineSpec spec(String queues, String wake, String kernel, String cpu) {
    return TestMachines.parse(
        "machine { numa-nodes = 2, cores-per-node = 4"
            + (kernel.isEmpty() ? "" : ", kernel { " + kernel + " }")
            + (cpu.isEmpty() ? "" : ", cpu { " + cpu + " }")
            + " }\n"
            + "queues { "
            + queues
            + " }\n"
            + "router { selector = "
            + (queues.contains("virtio") ? "mq-map" : "static-cpu")
            + " }\n"
            + "wake = "
            + wake
            + "\n"
            + "device = \"cpu(2us)\"\n");
  }

  private static MachineResult run(MachineSpec spec) {
    return run(spec, 1);
  }

  private static MachineResult run(MachineSpec spec, int iodepth) {
    int[] all = IntStream.range(0, CPUS).toArray();
    JobPlan psync =
        JobPlan.of(
            0,
            "qd1",
            0,
            all,
            1,
            iodepth,
            true,
            1.0,
            true,
            4096,
            4096,
            1L << 30,
            0,
            0,
            10_000_000L,
            0,
            true,
            0,
            false);
    MachineResult r =
        MachineRun.run("wake", spec, List.of(psync), i -> new JobStats(JobInfo.named("qd1")), 5)
            .result();
    assertThat(r.healthy()).as(r.violations() + " " + r.stall()).isTrue();
    return r;
  }

  private static long queuesUsed(MachineResult r) {
    return Arrays.stream(r.router().routedPerQueue()).filter(n -> n > 0).count();
  }

  private static long ios(MachineResult r) {
    return r.jobs().get(0).direction(Direction.READ).totalIos();
  }

  @Test
  void aPlainWakeMovesTheReaderBetweenTwoCpusOfItsNodeAndWakingOnTheCompletingCpuKeepsItOnOne() {
    MachineResult plain = run(spec("kind = per-cpu, ring-size = 8", "waiter-cpu"));
    MachineResult current = run(spec("kind = per-cpu, ring-size = 8", "completing-cpu"));
    assertThat(queuesUsed(plain)).isEqualTo(2);
    long[] perQueue = plain.router().routedPerQueue();
    for (int q = 0; q < CPUS; q++) {
      if (perQueue[q] > 0) {
        assertThat(q / 4).as("queue %d stays in the reader's NUMA node", q).isZero();
      }
    }
    assertThat(queuesUsed(current)).isEqualTo(1);
    // every plain wake-up is remote: IPI, C-state exit, cold cache; on the completing CPU none of
    // it
    assertThat(ios(current)).isGreaterThan(ios(plain));
  }

  @Test
  void aGuestKernelThatPacksWakeUpsKeepsThePlainlyWokenReaderOnItsRingThreadsCpu() {
    String rings = "kind = per-cpu, ring-size = 8";
    MachineResult plain = run(spec(rings, "waiter-cpu"));
    MachineResult packed = run(spec(rings, "waiter-cpu", "vcpu-pack = on"));
    assertThat(queuesUsed(plain)).isEqualTo(2);
    assertThat(queuesUsed(packed)).isEqualTo(1);
    long wakes = 0;
    for (CoreProtocol.CoreStats c : packed.cores()) {
      wakes += c.byKind()[Work.WAKE.ordinal()]; // reaped where the ring thread ran: no remote wake
    }
    assertThat(wakes).isZero();
    assertThat(ios(packed)).isGreaterThan(ios(plain));
    assertThat(run(spec(rings, "waiter-cpu", "vcpu-pack = off")).digest())
        .isEqualTo(plain.digest());
    assertThatThrownBy(() -> spec(rings, "waiter-cpu", "vcpu-pack = sometimes"))
        .hasMessageContaining("vcpu-pack");
  }

  @Test
  void withASleepingWakerRuleAReaderAtDepthLeavesTheRingThreadThatRunsOnAndOneAtDepthOneStays() {
    // one ring thread serving its eight entries in turn (libfuse's q_depth), a reader at iodepth 4
    String rings = "kind = per-cpu, ring-size = 8, pollers = 8";
    String rule = "vcpu-pack = on, vcpu-pack-sleeping-waker = on";
    MachineResult packed = run(spec(rings, "waiter-cpu", "vcpu-pack = on"), 4);
    MachineResult moving = run(spec(rings, "waiter-cpu", rule), 4);
    assertThat(queuesUsed(packed)).isEqualTo(1);
    // woken at its first completion while the ring thread has the others to serve, it goes to an
    // idle CPU and submits to that CPU's ring from there
    assertThat(queuesUsed(moving)).isGreaterThan(1);
    long wakes = 0;
    for (CoreProtocol.CoreStats c : moving.cores()) {
      wakes += c.byKind()[Work.WAKE.ordinal()];
    }
    assertThat(wakes).isPositive();
    // at iodepth 1 the ring thread has nothing else to run when it wakes the reader: no change
    assertThat(run(spec(rings, "waiter-cpu", rule)).digest())
        .isEqualTo(run(spec(rings, "waiter-cpu", "vcpu-pack = on")).digest());
    assertThatThrownBy(() -> spec(rings, "waiter-cpu", "vcpu-pack-sleeping-waker = on"))
        .hasMessageContaining("vcpu-pack-sleeping-waker")
        .hasMessageContaining("only with vcpu-pack = on");
  }

  @Test
  void aWakeUpOnAnotherCpuCostsTheWakerItsIpiBeforeTheWokenThreadRuns() {
    String rings = "kind = per-cpu, ring-size = 8";
    MachineResult free = run(spec(rings, "waiter-cpu"));
    MachineResult ipi = run(spec(rings, "waiter-cpu", "", "ipi-cost = 10us"));
    long wakes = 0;
    long ipis = 0;
    long ipiNanos = 0;
    for (CoreProtocol.CoreStats c : ipi.cores()) {
      wakes += c.byKind()[Work.WAKE.ordinal()];
      ipis += c.byKind()[Work.IPI.ordinal()];
      ipiNanos += c.nanosByKind()[Work.IPI.ordinal()];
    }
    // every plain wake-up of the reader is remote (it ping-pongs between two CPUs): one IPI each,
    // paid by the ring thread's core (the same count, less what was in flight at the end)
    assertThat(wakes).isPositive();
    assertThat(ipis).isBetween(wakes, wakes + 1);
    assertThat(ipiNanos).isEqualTo(ipis * 10_000);
    assertThat(ios(ipi)).isLessThan(ios(free));
    assertThat(run(spec(rings, "waiter-cpu", "", "ipi-cost = 0")).digest())
        .isEqualTo(free.digest());
  }

  @Test
  void everyCoresBusyTimeIsItsWorkSwitchesExitsAndFrequencyStretch() {
    MachineResult plain =
        run(
            TestMachines.parse(
                "machine { numa-nodes = 2, cores-per-node = 4,"
                    + " cpu { governor = schedutil } }\nqueues { kind = per-cpu, ring-size = 8 }\n"
                    + "router { selector = static-cpu }\nwake = waiter-cpu\ndevice = \"cpu(2us)\"\n"));
    long exits = 0;
    long stretch = 0;
    for (CoreProtocol.CoreStats c : plain.cores()) {
      long work = Arrays.stream(c.nanosByKind()).sum();
      assertThat(work + c.switchNanos() + c.sleepWakeNanos() + c.exitNanos() + c.stretchNanos())
          .as("cpu %d", c.cpu())
          .isEqualTo(c.busyNanos());
      exits += c.exitNanos();
      stretch += c.stretchNanos();
    }
    // the ping-pong leaves CPUs idle long enough for C-states, and schedutil runs them below the
    // maximum
    assertThat(exits).isPositive();
    assertThat(stretch).isPositive();
  }

  @Test
  void withoutRingsTheCompletingCpuPatchChangesNothing() {
    String virtio = "kind = virtio, count = " + CPUS;
    MachineResult plain = run(spec(virtio, "waiter-cpu"));
    MachineResult current = run(spec(virtio, "completing-cpu"));
    assertThat(ios(current)).isEqualTo(ios(plain));
    // the completion runs in done_work, a kworker on the reader's CPU: the reader stays on it
    assertThat(queuesUsed(plain)).isEqualTo(1);
  }
}
