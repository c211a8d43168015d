package io.mqroute.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.MachineSpecParser;
import io.mqroute.config.StrictConfig;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobStats;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * fio's options that tie jobs to each other, run on the default machine: wait_for, exitall with
 * exit_what, flow control (docs/fio-jobs.md).
 */
@Tag("integration")
class FioJobsTogetherTest {
  private static final MachineSpec MACHINE =
      MachineSpecParser.parse(
          StrictConfig.of(ConfigFactory.empty(), "", MachineSpecParser.KEYS), Path.of("."));

  private static List<JobStats> run(String text) {
    FioWorkload w = FioWorkload.parse(text, "t.fio");
    List<JobPlan> plans = w.plans(MACHINE);
    MachineResult r =
        MachineRun.run("t", MACHINE, plans, i -> w.newStats(plans.get(i)), 1).result();
    assertThat(r.violations()).isEmpty();
    assertThat(r.stall()).isNull();
    return r.jobs();
  }

  private static final String GLOBAL =
      "[global]\nioengine=libaio\niodepth=4\nrw=randread\nsize=1g\n";

  @Test
  void aWaiterStartsWhenEveryCloneOfItsWaiteeHasEnded() {
    List<JobStats> jobs =
        run(
            GLOBAL
                + "[a]\nnumjobs=2\nruntime=10ms\n[b]\nruntime=5ms\n[c]\nwait_for=a\nruntime=5ms\n");
    long aEnd = Math.max(jobs.get(0).windowEndNs(), jobs.get(1).windowEndNs());
    assertThat(jobs.get(2).windowStartNs()).isLessThan(1_000_000); // b does not wait
    assertThat(jobs.get(3).windowStartNs()).isGreaterThanOrEqualTo(aEnd);
    assertThat(aEnd).isGreaterThanOrEqualTo(10_000_000);
  }

  @Test
  void exitallEndsTheGroupWhenOneJobEnds() {
    String jobs = "[short]\nruntime=5ms\n[long]\nruntime=50ms\n";
    assertThat(run(GLOBAL + jobs).get(1).windowEndNs()).isGreaterThanOrEqualTo(50_000_000);
    List<JobStats> ended = run(GLOBAL + "exitall\n" + jobs);
    assertThat(ended.get(1).windowEndNs()).isBetween(5_000_000L, 6_000_000L);
  }

  @Test
  void exitWhatAllAlsoEndsJobsThatHaveNotStarted() {
    String text =
        GLOBAL + "exitall\n[first]\nexit_what=all\nruntime=5ms\n[later]\nstonewall\nruntime=5ms\n";
    List<JobStats> jobs = run(text);
    assertThat(jobs.get(1).totalIos()).isZero();
    // exit_what=group (the default) ends the first group only: the later group runs
    assertThat(run(text.replace("exit_what=all\n", "")).get(1).totalIos()).isPositive();
  }

  @Test
  void exitWhatStonewallEndsRunningJobsOfOtherGroupsButNotWaiters() {
    // new_group puts b (and c) in fio groups of their own: exit_what=group leaves b running
    String text =
        GLOBAL
            + "exitall\n[a]\nruntime=5ms\nexit_what=%s\n[b]\nnew_group\nruntime=50ms\n"
            + "[c]\nnew_group\nwait_for=a\nruntime=5ms\n";
    List<JobStats> group = run(String.format(text, "group"));
    assertThat(group.get(1).windowEndNs()).isGreaterThanOrEqualTo(50_000_000);
    List<JobStats> stonewall = run(String.format(text, "stonewall"));
    assertThat(stonewall.get(1).windowEndNs()).isLessThan(6_000_000);
    assertThat(stonewall.get(2).totalIos()).isPositive(); // not running when a ended: it runs
  }

  @Test
  void flowKeepsTheJobsToTheirWeights() {
    for (String sleep : List.of("", "flow_sleep=100\n")) {
      List<JobStats> jobs =
          run(
              GLOBAL
                  + "runtime=20ms\n"
                  + sleep
                  + "[light]\nflow=1\n[heavy]\nflow=3\n[free]\nflow_id=2\nflow=1\n");
      double ratio = (double) jobs.get(1).totalIos() / jobs.get(0).totalIos();
      assertThat(ratio).as(sleep).isBetween(2.9, 3.1);
      // alone in its flow, the third job is not held back: it does as much as both together
      assertThat(jobs.get(2).totalIos())
          .isGreaterThan((jobs.get(0).totalIos() + jobs.get(1).totalIos()) / 2);
    }
  }

  @Test
  void aStridedSequencePastTheRegionEndsTheJob() {
    String job =
        "[j]\nioengine=libaio\niodepth=%d\nrw=randread\nsize=12k\nio_size=24k\n"
            + "random_distribution=sequence:2,0,1\nrandom_sequence_stride=%d\n";
    assertThat(run(String.format(job, 1, 0)).get(0).totalIos()).isEqualTo(6);
    assertThat(run(String.format(job, 1, 1)).get(0).totalIos()).isEqualTo(3);
    assertThat(run(String.format(job, 8, 1)).get(0).totalIos()).isEqualTo(3);
  }

  @Test
  void verifyBacklogReadsBackWhileATimeBasedJobWrites() {
    String job =
        "[j]\nioengine=libaio\niodepth=4\nrw=randwrite\nsize=1g\nruntime=10ms\ntime_based\n"
            + "verify=crc32c\n";
    JobStats plain = run(job).get(0);
    assertThat(plain.direction(Direction.READ).totalIos())
        .isZero(); // a time-based job has no verify phase
    JobStats backlog = run(job + "verify_backlog=1\n").get(0);
    long reads = backlog.direction(Direction.READ).totalIos();
    long writes = backlog.direction(Direction.WRITE).totalIos();
    assertThat(reads).isPositive();
    assertThat((double) reads / writes).isBetween(0.9, 1.0);
    // size-based: every write is read back once, with or without a backlog
    String sized = "[j]\nrw=write\nsize=64k\nverify=md5\n";
    assertThat(run(sized).get(0).direction(Direction.READ).totalIos()).isEqualTo(16);
    assertThat(run(sized + "verify_backlog=3\n").get(0).direction(Direction.READ).totalIos())
        .isEqualTo(16);
    assertThat(run(sized + "verify_backlog=3\n").get(0).direction(Direction.WRITE).totalIos())
        .isEqualTo(16);
  }

  @Test
  void aSteadyJobEndsOnceItsWindowIsSteady() {
    String job =
        "[j]\nioengine=libaio\niodepth=2\nrw=randread\nsize=1g\ntime_based\nruntime=20s\n"
            + "rate_iops=2000\n";
    // rate-capped: 2000 IOPS every second; a 3 s window of 1 s checks is steady at the third
    JobStats steady = run(job + "ss=iops:1%\nss_dur=3s\n").get(0);
    assertThat(steady.windowEndNs()).isBetween(3_000_000_000L, 3_100_000_000L);
    // ss_ramp=2s: sampling starts at the check one interval after it (3 s), steady at 5 s
    JobStats ramped = run(job + "ss=iops:1%\nss_dur=3s\nss_ramp=2s\n").get(0);
    assertThat(ramped.windowEndNs()).isBetween(5_000_000_000L, 5_100_000_000L);
    // group_reporting: the group's sum is judged, at its last job, and the whole group ends
    List<JobStats> group =
        run(job.replace("[j]\n", "[j]\nnumjobs=2\ngroup_reporting\n") + "ss=iops:1%\nss_dur=3s\n");
    assertThat(group.get(0).windowEndNs()).isBetween(3_000_000_000L, 3_100_000_000L);
    // a limit nothing meets: the job runs its runtime
    String never = job.replace("runtime=20s", "runtime=5s") + "ss=iops:0%\nss_dur=3s\n";
    assertThat(run(never).get(0).windowEndNs()).isGreaterThanOrEqualTo(5_000_000_000L);
  }

  @Test
  void waitForChainsCountTowardsTheSimulatedTimeCap() {
    assertThatThrownBy(
            () ->
                FioWorkload.parse(
                        "[global]\nsize=1g\n[a]\nruntime=25m\n[b]\nwait_for=a\nruntime=25m\n"
                            + "[c]\nwait_for=b\nruntime=25m\n",
                        "w.fio")
                    .plans(MACHINE))
        .hasMessageContaining("the run would simulate 1.25h");
  }
}
