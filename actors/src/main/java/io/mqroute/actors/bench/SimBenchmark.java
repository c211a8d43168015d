package io.mqroute.actors.bench;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.config.StrictConfig;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.MachineSpecParser;
import io.mqroute.actors.metrics.Direction;
import io.mqroute.actors.metrics.JobInfo;
import io.mqroute.actors.metrics.JobStats;
import io.mqroute.actors.runtime.NanoClock;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * How fast the simulator runs: simulated requests per wall-second on the calling thread, for the
 * reference machine of issue 4 — 24 cores, 24 per-CPU ring queues of 1024 slots, a 40 µs device, 8
 * jobs × iodepth 128, size-based so every run does a fixed number of requests. A warm-up run comes
 * first (JIT).
 */
public final class SimBenchmark {
  /** The reference machine, as an experiment would write it. */
  public static final String REFERENCE_MACHINE =
      "machine { numa-nodes = 2, cores-per-node = 12 }\n"
          + "queues { kind = per-cpu, ring-size = 1024 }\n"
          + "router { selector = static-cpu, max-background = 65535 }\n"
          + "device = \"exponential(40us)\"\n";

  private SimBenchmark() {}

  /**
   * One measured run.
   *
   * @param tasks run-queue tasks the driver executed (mostly mailbox runs: one or more messages to
   *     one actor)
   * @param timers timers fired (CPU work ends, device completions)
   */
  public record Result(
      long requests,
      long wallNanos,
      long virtualNanos,
      long heapAfterGcBytes,
      long tasks,
      long timers) {
    public double requestsPerWallSecond() {
      return requests / (wallNanos / 1e9);
    }

    public double speedUp() {
      return virtualNanos / (double) wallNanos;
    }

    /** Where a request's wall time goes: the runtime's work units per request (deterministic). */
    public double tasksPerRequest() {
      return tasks / (double) requests;
    }

    public double timersPerRequest() {
      return timers / (double) requests;
    }

    /** Wall time per run-queue task, timers included in the task they start. */
    public double wallNanosPerTask() {
      return wallNanos / (double) tasks;
    }
  }

  public static MachineSpec referenceMachine() {
    return MachineSpecParser.parse(
        StrictConfig.of(ConfigFactory.parseString(REFERENCE_MACHINE), "", MachineSpecParser.KEYS),
        Path.of("."));
  }

  /**
   * 8 async jobs (background requests) of iodepth 128 on CPUs 0, 3, 6, ..., {@code requests} in
   * all.
   */
  public static List<JobPlan> referenceJobs(long requests) {
    int jobs = 8;
    int[] all = IntStream.range(0, 24).toArray();
    long perJob = requests / jobs;
    List<JobPlan> plans = new ArrayList<>();
    for (int j = 0; j < jobs; j++) {
      plans.add(
          new JobPlan(
              j,
              "bench",
              0,
              all,
              j * 3,
              128,
              false,
              1.0,
              true,
              4096,
              4096,
              perJob * 4096,
              j,
              0,
              0,
              0,
              false,
              0,
              false));
    }
    return plans;
  }

  /**
   * @param warmupRequests requests of the first, unmeasured run (0 for none)
   * @param log progress lines
   */
  public static Result run(long requests, long warmupRequests, Consumer<String> log) {
    MachineSpec spec = referenceMachine();
    if (warmupRequests > 0) {
      log.accept("warm-up: " + warmupRequests + " requests");
      once(spec, warmupRequests);
    }
    log.accept("measured: " + requests + " requests");
    long t0 = NanoClock.SYSTEM.nanoTime();
    MachineRun.Outcome o = once(spec, requests);
    long wall = NanoClock.SYSTEM.nanoTime() - t0;
    long done =
        o.result().jobs().stream().mapToLong(s -> s.direction(Direction.READ).totalIos()).sum();
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new Result(
        done, wall, o.result().endNanos(), heap, o.stats().tasksRun(), o.stats().timersFired());
  }

  private static MachineRun.Outcome once(MachineSpec spec, long requests) {
    MachineRun.Outcome o =
        MachineRun.run(
            "bench", spec, referenceJobs(requests), i -> new JobStats(JobInfo.named("bench")), 1);
    if (!o.result().healthy()) {
      throw new IllegalStateException(
          "benchmark run broke an invariant: "
              + o.result().violations()
              + " "
              + o.result().stall());
    }
    return o;
  }
}
