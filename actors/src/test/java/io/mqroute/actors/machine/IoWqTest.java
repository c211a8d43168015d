package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 21's mechanism 5 on a whole machine: with {@code machine.kernel.io-uring-punt = io-wq} an
 * io_uring job's requests are issued by its io-wq worker, a thread of its own that is woken for
 * them and queues them on the ring of the CPU it runs on (fuse_uring_task_to_queue: task_cpu of the
 * worker); inline (the default), and for every other engine, nothing changes.
 */
class IoWqTest {
  private static final long SUBMIT = 1_000;
  private static final long WAKE = 3_000;
  private static final long MIGRATE = 1_000;

  private static MachineSpec spec(String punt) {
    return spec(punt, "");
  }

  private static MachineSpec spec(String punt, String cpu) {
    return TestMachines.parse(
        "machine { numa-nodes = 1, cores-per-node = 2,"
            + " cpu { submit-cost = 1us, wake-cost = 3us, migrate-cost = 1us, c-states = none"
            + cpu
            + " }"
            + (punt == null ? "" : ", kernel { io-uring-punt = " + punt + " }")
            + " }\n"
            + "queues { kind = per-cpu, ring-size = 8 }\n"
            + "router { selector = static-cpu }\n"
            + "device = \"cpu(2us)\"\n");
  }

  /** One job at iodepth 1 that may run on both CPUs and starts on CPU 0. */
  private static MachineResult run(MachineSpec spec, boolean ioUring) {
    JobPlan job =
        new JobPlan(
            0,
            "qd1",
            0,
            new int[] {0, 1},
            0,
            1,
            false,
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
            0,
            false,
            1,
            0,
            ThinkTime.NONE,
            IoPattern.SIMPLE,
            JobControl.NONE,
            IoCalls.DATA,
            false,
            ioUring);
    MachineResult r =
        MachineRun.run("iowq", spec, List.of(job), i -> new JobStats(JobInfo.named("qd1")), 7)
            .result();
    assertThat(r.healthy()).as(r.violations() + " " + r.stall()).isTrue();
    return r;
  }

  private static long items(MachineResult r, int cpu, Work kind) {
    return r.cores().get(cpu).byKind()[kind.ordinal()];
  }

  @Test
  void anIoUringJobsRequestsGoToTheQueueOfItsIoWqWorkersCpuAndEachCostsTheWorkerAWakeUp() {
    MachineResult r = run(spec("io-wq"), true);
    long[] perQueue = r.router().routedPerQueue();
    long routed = perQueue[0] + perQueue[1];
    assertThat(routed).isPositive();
    for (int cpu = 0; cpu < 2; cpu++) {
      // the worker issues each request where it runs, and that CPU's ring gets it
      assertThat(items(r, cpu, Work.IOWQ)).as("cpu %d", cpu).isEqualTo(perQueue[cpu]);
    }
    // fio submits on CPU 0 and wakes its sleeping worker, which the scheduler puts on the idle CPU
    // 1: fio's own CPU's ring (where inline submission would queue everything) is never used
    assertThat(items(r, 0, Work.SUBMIT)).isEqualTo(routed);
    assertThat(perQueue[0]).isZero();
    // at iodepth 1 the worker sleeps between requests: each one is a cross-CPU wake-up of it (its
    // first also a migration from fio's CPU)
    long iowqNanos = r.cores().get(1).nanosByKind()[Work.IOWQ.ordinal()];
    assertThat(iowqNanos).isEqualTo(perQueue[1] * (SUBMIT + WAKE) + MIGRATE);
  }

  @Test
  void fioPaysTheIpiThatWakesItsWorkerOnTheOtherCpu() {
    MachineResult r = run(spec("io-wq", ", ipi-cost = 5us"), true);
    long issued = items(r, 1, Work.IOWQ);
    assertThat(issued).isPositive();
    // every request wakes the sleeping worker on CPU 1 from fio's CPU 0 (the last one may still be
    // on its way when the run ends)
    assertThat(items(r, 0, Work.IPI)).isBetween(issued, issued + 1);
    assertThat(items(r, 1, Work.IOWQ)).isLessThan(items(run(spec("io-wq"), true), 1, Work.IOWQ));
  }

  @Test
  void inlineByDefaultAndForOtherEnginesNothingChanges() {
    MachineResult byDefault = run(spec(null), true);
    MachineResult inline = run(spec("inline"), true);
    MachineResult libaio = run(spec("io-wq"), false);
    assertThat(inline.digest()).isEqualTo(byDefault.digest());
    assertThat(libaio.digest()).isEqualTo(byDefault.digest());
    for (MachineResult r : List.of(byDefault, inline, libaio)) {
      assertThat(items(r, 0, Work.IOWQ) + items(r, 1, Work.IOWQ)).isZero();
      for (int cpu = 0; cpu < 2; cpu++) {
        // the job queues each request on the ring of the CPU it submits from
        assertThat(items(r, cpu, Work.SUBMIT)).isEqualTo(r.router().routedPerQueue()[cpu]);
      }
    }
  }

  @Test
  void theParserRefusesAnUnknownPunt() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> spec("sqpoll"))
        .hasMessageContaining("io-uring-punt")
        .hasMessageContaining("inline, io-wq");
  }
}
