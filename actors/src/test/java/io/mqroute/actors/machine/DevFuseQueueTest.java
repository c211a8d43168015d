package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.mqroute.config.ConfigError;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * FUSE over /dev/fuse ({@code queues { kind = dev-fuse }}): one queue served by a pool of worker
 * threads that the scheduler places on the machine's cores.
 */
class DevFuseQueueTest {
  private static JobPlan job(int index, int cpus, int start, int inFlight, boolean foreground) {
    return JobPlan.of(
        index,
        "j" + index,
        0,
        IntStream.range(0, cpus).toArray(),
        start,
        inFlight,
        foreground,
        1.0,
        true,
        4096,
        4096,
        1L << 30,
        index,
        0,
        10_000_000L,
        0,
        true,
        0,
        false);
  }

  private static MachineResult run(MachineSpec spec, List<JobPlan> jobs) {
    MachineResult r =
        MachineRun.run("dev-fuse", spec, jobs, i -> new JobStats(JobInfo.named("j" + i)), 7)
            .result();
    assertThat(r.healthy()).as(r.violations() + " " + r.stall()).isTrue();
    return r;
  }

  private static long ios(MachineResult r) {
    return r.jobs().stream().mapToLong(j -> j.direction(Direction.READ).totalIos()).sum();
  }

  @Test
  void thePoolServesAsManyRequestsAtOnceAsItHasThreads() {
    // one CPU without costs, an off-CPU device of 10 us: a worker blocks in it, so the pool size
    // is the concurrency: 10 ms / 10 us = 1000 requests per worker
    MachineResult one =
        run(
            TestMachines.pureQueueing("kind = dev-fuse, pollers = 1", "fixed(10us)"),
            List.of(job(0, 1, 0, 4, false)));
    MachineResult four =
        run(
            TestMachines.pureQueueing("kind = dev-fuse, pollers = 4", "fixed(10us)"),
            List.of(job(0, 1, 0, 4, false)));
    assertThat(ios(one)).isBetween(995L, 1004L);
    assertThat(ios(four)).isBetween(3990L, 4004L);
    assertThat(one.queues().get(0).overflowWaits()).isPositive(); // waited in fiq->pending
    assertThat(four.queues().get(0).overflowWaits()).isZero();
  }

  @Test
  void aWokenWorkerRunsOnTheIdleCpuAndEndsTheRequestThere() {
    MachineSpec spec =
        TestMachines.parse(
            "machine { numa-nodes = 1, cores-per-node = 2, cpu { c-states = none } }\n"
                + "queues { kind = dev-fuse }\n"
                + "device = \"cpu(2us)\"\n");
    MachineResult r = run(spec, List.of(job(0, 2, 0, 1, true)));
    CoreProtocol.CoreStats app = r.cores().get(0);
    CoreProtocol.CoreStats other = r.cores().get(1);
    int server = Work.SERVER.ordinal();
    int completion = Work.COMPLETION.ordinal();
    // the synchronous reader sleeps on CPU 0 after each submission; its CPU is busy when it wakes
    // the worker, so the worker runs on CPU 1, ends the request there, and wakes the reader back
    // (one request more than fio counts: the one in flight when the run ends)
    long n = ios(r);
    assertThat(other.byKind()[server]).isBetween(n, n + 1);
    assertThat(other.byKind()[completion]).isBetween(n, n + 1);
    assertThat(app.byKind()[server]).isZero();
    assertThat(app.byKind()[Work.SUBMIT.ordinal()]).isBetween(n, n + 1);
  }

  @Test
  void eachSideOfTheCrossCpuHandOverPaysItsIpi() {
    MachineSpec spec =
        TestMachines.parse(
            "machine { numa-nodes = 1, cores-per-node = 2,"
                + " cpu { c-states = none, ipi-cost = 10us } }\n"
                + "queues { kind = dev-fuse }\n"
                + "device = \"cpu(2us)\"\n");
    MachineResult r = run(spec, List.of(job(0, 2, 0, 1, true)));
    long n = ios(r);
    int ipi = Work.IPI.ordinal();
    // the reader on CPU 0 wakes the worker on CPU 1, the worker's reply wakes the reader back
    assertThat(r.cores().get(0).byKind()[ipi]).isBetween(n, n + 1);
    assertThat(r.cores().get(1).byKind()[ipi]).isBetween(n - 1, n + 1);
    assertThat(r.cores().get(1).nanosByKind()[ipi])
        .isEqualTo(10_000 * r.cores().get(1).byKind()[ipi]);
  }

  @Test
  void thePoolGrowsOnDemandSoTwoReadersShareItsWorkersAcrossCpus() {
    // two synchronous readers, one per CPU: libfuse starts a worker whenever the last available one
    // takes a request (fuse_do_work), so the pool is three, not max_threads; the waiters rotate,
    // every worker serves both readers in turn, and half the wake-ups cross CPUs. A pool of all ten
    // from the start binds each worker to one reader on its CPU: no cross-CPU wake-up at all.
    MachineSpec spec =
        TestMachines.parse(
            "machine { numa-nodes = 1, cores-per-node = 2, cpu { c-states = none } }\n"
                + "queues { kind = dev-fuse, pollers = 10 }\n"
                + "device = \"cpu(2us)\"\n");
    MachineResult r = run(spec, List.of(job(0, 2, 0, 1, true), job(1, 2, 1, 1, true)));
    long wakes = r.cores().stream().mapToLong(c -> c.byKind()[Work.WAKE.ordinal()]).sum();
    assertThat(wakes).isGreaterThan(ios(r) / 5);
  }

  @Test
  void theWorkersCrossCpuWakeUpCostsWakeCost() {
    String base =
        "machine { numa-nodes = 1, cores-per-node = 2, cpu { c-states = none, wake-cost = %s } }\n"
            + "queues { kind = dev-fuse }\ndevice = \"cpu(2us)\"\n";
    long cheap =
        ios(run(TestMachines.parse(String.format(base, "0")), List.of(job(0, 2, 0, 1, true))));
    long dear =
        ios(run(TestMachines.parse(String.format(base, "5us")), List.of(job(0, 2, 0, 1, true))));
    // two cross-CPU wake-ups per request (the worker's and the reader's), 5 us each
    assertThat(dear).isLessThan(cheap);
    double perRequestCheap = 10_000_000.0 / cheap;
    double perRequestDear = 10_000_000.0 / dear;
    assertThat(perRequestDear - perRequestCheap).isBetween(9_000.0, 11_000.0);
  }

  @Test
  void aWorkerWokenForEveryRequestPaysTheSleepWakeCostPerRequestABusyPoolRarely() {
    // HLT (exit 0, residency 1 us) on both CPUs; sleep-wake-cost 20 us
    String base =
        "machine { numa-nodes = 1, cores-per-node = 2,"
            + " cpu { c-states = \"hlt:0ns:1us\", sleep-wake-cost = 20us } }\n"
            + "queues { kind = dev-fuse }\ndevice = \"cpu(2us)\"\n";
    MachineSpec spec = TestMachines.parse(base);
    // one synchronous reader: every request wakes a worker on the idle other CPU
    MachineResult sync = run(spec, List.of(job(0, 2, 0, 1, true)));
    long n = sync.cores().get(1).byKind()[Work.SERVER.ordinal()];
    assertThat(sync.cores().get(1).sleepWakeNanos()).isEqualTo(n * 20_000);
    assertThat(sync.cores().get(0).sleepWakeNanos()).isZero(); // the reader is no server thread
    // 16 in flight: the workers take pending requests without sleeping, and the CPUs rarely idle
    MachineResult busy = run(spec, List.of(job(0, 2, 0, 16, false)));
    long served = busy.cores().stream().mapToLong(c -> c.byKind()[Work.SERVER.ordinal()]).sum();
    long paid = busy.cores().stream().mapToLong(CoreProtocol.CoreStats::sleepWakeNanos).sum();
    assertThat(paid / 20_000).isLessThan(served / 10);
  }

  private static double wakeupsPerRequest(MachineResult r) {
    FlowProtocol.QueueStats q = r.queues().get(0);
    return (double) q.ringAttempts() / q.accepted(); // a /dev/fuse queue counts its wake-ups there
  }

  @Test
  void readAtRunWorkersWokenOntoABusyWorkersCpuWaitAwakeSoSendsAtDepthRarelyWakeOne() {
    String base =
        "machine { numa-nodes = 1, cores-per-node = 2, cpu { c-states = none }%s }\n"
            + "queues { kind = dev-fuse }\ndevice = \"cpu(2us)\"\n";
    MachineSpec atWake = TestMachines.parse(String.format(base, ""));
    MachineSpec atRun =
        TestMachines.parse(String.format(base, ", kernel { dev-fuse-read = at-run }"));
    // eight in flight: handed its request, a worker is woken for every one of them
    MachineResult handed = run(atWake, List.of(job(0, 2, 0, 8, false)));
    assertThat(wakeupsPerRequest(handed)).isEqualTo(1.0);
    // read when it runs: the woken workers wait behind the one serving, and stay awake
    MachineResult read = run(atRun, List.of(job(0, 2, 0, 8, false)));
    assertThat(wakeupsPerRequest(read)).isLessThan(0.5);
    assertThat(ios(read)).isPositive();
    // one synchronous reader: nothing is pending when a worker finishes, so each request wakes one
    assertThat(wakeupsPerRequest(run(atRun, List.of(job(0, 2, 0, 1, true))))).isEqualTo(1.0);
    assertThatThrownBy(
            () -> TestMachines.parse("machine { kernel { dev-fuse-read = sometimes } }\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("dev-fuse-read")
        .hasMessageContaining("at-run");
  }

  @Test
  void readAtRunABlockedWorkerHoldsItsRequestSoThePoolSizeStillBoundsTheConcurrency() {
    // as thePoolServesAsManyRequestsAtOnceAsItHasThreads, reading at run: one CPU without costs,
    // an off-CPU device of 10 us that blocks the worker
    String machine =
        "machine { numa-nodes = 1, cores-per-node = 1, cpu { submit-cost = 0, server-cost = 0,"
            + " completion-cost = 0, wake-cost = 0, reap-cost = 0, switch-cost = 0,"
            + " migrate-cost = 0, c-states = none }, kernel { dev-fuse-read = at-run } }\n"
            + "router { selector = single }\ndevice = \"fixed(10us)\"\n";
    MachineResult one =
        run(
            TestMachines.parse(machine + "queues { kind = dev-fuse, pollers = 1 }\n"),
            List.of(job(0, 1, 0, 4, false)));
    MachineResult four =
        run(
            TestMachines.parse(machine + "queues { kind = dev-fuse, pollers = 4 }\n"),
            List.of(job(0, 1, 0, 4, false)));
    assertThat(ios(one)).isBetween(995L, 1004L);
    // the four workers share one CPU, but a blocked one holds its place and not the CPU's work
    assertThat(ios(four)).isBetween(3990L, 4004L);
  }

  @Test
  void devFuseDefaultsToLibfusesTenThreadsOneQueueTheSingleSelectorAndGlobalAdmission() {
    MachineSpec spec =
        TestMachines.parse("machine { cores-per-node = 2 }\nqueues { kind = dev-fuse }\n");
    assertThat(spec.queues().pollers()).isEqualTo(10);
    assertThat(spec.queues().count()).isEqualTo(1);
    assertThat(spec.router().selector()).isEqualTo("single");
    assertThat(spec.router().admission().name()).isEqualTo("GLOBAL");
    assertThatThrownBy(() -> TestMachines.parse("queues { kind = dev-fuse, count = 2 }\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("count");
  }

  @Test
  void aLibfuseWorkersCostIsItsOwnAndDefaultsToTheRingThreadsServerCost() {
    String base =
        "machine { numa-nodes = 1, cores-per-node = 2, cpu { c-states = none%s } }\n"
            + "queues { kind = dev-fuse }\ndevice = \"cpu(2us)\"\n";
    long asServer =
        ios(run(TestMachines.parse(String.format(base, "")), List.of(job(0, 2, 0, 1, true))));
    long dearer =
        ios(
            run(
                TestMachines.parse(String.format(base, ", worker-cost = 8us")),
                List.of(job(0, 2, 0, 1, true))));
    // server-cost's default 3 us per request became 8 us
    assertThat(10_000_000.0 / dearer - 10_000_000.0 / asServer).isBetween(4_500.0, 5_500.0);
    assertThat(TestMachines.parse("machine { cpu { server-cost = 7us } }\n").costs().workerNanos())
        .isEqualTo(7_000);
  }

  @Test
  void aCStateTableCanBeWrittenOutAsSysfsListsIt() {
    MachineSpec spec = TestMachines.parse("machine { cpu { c-states = \"haltpoll:12us:1us\" } }\n");
    assertThat(spec.cstates()).hasSize(1);
    assertThat(spec.cstates().get(0).exitNanos()).isEqualTo(12_000);
    assertThat(spec.cstates().get(0).residencyNanos()).isEqualTo(1_000);
    assertThatThrownBy(() -> TestMachines.parse("machine { cpu { c-states = \"hlt:1us\" } }\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("NAME:EXIT:RESIDENCY");
    assertThatThrownBy(
            () -> TestMachines.parse("machine { cpu { c-states = \"a:1us:5us, b:2us:1us\" } }\n"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining("shallow to deep");
  }
}
