package io.mqroute.workload;

import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.Workload;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobStats;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * An fio job file as an experiment's workload: every job is cloned {@code numjobs} times; clones
 * are placed on CPUs by {@code cpus_allowed} (with {@code cpus_allowed_policy=split} one CPU each),
 * or — unpinned — spread evenly over the machine, as the scheduler spreads busy threads.
 */
public final class FioWorkload implements Workload {
  private final FioJobFile file;

  public FioWorkload(FioJobFile file) {
    this.file = file;
  }

  /**
   * @throws FioParseException naming the source and line
   */
  public static FioWorkload parse(String text, String source) {
    return new FioWorkload(FioJobParser.parse(source, text));
  }

  /**
   * The job file with {@code overrides} set in every job (see {@link FioJobParser#parse(String,
   * String, Map)}).
   */
  public static FioWorkload parse(String text, String source, Map<String, String> overrides) {
    return new FioWorkload(FioJobParser.parse(source, text, overrides));
  }

  public FioJobFile file() {
    return file;
  }

  /**
   * Why {@code option} is not a job option mqroute reads (with the nearest name for a typo), or
   * null.
   */
  public static String optionProblem(String option) {
    return FioOptions.problem(option);
  }

  @Override
  public List<JobPlan> plans(MachineSpec machine) {
    int ncpu = machine.topology().cpuCount();
    int total = file.totalClones();
    if (total > JobPlan.MAX_JOBS) {
      throw new FioParseException(
          file.source(), 0, total + " job clones; at most " + JobPlan.MAX_JOBS);
    }
    List<JobPlan> plans = new ArrayList<>();
    // unpinned clones are spread over the machine per stonewall group: only a group's threads run
    // together
    Map<Integer, Integer> groupTotal = new HashMap<>();
    for (JobSpec j : file.jobs()) {
      groupTotal.merge(j.groupId(), j.numjobs(), Integer::sum);
    }
    Map<Integer, Integer> groupIndex = new HashMap<>();
    int index = 0;
    for (JobSpec j : file.jobs()) {
      refuseWhatIsNotModelled(j);
      int[] allowed =
          j.cpusAllowed().isAll()
              ? IntStream.range(0, ncpu).toArray()
              : j.cpusAllowed().cpus().stream().mapToInt(Integer::intValue).toArray();
      for (int c : allowed) {
        if (c >= ncpu) {
          throw new FioParseException(
              file.source(),
              j.line(),
              "job "
                  + j.name()
                  + ": cpus_allowed names CPU "
                  + c
                  + " but the machine has CPUs 0-"
                  + (ncpu - 1));
        }
      }
      for (int k = 0; k < j.numjobs(); k++) {
        int[] cpus = allowed;
        int start;
        int inGroup = groupIndex.merge(j.groupId(), 1, Integer::sum) - 1;
        if (j.cpusAllowed().isAll()) {
          start = (int) ((long) inGroup * ncpu / Math.max(1, groupTotal.get(j.groupId())));
        } else if (j.cpusAllowedPolicy() == CpusAllowedPolicy.SPLIT) {
          start = j.cpusAllowed().cpuForClone(k);
          cpus = new int[] {start};
        } else {
          start = allowed[k % allowed.length];
        }
        plans.add(plan(j, index, cpus, start));
        index++;
      }
    }
    refuseRunsPastTheCap(plans);
    return plans;
  }

  /**
   * A run may plan at most {@link MachineRun#MAX_SIMULATED_NANOS} of simulated time ({@code
   * runtime=1000000h} ran silently for minutes on its way to 114 years); blamed on the job that
   * plans the longest.
   */
  private void refuseRunsPastTheCap(List<JobPlan> plans) {
    long planned = MachineRun.plannedNanos(plans);
    if (planned <= MachineRun.MAX_SIMULATED_NANOS) {
      return;
    }
    JobSpec longest = file.jobs().get(0);
    for (JobSpec j : file.jobs()) {
      if (ends(j) > ends(longest)) {
        longest = j;
      }
    }
    throw new FioParseException(
        file.source(),
        longest.line(),
        "job "
            + longest.name()
            + ": runtime="
            + MachineRun.duration(longest.runtimeNs())
            + (longest.rampTimeNs() + longest.startDelayNs() > 0
                ? " (with ramp_time and startdelay)"
                : "")
            + ": the run would simulate "
            + MachineRun.duration(planned)
            + ", more than the cap of "
            + MachineRun.duration(MachineRun.MAX_SIMULATED_NANOS)
            + " per run (the stonewall groups' longest startdelay + ramp_time + runtime, added up;"
            + " see docs/fio-jobs.md)");
  }

  private static long ends(JobSpec j) {
    long t = j.startDelayNs() + j.rampTimeNs();
    return t < 0 || j.runtimeNs() > Long.MAX_VALUE - t ? Long.MAX_VALUE : t + j.runtimeNs();
  }

  /**
   * Options fio accepts that the machine has no model for: refused rather than run as if absent.
   * (The parser keeps them, since fio's JSON reports them and the cluster's real-time load can use
   * the file as written.)
   */
  private void refuseWhatIsNotModelled(JobSpec j) {
    if (j.fsyncEvery() > 0) {
      throw new FioParseException(
          file.source(),
          j.line(),
          "job "
              + j.name()
              + ": fsync="
              + j.fsyncEvery()
              + " is not modelled (the machine issues no flush requests); remove it");
    }
    if (j.nrfiles() > 1) {
      throw new FioParseException(
          file.source(),
          j.line(),
          "job "
              + j.name()
              + ": nrfiles="
              + j.nrfiles()
              + " is not modelled (each job clone has one file); remove it or use numjobs");
    }
    if (j.verify().enabled()) {
      throw new FioParseException(
          file.source(),
          j.line(),
          "job "
              + j.name()
              + ": verify="
              + j.verify().kind().fioName()
              + " is not supported in the model (its requests carry no data); "
              + "mqroute load verifies through a cluster");
    }
    boolean directSet =
        j.explicitOptions().containsKey("direct") || file.globalOptions().containsKey("direct");
    if (directSet && !j.direct()) {
      throw new FioParseException(
          file.source(),
          j.line(),
          "job "
              + j.name()
              + ": direct=0 (buffered I/O through "
              + "the page cache) is not modelled: every request reaches a queue, as with direct=1");
    }
  }

  private JobPlan plan(JobSpec j, int index, int[] cpus, int start) {
    long region = j.ioRegionBytes();
    return new JobPlan(
        index,
        j.name(),
        j.groupId(),
        cpus,
        start,
        j.inFlight(),
        j.isForeground(),
        j.readFraction(),
        j.isRandom(),
        (int) j.blockSize(Direction.READ),
        (int) j.blockSize(Direction.WRITE),
        region,
        index,
        j.offset(),
        j.runtimeNs(),
        j.rampTimeNs(),
        j.timeBased(),
        j.rateIops(Direction.READ),
        j.rateIops(Direction.WRITE),
        j.rateProcess() == RateProcess.POISSON,
        j.loops(),
        j.startDelayNs(),
        j.think());
  }

  @Override
  public JobStats newStats(JobPlan plan) {
    int n = 0;
    for (JobSpec j : file.jobs()) {
      if (plan.index() < n + j.numjobs()) {
        return new JobStats(j.jobInfo(plan.index() + 1));
      }
      n += j.numjobs();
    }
    throw new IllegalArgumentException("no job clone " + plan.index());
  }

  @Override
  public Map<String, String> globalOptions() {
    return file.globalOptions();
  }
}
