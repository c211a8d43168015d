package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 21's mechanism 6 on a whole machine: with {@code machine.kernel.vcpu-pack = on} a
 * synchronous reader on per-CPU rings stays on the CPU whose ring thread wakes it, as the 2-vCPU
 * guest measured (real-fuse/wake-probe.c); mainline's select_idle_sibling moves it to the idle CPU
 * after every request (seed 003's complaint).
 */
class VcpuPackTest {
  private static MachineSpec spec(String pack) {
    return TestMachines.parse(
        "machine { numa-nodes = 1, cores-per-node = 2,"
            + " cpu { submit-cost = 1us, wake-cost = 3us, migrate-cost = 1us, c-states = none }"
            + (pack == null ? "" : ", kernel { vcpu-pack = " + pack + " }")
            + " }\n"
            + "queues { kind = per-cpu, ring-size = 8 }\n"
            + "router { selector = static-cpu }\n"
            + "device = \"cpu(2us)\"\n");
  }

  /** One synchronous reader that may run on both CPUs and starts on CPU 0. */
  private static MachineResult run(MachineSpec spec) {
    JobPlan job =
        new JobPlan(
            0,
            "psync",
            0,
            new int[] {0, 1},
            0,
            1,
            true,
            1.0,
            true,
            4096,
            4096,
            1L << 30,
            0,
            0,
            5_000_000L,
            0,
            true,
            0,
            false);
    MachineResult r =
        MachineRun.run("pack", spec, List.of(job), i -> new JobStats(JobInfo.named("psync")), 7)
            .result();
    assertThat(r.healthy()).as(r.violations() + " " + r.stall()).isTrue();
    return r;
  }

  private static long items(MachineResult r, int cpu, Work kind) {
    return r.cores().get(cpu).byKind()[kind.ordinal()];
  }

  private static long ios(MachineResult r) {
    return r.jobs().get(0).direction(Direction.READ).totalIos();
  }

  @Test
  void aPackingGuestKeepsTheReaderOnItsRingThreadsCpu() {
    MachineResult packed = run(spec("on"));
    MachineResult mainline = run(spec(null));
    // packed: every completion is reaped where its ring thread ran, no cross-CPU wake-up, one ring
    assertThat(items(packed, 0, Work.WAKE) + items(packed, 1, Work.WAKE)).isZero();
    assertThat(packed.router().routedPerQueue()[1]).isZero();
    // mainline: the reader moves to the idle CPU at each wake-up and uses both rings
    assertThat(items(mainline, 0, Work.WAKE) + items(mainline, 1, Work.WAKE)).isPositive();
    assertThat(mainline.router().routedPerQueue()[1]).isPositive();
    assertThat(ios(packed)).isGreaterThan(ios(mainline));
    assertThat(run(spec("off")).digest()).isEqualTo(mainline.digest());
  }

  @Test
  void theParserRefusesAValueThatIsNotOnOrOff() {
    assertThatThrownBy(() -> spec("sometimes")).hasMessageContaining("vcpu-pack");
  }
}
