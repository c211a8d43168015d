package io.mqroute.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.mqroute.actors.machine.MachineResult;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobStats;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Options of fio's example job files, run in the machine. */
class FioJobsInTheModelTest {
  @TempDir Path dir;

  private MachineResult run(String job) throws IOException {
    return ExperimentText.run(
            dir,
            "jobs",
            "name = jobs\ndevice = \"fixed(10us)\"\nworkload = \"\"\"\n[j]\n" + job + "\n\"\"\"\n")
        .variants()
        .get(0)
        .result();
  }

  /**
   * 1mbs_clients.fio's startdelay=90 under a 100 ms runtime crashed with a trace when the horizon
   * left out the delay: the job must start at 90 s and run its 100 ms.
   */
  @Test
  void aLongStartDelayRunsAfterTheDelay() throws IOException {
    MachineResult r = run("rw=read\nsize=1m\nstartdelay=90\nruntime=100ms\ntime_based");
    assertThat(r.healthy()).isTrue();
    JobStats j = r.jobs().get(0);
    assertThat(j.windowStartNs()).isEqualTo(90_000_000_000L);
    assertThat(j.runtimeNs()).isEqualTo(100_000_000L);
    assertThat(j.direction(Direction.READ).totalIos()).isPositive();
  }

  @Test
  void numberIosAndIoSizeEndTheJob() throws IOException {
    assertThat(run("rw=randread\nsize=1m\nnumber_ios=100").jobs().get(0).totalIos()).isEqualTo(100);
    assertThat(
            run("rw=read\nsize=1m\nio_size=3m").jobs().get(0).direction(Direction.READ).ioBytes())
        .isEqualTo(3L << 20);
  }

  /**
   * fio's do_verify: a 1 MiB write job with verify= reads the MiB back once the writes are done.
   */
  @Test
  void verifyReadsBackWhatWasWritten() throws IOException {
    JobStats j =
        run("rw=randwrite\nsize=1m\nverify=crc32c\nioengine=libaio\niodepth=4").jobs().get(0);
    assertThat(j.direction(Direction.WRITE).ioBytes()).isEqualTo(1L << 20);
    assertThat(j.direction(Direction.READ).ioBytes()).isEqualTo(1L << 20);
    JobStats plain = run("rw=randwrite\nsize=1m\nioengine=libaio\niodepth=4").jobs().get(0);
    assertThat(plain.direction(Direction.READ).ioBytes()).isZero();
  }

  /** fio's rate_min: a job held at 1 MiB/s misses a 2 MiB/s minimum (EIO) and meets 512 KiB/s. */
  @Test
  void rateMinIsReportedAsFioReportsIt() throws IOException {
    String job = "rw=read\nsize=64m\nrate=1m\nruntime=3s\ntime_based\nratecycle=500\n";
    assertThat(run(job + "ratemin=2m").jobs().get(0).firstError()).isEqualTo(JobStats.EIO);
    assertThat(run(job + "rate_min=512k").jobs().get(0).firstError()).isZero();
  }

  @Test
  void bssplitSizesEachIo() throws IOException {
    JobStats j =
        run("rw=randread\nsize=64m\nbssplit=4k/75:64k/25\nruntime=200ms\ntime_based").jobs().get(0);
    double meanBytes =
        (double) j.direction(Direction.READ).ioBytes() / j.direction(Direction.READ).totalIos();
    assertThat(meanBytes).isCloseTo(0.75 * 4096 + 0.25 * 65536, within(600.0));
  }

  @Test
  void aJobWithoutSizeRunsOnTheDevice() throws IOException {
    MachineResult r = run("rw=randread\nruntime=50ms\ntime_based\nrandom_distribution=zipf:1.1");
    assertThat(r.healthy()).isTrue();
    assertThat(r.jobs().get(0).totalIos()).isPositive();
  }
}
