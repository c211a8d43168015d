package io.mqroute.experiment;

import io.mqroute.actors.machine.JobPlan;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MemoryEstimate;
import io.mqroute.config.ConfigError;
import io.mqroute.metrics.Digest;
import io.mqroute.runtime.NanoClock;
import io.mqroute.runtime.RunPool;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.stream.Collectors;

/**
 * Runs every variant at every sweep point, each replication in its own virtual-time ActorSystem
 * driven by its own thread, so {@code parallel} of them run at once and the results are the same as
 * one at a time. Replication {@code r} uses seed {@code seed + r}; all variants share those seeds,
 * so they are compared on the same arrivals and service times (common random numbers).
 */
public final class ExperimentRunner {
  private ExperimentRunner() {}

  /**
   * Told about each run while it runs, so that a long one is not silent: {@link #started} once,
   * from the run's thread, and what it returns every few thousand tasks of the run with the virtual
   * time reached (it must be quick).
   */
  public interface Watcher {
    Watcher NONE = (variant, seed, plannedNanos) -> virtualNanos -> {};

    /**
     * @param plannedNanos the simulated time the run plans ({@link MachineRun#plannedNanos}), -1 if
     *     its jobs are size-based
     */
    LongConsumer started(Variant variant, long seed, long plannedNanos);
  }

  /**
   * @param parallel how many runs go at the same time (≥ 1)
   * @param progress told about each finished variant (from the runner threads)
   */
  public static ExperimentResult run(
      ExperimentSpec spec, int parallel, Consumer<VariantResult> progress) {
    return run(spec, parallel, progress, Watcher.NONE);
  }

  /**
   * @param parallel how many runs go at the same time (≥ 1)
   * @param progress told about each finished variant (from the runner threads)
   * @param watcher told about each run while it runs
   * @throws MachineRun.NoResult if a run ended without a result (a livelock, the cap of simulated
   *     time)
   */
  public static ExperimentResult run(
      ExperimentSpec spec, int parallel, Consumer<VariantResult> progress, Watcher watcher) {
    if (parallel < 1) {
      throw new IllegalArgumentException("parallel must be >= 1, was " + parallel);
    }
    int runs = spec.variants().size() * spec.replications();
    try (RunPool pool = new RunPool(Math.min(parallel, runs), "mqroute-run")) {
      List<List<Future<Run>>> futures = new ArrayList<>();
      for (Variant v : spec.variants()) {
        List<Future<Run>> reps = new ArrayList<>();
        for (int r = 0; r < spec.replications(); r++) {
          long seed = spec.seed() + r;
          reps.add(pool.submit(() -> runOne(spec, v, seed, watcher)));
        }
        futures.add(reps);
      }
      List<VariantResult> done = new ArrayList<>();
      for (int i = 0; i < futures.size(); i++) {
        List<Run> reps = new ArrayList<>();
        for (Future<Run> f : futures.get(i)) {
          reps.add(RunPool.join(f));
        }
        VariantResult vr = combine(spec.variants().get(i), reps);
        progress.accept(vr);
        done.add(vr);
      }
      return assemble(spec, done);
    }
  }

  /**
   * The experiment's result from every run, wherever they ran: {@code runs.get(v).get(r)} is
   * variant {@code v}'s replication {@code r} (seed {@code spec.seed() + r}). Runs are
   * deterministic, so a sweep spread over a cluster gives the same result as one run here.
   *
   * @param progress told about each variant, in order
   */
  public static ExperimentResult assemble(
      ExperimentSpec spec, List<List<Run>> runs, Consumer<VariantResult> progress) {
    if (runs.size() != spec.variants().size()) {
      throw new IllegalArgumentException(
          runs.size() + " variants of runs for " + spec.variants().size() + " variants");
    }
    List<VariantResult> results = new ArrayList<>();
    for (int i = 0; i < runs.size(); i++) {
      VariantResult vr = combine(spec.variants().get(i), runs.get(i));
      progress.accept(vr);
      results.add(vr);
    }
    return assemble(spec, results);
  }

  private static ExperimentResult assemble(ExperimentSpec spec, List<VariantResult> results) {
    List<Expectation.Verdict> verdicts =
        spec.expectations().stream()
            .map(e -> e.evaluate((metric, ref) -> value(results, metric, ref)))
            .toList();
    Digest d =
        Digest.create()
            .putString("mqroute.experiment.v1")
            .putString(spec.name())
            .putLong(spec.seed())
            .putInt(spec.replications());
    results.forEach(r -> d.putString(r.variant().id()).putString(r.digest()));
    return new ExperimentResult(spec, List.copyOf(results), verdicts, d.hex());
  }

  /**
   * How many of {@code spec}'s runs may go at once, at most {@code wanted}, within {@code budget}
   * bytes of heap ({@link MemoryEstimate}): every finished run keeps its result (the jobs' latency
   * histograms) until the experiment ends, and each running one needs its machine besides.
   *
   * @throws ConfigError if the results alone, with one run going, do not fit
   */
  public static int parallelismWithin(ExperimentSpec spec, int wanted, long budget) {
    long results = 0;
    long extra = 1;
    int runs = spec.variants().size() * spec.replications();
    for (Variant v : spec.variants()) {
      MemoryEstimate m = MemoryEstimate.of(v.machine(), v.workload().plans(v.machine()));
      results = saturatedAdd(results, saturatedMultiply(m.resultBytes(), spec.replications()));
      extra = Math.max(extra, m.runBytes() - m.resultBytes());
    }
    if (saturatedAdd(results, extra) > budget) {
      throw new ConfigError(
          spec.file()
              + ": the results of its "
              + runs
              + " runs (variants x sweep points x replications) keep about "
              + MemoryEstimate.bytes(results)
              + " of latency histograms until the end, and a run needs up to "
              + MemoryEstimate.bytes(extra)
              + " more: more than the "
              + MemoryEstimate.bytes(budget)
              + " this JVM can spare; run fewer of them (or fewer job clones), or give Java more"
              + " memory (-Xmx, MQROUTE_JAVA_OPTS)");
    }
    return (int) Math.max(1, Math.min(wanted, (budget - results) / extra));
  }

  private static long saturatedAdd(long a, long b) {
    return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
  }

  private static long saturatedMultiply(long a, long b) {
    return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
  }

  /**
   * One finished run: what {@link #assemble} needs of it.
   *
   * @param wallNanos wall-clock time of the run (reported, never part of a digest)
   */
  public record Run(MachineRun.Outcome outcome, long wallNanos) {}

  /**
   * Runs variant {@code variant}'s replication {@code replication} of {@code spec} (seed {@code
   * spec.seed() + replication}), in this thread.
   *
   * @throws MachineRun.NoResult if the run ended without a result
   */
  public static Run runOne(ExperimentSpec spec, int variant, int replication, Watcher watcher) {
    return runOne(spec, spec.variants().get(variant), spec.seed() + replication, watcher);
  }

  private static Run runOne(ExperimentSpec spec, Variant v, long seed, Watcher watcher) {
    List<JobPlan> plans = v.workload().plans(v.machine());
    long t0 = NanoClock.SYSTEM.nanoTime(); // wall time of the whole run, outside every behaviour
    MachineRun.Outcome o =
        MachineRun.run(
            systemName(spec.name() + "-" + v.name()),
            v.machine(),
            plans,
            i -> v.workload().newStats(plans.get(i)),
            seed,
            null,
            watcher.started(v, seed, MachineRun.plannedNanos(plans)));
    return new Run(o, NanoClock.SYSTEM.nanoTime() - t0);
  }

  private static VariantResult combine(Variant v, List<Run> reps) {
    Digest d = Digest.create().putString("mqroute.variant.v2");
    List<Summary> summaries = new ArrayList<>();
    List<MachineResult> all = new ArrayList<>();
    long wall = 0;
    for (Run r : reps) {
      d.putString(r.outcome().result().digest());
      summaries.add(Summary.of(r.outcome().result().jobs()));
      all.add(r.outcome().result());
      wall += r.wallNanos();
    }
    Run first = reps.get(0);
    return new VariantResult(
        v,
        first.outcome().result(),
        first.outcome().stats(),
        d.hex(),
        wall,
        List.copyOf(summaries),
        List.copyOf(all));
  }

  /** The value of {@code metric} for a reference, averaged over replications. */
  static double value(List<VariantResult> results, String metric, Expectation.Ref ref) {
    for (VariantResult r : results) {
      if (r.variant().name().equals(ref.variant()) && matches(r.variant().point(), ref.point())) {
        if (metric.equals("stalled")) {
          return r.stalled() ? 1 : 0;
        }
        return r.aggregate(s -> Expectation.metric(metric, s, false)).mean();
      }
    }
    throw new IllegalArgumentException("no run matches " + ref.variant() + " at " + ref.point());
  }

  static boolean matches(Map<String, String> point, Map<String, String> wanted) {
    for (Map.Entry<String, String> e : wanted.entrySet()) {
      String v = point.get(e.getKey());
      if (v == null) {
        v =
            point.entrySet().stream()
                .filter(p -> Variant.shortKey(p.getKey()).equals(e.getKey()))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(null);
      }
      if (!e.getValue().equals(v)) {
        return false;
      }
    }
    return true;
  }

  static String systemName(String s) {
    String n =
        s.chars()
            .map(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_' ? c : '-')
            .mapToObj(c -> String.valueOf((char) c))
            .collect(Collectors.joining());
    return n.isEmpty() || !Character.isLetterOrDigit(n.charAt(0)) ? "x" + n : n;
  }
}
