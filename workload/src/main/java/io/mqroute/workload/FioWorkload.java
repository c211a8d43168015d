package io.mqroute.workload;

import io.mqroute.actors.device.Device;
import io.mqroute.actors.machine.IoCalls;
import io.mqroute.actors.machine.IoPattern;
import io.mqroute.actors.machine.JobControl;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.Workload;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobStats;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.protocol.Op;
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

  /**
   * The job file with {@code overrides}, on a device of {@code deviceBytes}: what jobs without
   * {@code size=} do I/O to (fio uses the whole file or device), and what {@code size=N%} and
   * {@code fill_device} refer to.
   */
  public static FioWorkload parse(
      String text, String source, Map<String, String> overrides, long deviceBytes) {
    return new FioWorkload(FioJobParser.parse(source, text, overrides, deviceBytes));
  }

  /**
   * The device size a job without {@code size=} uses unless the experiment says otherwise: 1 TiB,
   * the capacity class of the data-centre NVMe drives fio's example jobs are written for (their
   * {@code size=} values run to 100g and 999G).
   */
  public static final long DEFAULT_DEVICE_BYTES = 1L << 40;

  /**
   * A device size in fio's units ({@code 1t}, {@code 500g}, {@code 100GiB}; kb_base 1024).
   *
   * @throws IllegalArgumentException naming what a size looks like
   */
  public static long deviceBytes(String raw) {
    try {
      FioValues.SizeValue v = FioValues.positiveSize(raw.trim());
      if (v.isPercent() || v.isZones()) {
        throw new IllegalArgumentException("expected a size like 1t or 500g, got \"" + raw + "\"");
      }
      return v.bytes(1024);
    } catch (FioValues.BadValue | ArithmeticException e) {
      throw new IllegalArgumentException("expected a size like 1t or 500g, got \"" + raw + "\"");
    }
  }

  /** The notes of the parse (options with no effect in the model, capped depths), one a line. */
  public List<String> notes() {
    return file.warnings();
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
    List<JobPlan> plans = plans(machine.topology());
    Device device = null;
    for (JobSpec j : file.jobs()) {
      IoCalls calls = j.ioengine().calls();
      if (calls == IoCalls.DATA) {
        continue;
      }
      device = device != null ? device : machine.device().get();
      for (Op op : calls.ops()) {
        if (!device.serves(op)) {
          throw jobError(
              j,
              "ioengine="
                  + j.ioengine().fioName()
                  + " sends FUSE "
                  + op
                  + " requests, which device "
                  + machine.deviceSpec()
                  + " does not model (it serves reads and writes); use a latency device");
        }
      }
    }
    return plans;
  }

  /** The job clones' plans on a machine of {@code topology} (its CPUs for cpus_allowed). */
  public List<JobPlan> plans(CpuTopology topology) {
    int ncpu = topology.cpuCount();
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
    // wait_for names a job: every clone of every job of that name
    Map<String, List<Integer>> clonesByName = new HashMap<>();
    int first = 0;
    for (JobSpec j : file.jobs()) {
      for (int k = 0; k < j.numjobs(); k++) {
        clonesByName.computeIfAbsent(j.name(), n -> new ArrayList<>()).add(first + k);
      }
      first += j.numjobs();
    }
    // fio's exitall sets a global (str_exitall_cb): written in any job, every job's end applies it
    boolean exitAll = file.jobs().stream().anyMatch(j -> j.control().exitAll());
    int index = 0;
    for (JobSpec j : file.jobs()) {
      refuseWhatIsNotModelled(j);
      int[] allowed =
          j.cpusAllowed().isAll()
              ? IntStream.range(0, ncpu).toArray()
              : j.cpusAllowed().cpus().stream().mapToInt(Integer::intValue).toArray();
      if (!j.numaCpuNodes().isAll()) { // fio's numa_cpu_nodes: the CPUs of those nodes
        int nodes = topology.nodeCount();
        for (int node : j.numaCpuNodes().cpus()) {
          if (node >= nodes) {
            throw jobError(
                j,
                "numa_cpu_nodes names node "
                    + node
                    + " but the machine has nodes 0-"
                    + (nodes - 1));
          }
        }
        allowed =
            IntStream.of(allowed)
                .filter(c -> j.numaCpuNodes().cpus().contains(topology.cpuToNode(c)))
                .toArray();
        if (allowed.length == 0) {
          throw jobError(j, "no CPU of cpus_allowed is on the numa_cpu_nodes");
        }
      }
      for (int c : allowed) {
        if (c >= ncpu) {
          throw jobError(
              j, "cpus_allowed names CPU " + c + " but the machine has CPUs 0-" + (ncpu - 1));
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
        plans.add(plan(j, index, k, cpus, start, control(j, clonesByName, exitAll)));
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
    throw jobError(
        longest,
        "runtime="
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
    long zone = j.pattern().zoneBytes();
    if (zone > 0 && j.pattern().files() > 1) {
      throw jobError(j, "zonemode=zbd with nrfiles > 1 is not modelled (one zoned file)");
    }
    IoPattern.Stride stride = j.pattern().stride();
    if (stride != null
        && Math.min(stride.rangeBytes(), j.ioRegionBytes())
            < Math.max(j.blockSize(Direction.READ), j.blockSize(Direction.WRITE))) {
      throw jobError(
          j, "zonemode=strided with a " + stride.rangeBytes() + "-byte zonerange holds no block");
    }
    if (zone > 0 && j.ioRegionBytes() < zone) {
      throw jobError(
          j,
          "zonemode=zbd with "
              + zone
              + "-byte zones needs a region of at least one zone, it has "
              + j.ioRegionBytes()
              + " bytes");
    }
    if (j.fsyncEvery() > 0) {
      throw jobError(
          j,
          "fsync="
              + j.fsyncEvery()
              + " is not modelled (the machine issues no flush requests); remove it");
    }
  }

  /** A problem of job {@code j}, at its line. */
  private FioParseException jobError(JobSpec j, String problem) {
    return new FioParseException(file.source(), j.line(), "job " + j.name() + ": " + problem);
  }

  /** fio's offset_increment: clone k of a job starts k increments further in. */
  private static long offsetOf(JobSpec j, int clone) {
    long inc = j.offsetIncrement();
    if (inc == 0) {
      return j.offset();
    }
    long extra =
        inc > (Long.MAX_VALUE - j.offset()) / Math.max(1, clone) ? Long.MAX_VALUE : inc * clone;
    return j.offset() + extra;
  }

  private static JobControl control(
      JobSpec j, Map<String, List<Integer>> clonesByName, boolean exitAll) {
    FioJobControl c = j.control();
    int[] waitFor =
        c.waitFor() == null
            ? new int[0]
            : clonesByName.get(c.waitFor()).stream().mapToInt(Integer::intValue).toArray();
    return new JobControl(
        waitFor,
        exitAll ? c.exitWhat() : null,
        c.fioGroup(),
        c.flowId(),
        c.flowWeight(),
        c.flowSleepNs(),
        c.steadyState(),
        j.groupReporting());
  }

  private JobPlan plan(JobSpec j, int index, int clone, int[] cpus, int start, JobControl ctl) {
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
        offsetOf(j, clone),
        j.runtimeNs(),
        j.rampTimeNs(),
        j.timeBased(),
        j.rateIops(Direction.READ),
        j.rateIops(Direction.WRITE),
        j.rateProcess() == RateProcess.POISSON,
        j.loops(),
        j.startDelayNs(),
        j.think(),
        j.pattern(),
        ctl,
        j.ioengine().calls(),
        j.rw().trims(),
        j.ioengine().fioName().equals(IoEngine.IO_URING.fioName()));
  }

  @Override
  public JobStats newStats(JobPlan plan) {
    int n = 0;
    for (JobSpec j : file.jobs()) {
      if (plan.index() < n + j.numjobs()) {
        JobStats stats = new JobStats(j.jobInfo(plan.index() + 1));
        stats.checkMinRate(j.minRateRead(), j.minRateWrite(), j.rateCycleNs());
        return stats;
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
