package io.mqroute.actors.machine;

import static org.assertj.core.api.Assertions.assertThat;

import io.mqroute.actors.device.Device;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.DirectionStats;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import io.mqroute.protocol.Op;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * fio's falloc, ftruncate and file-operation engines: each fio I/O (or each file) sends its system
 * call's FUSE requests, of the kinds and in the numbers Linux sends them, through the router, the
 * queues and the device; fio's report counts what fio counts. The device here counts what reaches
 * it by opcode.
 */
class IoCallsRequestsTest {

  /**
   * Serves every request in 10 us and counts them by file (each job has its own) and opcode; one
   * virtual-time run is one thread.
   */
  static final class CountingDevice implements Device {
    final Map<Long, Map<Op, Long>> seen;

    CountingDevice(Map<Long, Map<Op, Long>> seen) {
      this.seen = seen;
    }

    @Override
    public long serviceNanos(
        Op op, long fileId, long offset, int length, long nowNanos, RandomGenerator rnd) {
      if (!op.isData() && length != 0) {
        throw new AssertionError(op + " carries no data, length " + length);
      }
      seen.computeIfAbsent(fileId, f -> new EnumMap<>(Op.class)).merge(op, 1L, Long::sum);
      return 10_000;
    }

    @Override
    public String spec() {
      return "counting";
    }
  }

  private static final int FILES = 10;

  private record Case(IoCalls calls, double readFraction, boolean trims, int loops) {}

  /** Every case, one job each on one machine (they share its queues; each has its own file). */
  private static final List<Case> CASES =
      List.of(
          new Case(IoCalls.FILE_STAT, 1.0, false, 1),
          new Case(IoCalls.DIR_STAT, 1.0, false, 1),
          new Case(IoCalls.FILE_CREATE, 1.0, false, 2),
          new Case(IoCalls.FILE_DELETE, 1.0, false, 2),
          new Case(IoCalls.DIR_CREATE, 0.0, false, 2),
          new Case(IoCalls.DIR_DELETE, 1.0, false, 1),
          new Case(IoCalls.FALLOCATE, 0.0, false, 1),
          new Case(IoCalls.FALLOCATE, 0.0, true, 1),
          new Case(IoCalls.FTRUNCATE, 0.0, false, 1),
          new Case(IoCalls.DATA, 1.0, false, 1));

  private record Run(Map<Op, Long> ops, JobStats stats, LittlesLaw little) {}

  private static List<Run> runs;

  private static Map<Op, Long> allOps;

  private static List<CoreProtocol.CoreStats> cores;

  /**
   * Each case as one clone over {@link #FILES} files of 4 KiB (bs 4k), {@code loops} passes, on two
   * CPUs with two fuse-over-io-uring rings.
   */
  @BeforeAll
  static void runEveryCase() {
    Map<Long, Map<Op, Long>> seen = new HashMap<>();
    MachineSpec parsed =
        TestMachines.parse(
            "machine { numa-nodes = 1, cores-per-node = 2 }\n"
                + "queues { kind = per-cpu, ring-size = 4 }\n"
                + "device = \"fixed(10us)\"\n");
    MachineSpec spec = parsed.withDevice("counting", () -> new CountingDevice(seen));
    IoPattern files =
        new IoPattern(
            null,
            null,
            OffsetDistribution.UNIFORM,
            0,
            1,
            0,
            0,
            0,
            false,
            0,
            0,
            FILES,
            4096,
            IoPattern.FileService.ROUNDROBIN,
            1,
            1,
            null,
            0,
            0);
    List<JobPlan> plans = new ArrayList<>();
    for (int i = 0; i < CASES.size(); i++) {
      Case c = CASES.get(i);
      plans.add(
          new JobPlan(
              i,
              c.calls().name(),
              0,
              new int[] {0, 1},
              i % 2,
              1,
              true,
              c.readFraction(),
              false,
              4096,
              4096,
              FILES * 4096L,
              100 + i,
              0,
              0,
              0,
              false,
              0,
              0,
              false,
              c.loops(),
              0,
              ThinkTime.NONE,
              files,
              JobControl.NONE,
              c.calls(),
              c.trims(),
              false));
    }
    MachineResult r =
        MachineRun.run("calls", spec, plans, i -> new JobStats(JobInfo.named("j" + i)), 3).result();
    assertThat(r.healthy()).as("%s", r).isTrue();
    allOps = new EnumMap<>(Op.class);
    seen.values().forEach(m -> m.forEach((op, n) -> allOps.merge(op, n, Long::sum)));
    cores = r.cores();
    runs = new ArrayList<>();
    for (int i = 0; i < CASES.size(); i++) {
      runs.add(new Run(seen.getOrDefault(100L + i, Map.of()), r.jobs().get(i), r.little().get(i)));
      assertThat(r.little().get(i).holds()).as("%s: %s", CASES.get(i), r.little().get(i)).isTrue();
    }
  }

  private static Run run(IoCalls calls, double readFraction, boolean trims, int loops) {
    return runs.get(CASES.indexOf(new Case(calls, readFraction, trims, loops)));
  }

  private static Map<Op, Long> ops(Object... opAndCount) {
    Map<Op, Long> m = new EnumMap<>(Op.class);
    for (int i = 0; i < opAndCount.length; i += 2) {
      m.put((Op) opAndCount[i], ((Integer) opAndCount[i + 1]).longValue());
    }
    return m;
  }

  @Test
  void filestatSendsALookupAndTwoGetattrsPerFileAndReportsClatOnly() {
    Run r = run(IoCalls.FILE_STAT, 1.0, false, 1);
    assertThat(r.ops()).isEqualTo(ops(Op.GETATTR, 2 * FILES, Op.LOOKUP, FILES));
    DirectionStats read = r.stats().direction(Direction.READ);
    assertThat(read.clat().count()).as("one stat per file, timed").isEqualTo(FILES);
    assertThat(read.totalIos()).as("one fake 4k I/O per file").isEqualTo(FILES);
    assertThat(read.ioBytes()).isEqualTo(FILES * 4096L);
    assertThat(read.lat().count()).as("FIO_NOSTATS: no lat").isZero();
    assertThat(read.clat().min()).as("three 10 us requests in a row").isGreaterThan(30_000);
    assertThat(r.little().requests()).isEqualTo(3L * FILES);
  }

  @Test
  void dirstatSendsTheSameAsFilestat() {
    assertThat(run(IoCalls.DIR_STAT, 1.0, false, 1).ops())
        .isEqualTo(ops(Op.GETATTR, 2 * FILES, Op.LOOKUP, FILES));
  }

  @Test
  void filecreateCreatesThenClosesAndOpensOnTheSecondPass() {
    Run r = run(IoCalls.FILE_CREATE, 1.0, false, 2);
    assertThat(r.ops())
        .isEqualTo(
            ops(
                Op.GETATTR,
                3 * FILES + 2 * FILES,
                Op.LOOKUP,
                2 * FILES,
                Op.CREATE,
                FILES,
                Op.OPEN,
                FILES,
                Op.FLUSH,
                2 * FILES,
                Op.RELEASE,
                2 * FILES));
    DirectionStats read = r.stats().direction(Direction.READ);
    assertThat(read.clat().count()).isEqualTo(2 * FILES);
    assertThat(read.totalIos()).isEqualTo(2 * FILES);
    assertThat(r.stats().totalErrors()).isZero();
  }

  @Test
  void filedeleteUnlinksEachFileAndFailsOnTheSecondPassLikeFio() {
    Run r = run(IoCalls.FILE_DELETE, 1.0, false, 2);
    assertThat(r.ops())
        .as("the first file of the second pass: the lookup finds no name")
        .isEqualTo(ops(Op.GETATTR, 2 * FILES + 1, Op.LOOKUP, FILES + 1, Op.UNLINK, FILES));
    assertThat(r.stats().totalErrors()).isEqualTo(1);
    assertThat(r.stats().firstError()).isEqualTo(2); // ENOENT
    assertThat(r.stats().direction(Direction.READ).clat().count()).isEqualTo(FILES);
  }

  @Test
  void dircreateAndDirdeleteMakeAndRemoveDirectories() {
    Run c = run(IoCalls.DIR_CREATE, 0.0, false, 2);
    assertThat(c.ops())
        .isEqualTo(ops(Op.GETATTR, 2 * FILES + 1, Op.LOOKUP, FILES + 1, Op.MKDIR, 10));
    assertThat(c.stats().firstError()).isEqualTo(17); // EEXIST
    assertThat(c.stats().direction(Direction.WRITE).clat().count())
        .as("a write-only job reports its calls as writes")
        .isEqualTo(FILES);
    Run d = run(IoCalls.DIR_DELETE, 1.0, false, 1);
    assertThat(d.ops()).isEqualTo(ops(Op.GETATTR, 2 * FILES, Op.LOOKUP, FILES, Op.RMDIR, FILES));
  }

  @Test
  void fallocateSendsOneFallocatePerIoInEveryDirection() {
    Run w = run(IoCalls.FALLOCATE, 0.0, false, 1);
    assertThat(w.ops()).isEqualTo(ops(Op.GETXATTR, FILES, Op.FALLOCATE, FILES));
    DirectionStats write = w.stats().direction(Direction.WRITE);
    assertThat(write.totalIos()).isEqualTo(FILES);
    assertThat(write.lat().count()).as("an ordinary synchronous I/O: lat too").isEqualTo(FILES);
    Run t = run(IoCalls.FALLOCATE, 0.0, true, 1);
    assertThat(t.ops()).isEqualTo(ops(Op.GETXATTR, FILES, Op.FALLOCATE, FILES));
    assertThat(t.stats().direction(Direction.TRIM).totalIos())
        .as("punch hole: reported as trims")
        .isEqualTo(FILES);
    assertThat(t.stats().direction(Direction.WRITE).totalIos()).isZero();
  }

  @Test
  void ftruncateSendsOneSetattrPerWrite() {
    Run r = run(IoCalls.FTRUNCATE, 0.0, false, 1);
    assertThat(r.ops()).isEqualTo(ops(Op.GETXATTR, FILES, Op.SETATTR, FILES));
    assertThat(r.stats().direction(Direction.WRITE).totalIos()).isEqualTo(FILES);
  }

  @Test
  void readsAndWritesStillSendOneRequestEach() {
    assertThat(run(IoCalls.DATA, 1.0, false, 1).ops()).isEqualTo(ops(Op.READ, FILES));
  }

  /**
   * Every request is submitted from a job's CPU; every one but RELEASE wakes (or is reaped by) the
   * thread that waits for it, and RELEASE none: fuse_release_end runs where it ends.
   */
  @Test
  void everyRequestButReleaseIsDeliveredToAWaitingThread() {
    long requests = allOps.values().stream().mapToLong(Long::longValue).sum();
    long releases = allOps.getOrDefault(Op.RELEASE, 0L);
    assertThat(releases).isEqualTo(2 * FILES);
    long submits = 0;
    long delivered = 0;
    for (CoreProtocol.CoreStats c : cores) {
      submits += c.byKind()[Work.SUBMIT.ordinal()];
      delivered += c.byKind()[Work.WAKE.ordinal()] + c.byKind()[Work.REAP.ordinal()];
    }
    assertThat(submits).isEqualTo(requests);
    assertThat(delivered).isEqualTo(requests - releases);
  }
}
