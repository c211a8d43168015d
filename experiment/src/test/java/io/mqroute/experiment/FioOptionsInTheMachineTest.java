package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.Work;
import io.mqroute.config.ConfigError;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobStats;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * fio options that change what a job does take effect in the machine; those it has no model for are
 * refused.
 */
class FioOptionsInTheMachineTest {
  @TempDir Path dir;

  private ExperimentResult run(String jobOptions) throws IOException {
    return ExperimentText.run(
        dir,
        "fio",
        """
        name = fio-options
        seed = 1
        machine { numa-nodes = 1, cores-per-node = 2 }
        queues { kind = per-cpu, ring-size = 8 }
        device = "fixed(10us)"
        workload = \"\"\"
        [j]
        ioengine=psync
        rw=randread
        bs=4k
        size=64k
        %s
        \"\"\"
        """
            .formatted(jobOptions));
  }

  /**
   * One second of psync I/O on a 10 µs device (some 40k IOPS uncapped) with the given rate options.
   */
  private long[] readsAndWritesPerSecond(String rw, String rateOptions) throws IOException {
    JobStats job = oneSecond("", "ioengine=psync\nrw=" + rw + "\n" + rateOptions).jobs().get(0);
    return new long[] {
      job.direction(Direction.READ).totalIos(), job.direction(Direction.WRITE).totalIos()
    };
  }

  /** One second of the job (rw=randread unless it says otherwise) on a 10 µs device. */
  private MachineResult oneSecond(String cpu, String job) throws IOException {
    return timeBased(cpu, "fixed(10us)", job);
  }

  /** The job, time-based (one second unless it sets runtime=), on {@code device}. */
  private MachineResult timeBased(String cpu, String device, String job) throws IOException {
    return ExperimentText.run(
            dir,
            "time-based",
            """
        name = time-based
        seed = 1
        machine { numa-nodes = 1, cores-per-node = 2, cpu { %s } }
        queues { kind = per-cpu, ring-size = 8 }
        device = "%s"
        workload = \"\"\"
        [j]
        rw=randread
        bs=4k
        size=64m
        time_based
        runtime=1s
        %s
        \"\"\"
        """
                .formatted(cpu, device, job))
        .variants()
        .get(0)
        .result();
  }

  @Test
  void rateIopsCapsEachDirectionAsFioDoes() throws IOException {
    // one value caps reads and writes each (not their sum), and the caps win over rwmixread (fio's
    // rate_ddir)
    assertThat(readsAndWritesPerSecond("randrw", "rwmixread=70\nrate_iops=1000"))
        .satisfies(n -> assertThat(n[0]).isBetween(995L, 1001L))
        .satisfies(n -> assertThat(n[1]).isBetween(995L, 1001L));
    assertThat(readsAndWritesPerSecond("randrw", "rate_iops=1000,200"))
        .satisfies(n -> assertThat(n[0]).isBetween(995L, 1001L))
        .satisfies(n -> assertThat(n[1]).isBetween(199L, 201L));
    // only writes capped: reads take every other turn the writes are not due
    assertThat(readsAndWritesPerSecond("randrw", "rate_iops=,200"))
        .satisfies(n -> assertThat(n[0]).isGreaterThan(10_000L))
        .satisfies(n -> assertThat(n[1]).isBetween(199L, 201L));
    // rate= in bytes per second: 2 MiB/s of 4 KiB reads
    assertThat(readsAndWritesPerSecond("randread", "rate=2m")[0]).isBetween(510L, 513L);
    // rate_process=poisson: exponential gaps with the same mean
    assertThat(readsAndWritesPerSecond("randread", "rate_iops=1000\nrate_process=poisson")[0])
        .isBetween(900L, 1100L);
  }

  /** One second of I/O, CPUs without C-states at full speed, so that times add up exactly. */
  private MachineResult exact(String job) throws IOException {
    return oneSecond("c-states = none", job);
  }

  private static double nanosPerIo(MachineResult r) {
    return 1e9 / r.jobs().get(0).direction(Direction.READ).totalIos();
  }

  @Test
  void thinktimePausesBetweenIosAsFioDoes() throws IOException {
    double plain = nanosPerIo(exact("ioengine=psync"));
    // a bare number is microseconds; the pause comes after each completed I/O
    assertThat(nanosPerIo(exact("ioengine=psync\nthinktime=100")) - plain)
        .isCloseTo(100_000, within(500.0));
    assertThat(nanosPerIo(exact("ioengine=psync\nthinktime=100us\nthinktime_blocks=4")) - plain)
        .isCloseTo(25_000, within(500.0));
    // thinktime_spin is part of the pause, spent running on the job's CPU
    MachineResult spun = exact("ioengine=psync\nthinktime=100\nthinktime_spin=40");
    assertThat(nanosPerIo(spun) - plain).isCloseTo(100_000, within(500.0));
    long think = spun.cores().stream().mapToLong(c -> c.nanosByKind()[Work.THINK.ordinal()]).sum();
    long ios = spun.little().get(0).requests();
    assertThat(think / (double) ios).isCloseTo(40_000, within(500.0));
    // an async job first waits for all it has in flight (io_u_quiesce): four at a time, then 1 ms
    // of rest
    double batch =
        nanosPerIo(
            exact(
                "ioengine=libaio\niodepth=4\nthinktime=1ms\nthinktime_blocks=4\n"
                    + "thinktime_blocks_type=issue"));
    // 1 ms plus the time the four take to end (one queue serves them one after another: some 60
    // µs); without the
    // wait it would be 1 ms plus the four submits
    assertThat(batch * 4).isBetween(1_040_000.0, 1_100_000.0);
  }

  @Test
  void aPauseLongerThanTheStallLimitIsNotAStall() throws IOException {
    // 1.5 s of thinktime, then a 400 ms request: the stall clock starts when the request goes out,
    // not at the last
    // completion (the default stall-limit is 1 s)
    MachineResult r = timeBased("", "fixed(400ms)", "ioengine=psync\nruntime=5s\nthinktime=1500ms");
    assertThat(r.stall()).isNull();
    assertThat(r.violations()).isEmpty();
    assertThat(r.jobs().get(0).direction(Direction.READ).totalIos()).isEqualTo(3);
  }

  @Test
  void noPauseRunsAfterTheJobHasEnded() throws IOException {
    // 64 I/Os go out, then the job waits for them before its pause (about 1 ms: one queue serves
    // them in turn);
    // the run ends at 0.5 ms, in that wait, and fio clips the pause: no thinktime_spin runs
    MachineResult r =
        exact(
            "ioengine=libaio\niodepth=64\nruntime=500us\nthinktime=10\nthinktime_spin=10\n"
                + "thinktime_blocks=64\nthinktime_blocks_type=issue");
    assertThat(r.jobs().get(0).direction(Direction.READ).totalIos()).isPositive();
    assertThat(r.cores().stream().mapToLong(c -> c.byKind()[Work.THINK.ordinal()]).sum()).isZero();
  }

  @Test
  void thinktimeCompanionsWithoutThinktimeAreRefused() {
    assertThatThrownBy(() -> exact("ioengine=psync\nthinktime_spin=10"))
        .hasMessageContaining("(workload):9: thinktime_spin needs thinktime=");
    assertThatThrownBy(() -> exact("ioengine=psync\nthinktime=10\nthinktime_spin=20"))
        .hasMessageContaining("thinktime_spin (20000 ns) is longer than thinktime (10000 ns)");
  }

  private static long ios(ExperimentResult r) {
    return r.variants().get(0).summary().ios();
  }

  @Test
  void sizeIsTheTotalOverTheFiles() throws IOException {
    assertThat(ios(run("nrfiles=4"))).isEqualTo(16); // 4 files of 16k: 64k in all
    assertThat(ios(run("nrfiles=4\nfilesize=64k"))).isEqualTo(16); // larger files: still size=
  }

  @Test
  void loopsRepeatTheSize() throws IOException {
    assertThat(ios(run(""))).isEqualTo(16);
    assertThat(ios(run("loops=4"))).isEqualTo(64);
  }

  @Test
  void startdelayShiftsTheJob() throws IOException {
    long plain = run("").variants().get(0).result().endNanos();
    long delayed = run("startdelay=5ms").variants().get(0).result().endNanos();
    // 5 ms later, plus a little: after 5 ms idle the CPUs start from a deeper C-state and a lower
    // frequency
    assertThat(delayed - plain).isBetween(5_000_000L, 6_000_000L);
  }

  @Test
  void whatTheMachineCannotModelIsRefusedWithTheJobsLine() {
    // refused while the experiment is parsed, before anything runs: one line with the job's line
    // and the variant
    assertThatThrownBy(() -> run("fsync=4"))
        .isInstanceOf(ConfigError.class)
        .hasMessageContaining(":2: job j: fsync=4 is not modelled")
        .hasMessageEndingWith("(variant default)");
    assertThatThrownBy(() -> run("nrfiles=2\nzonemode=zbd"))
        .hasMessageContaining("zonemode=zbd with nrfiles > 1 is not modelled");
    assertThatThrownBy(() -> run("zonemode=zbd"))
        .hasMessageContaining(
            "zonemode=zbd with 268435456-byte zones needs a region of at least one zone");
  }

  @Test
  void directOneOrUnsetRunsAndBufferedRunsAsDirect() throws IOException {
    assertThat(ios(run("direct=1"))).isEqualTo(16);
    assertThat(ios(run("direct=0"))).isEqualTo(16); // the FOPEN_DIRECT_IO mount: same requests
  }
}
