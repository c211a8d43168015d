package io.mqroute.cli;

import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MachineSpec;
import io.mqroute.actors.machine.MachineSpecParser;
import io.mqroute.config.StrictConfig;
import io.mqroute.metrics.Direction;
import io.mqroute.metrics.JobInfo;
import io.mqroute.metrics.JobStats;
import io.mqroute.metrics.LatencyStat;
import io.mqroute.runtime.NanoClock;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
      long timers,
      long cpuNanos) {
    public double requestsPerWallSecond() {
      return requests / (wallNanos / 1e9);
    }

    /**
     * Simulated requests per second of the driver thread's CPU time: what a busy machine (another
     * process on the same cores) disturbs less than the wall-clock rate.
     */
    public double requestsPerCpuSecond() {
      return cpuNanos <= 0 ? 0 : requests / (cpuNanos / 1e9);
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
          JobPlan.of(
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
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpu0 = threads.isCurrentThreadCpuTimeSupported() ? threads.getCurrentThreadCpuTime() : -1;
    long t0 = NanoClock.SYSTEM.nanoTime();
    MachineRun.Outcome o = once(spec, requests);
    long wall = NanoClock.SYSTEM.nanoTime() - t0;
    long cpu = cpu0 < 0 ? 0 : threads.getCurrentThreadCpuTime() - cpu0;
    long done = completed(o.result());
    System.gc();
    long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    return new Result(
        done,
        wall,
        o.result().endNanos(),
        heap,
        o.stats().tasksRun(),
        o.stats().timersFired(),
        cpu);
  }

  /**
   * The same machine and behaviours on real dispatchers with microsecond timers ({@link
   * MachineRun#runRealTime}): how much of the modelled machine's throughput the actors sustain when
   * every CPU cost and device time is waited for on the wall clock.
   *
   * @param requests completed requests
   * @param wallNanos wall time of the real-time run
   * @param meanLatencyNanos mean submit-to-reap latency of the real-time run
   * @param modelRequestsPerSecond the same requests in virtual time, per virtual second: what the
   *     modelled machine would do
   */
  public record RealTimeResult(
      long requests, long wallNanos, double meanLatencyNanos, double modelRequestsPerSecond) {
    public double requestsPerWallSecond() {
      return requests / (wallNanos / 1e9);
    }

    /** 1.0 when real time keeps up with the model. */
    public double keptUp() {
      return requestsPerWallSecond() / modelRequestsPerSecond;
    }
  }

  /**
   * @param warmupRequests requests of an unmeasured real-time run first (0 for none)
   * @param timeout wall-clock bound of each real-time run
   */
  public static RealTimeResult runRealTime(
      long requests, long warmupRequests, Duration timeout, Consumer<String> log) {
    MachineSpec spec = referenceMachine();
    log.accept("model: " + requests + " requests in virtual time");
    MachineResult model = once(spec, requests).result();
    double modelRate = completed(model) / (model.endNanos() / 1e9);
    if (warmupRequests > 0) {
      log.accept("warm-up: " + warmupRequests + " requests in real time");
      realTime(spec, warmupRequests, timeout);
    }
    log.accept("measured: " + requests + " requests in real time");
    long t0 = NanoClock.SYSTEM.nanoTime();
    MachineResult r = realTime(spec, requests, timeout);
    long wall = NanoClock.SYSTEM.nanoTime() - t0;
    double latencySum = 0;
    long count = 0;
    for (JobStats s : r.jobs()) {
      LatencyStat lat = s.direction(Direction.READ).lat();
      latencySum += lat.mean() * lat.count();
      count += lat.count();
    }
    return new RealTimeResult(completed(r), wall, count == 0 ? 0 : latencySum / count, modelRate);
  }

  private static MachineResult realTime(MachineSpec spec, long requests, Duration timeout) {
    return healthy(
        "real-time benchmark run",
        MachineRun.runRealTime(
            "bench-rt",
            spec,
            referenceJobs(requests),
            i -> new JobStats(JobInfo.named("bench")),
            1,
            null,
            timeout));
  }

  private static MachineResult healthy(String run, MachineResult r) {
    if (!r.healthy()) {
      throw new IllegalStateException(
          run + " broke an invariant: " + r.violations() + " " + r.stall());
    }
    return r;
  }

  private static long completed(MachineResult r) {
    return r.jobs().stream().mapToLong(s -> s.direction(Direction.READ).totalIos()).sum();
  }

  /**
   * The messages of {@code requests} requests on the reference machine, counted by kind, with the
   * driver's events: run-queue tasks and timers (a timer's event includes the mailbox run it starts
   * when it is the only thing due, {@code deliveredRuns}). Deterministic, so a test can pin them.
   */
  public record Census(
      long requests, long tasks, long timers, long deliveredRuns, Map<String, Long> messages) {
    public double perRequest(long count) {
      return count / (double) requests;
    }

    public long totalMessages() {
      return messages.values().stream().mapToLong(Long::longValue).sum();
    }

    /** One line per kind of message, most frequent first, per request. */
    public String render() {
      StringBuilder sb = new StringBuilder();
      sb.append(
          String.format(
              Locale.ROOT,
              "requests: %d (%d run-queue tasks, %d timers, %d messages); per request: %.2f"
                  + " events = %.2f run-queue tasks + %.2f timers (%.2f of them with the mailbox"
                  + " run they start), %.2f mailbox runs, %.2f messages%n",
              requests,
              tasks,
              timers,
              totalMessages(),
              perRequest(tasks + timers),
              perRequest(tasks),
              perRequest(timers),
              perRequest(deliveredRuns),
              perRequest(tasks + deliveredRuns),
              perRequest(totalMessages())));
      messages.entrySet().stream()
          .sorted(
              Map.Entry.<String, Long>comparingByValue()
                  .reversed()
                  .thenComparing(Map.Entry.comparingByKey()))
          .forEach(
              e ->
                  sb.append(
                      String.format(
                          Locale.ROOT, "%8.3f  %s%n", perRequest(e.getValue()), e.getKey())));
      return sb.toString();
    }
  }

  /** The census of one run of {@code requests} requests (no warm-up: it counts, not times). */
  public static Census census(long requests) {
    MachineRun.Outcome o =
        MachineRun.runWithCensus(
            "bench-census",
            referenceMachine(),
            referenceJobs(requests),
            i -> new JobStats(JobInfo.named("bench")),
            1);
    long done = completed(o.result());
    return new Census(
        done, o.stats().tasksRun(), o.stats().timersFired(), o.stats().deliveredRuns(), o.census());
  }

  private static MachineRun.Outcome once(MachineSpec spec, long requests) {
    MachineRun.Outcome o =
        MachineRun.run(
            "bench", spec, referenceJobs(requests), i -> new JobStats(JobInfo.named("bench")), 1);
    healthy("benchmark run", o.result());
    return o;
  }
}
