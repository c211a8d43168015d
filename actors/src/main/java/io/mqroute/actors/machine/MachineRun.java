package io.mqroute.actors.machine;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.metrics.JobStats;
import io.mqroute.runtime.ClockMode;
import io.mqroute.runtime.MailboxHighWater;
import io.mqroute.runtime.NanoClock;
import io.mqroute.runtime.RunStats;
import io.mqroute.runtime.SimDispatcher;
import io.mqroute.runtime.SimSystem;
import java.time.Duration;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import java.util.function.LongConsumer;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/** Runs one machine in deterministic virtual time, on the calling thread. */
public final class MachineRun {
  /**
   * The most simulated time one run may plan (the sum over its stonewall groups of the longest
   * startdelay + ramp_time + runtime): one hour, 180 times the longest shipped experiment (seed
   * 004, 20 s) and 120 times generic-650 (10 x 3 s), and the longest latency a job's histograms
   * track. Longer runs are refused before they start (docs/fio-jobs.md); size-based jobs, which
   * have no planned end, are stopped there.
   */
  public static final long MAX_SIMULATED_NANOS = 3_600L * 1_000_000_000L;

  /**
   * A stretch of simulated time for messages: {@code 1h}, {@code 2.00h}, {@code 20s}, {@code
   * 0.220s}.
   */
  public static String duration(long nanos) {
    long hour = 3_600L * 1_000_000_000L;
    if (nanos >= hour) {
      return nanos % hour == 0
          ? nanos / hour + "h"
          : String.format(Locale.ROOT, "%.2fh", nanos / (double) hour);
    }
    return nanos % 1_000_000_000L == 0
        ? nanos / 1_000_000_000L + "s"
        : String.format(Locale.ROOT, "%.3fs", nanos / 1e9);
  }

  /** Why a run ended without a result, and how far it got. */
  public static final class NoResult extends IllegalStateException {
    private final RunStats.StopReason reason;

    NoResult(String message, RunStats.StopReason reason) {
      super(message);
      this.reason = reason;
    }

    /**
     * {@code HORIZON}: still running at the cap of simulated time; {@code LIVELOCK}, {@code IDLE}:
     * the model stopped moving.
     */
    public RunStats.StopReason reason() {
      return reason;
    }
  }

  private MachineRun() {}

  /**
   * @param name names the ActorSystem (letters, digits, '-' and '_')
   * @return the result, and the driver's statistics
   * @throws IllegalStateException if the run ended without a result (horizon reached) — a model
   *     bug, since the stall limit should have ended it
   */
  public static Outcome run(
      String name, MachineSpec spec, List<JobPlan> plans, IntFunction<JobStats> stats, long seed) {
    return run(name, spec, plans, stats, seed, null, virtualNanos -> {});
  }

  /**
   * @param perturbation acts on the machine during the run (see {@link Machine#create}), or null
   * @param progress told the virtual time the run has reached, from the driver thread, every few
   *     thousand tasks (it must be quick and must not touch the model)
   * @throws NoResult if the run ended without a result
   */
  public static Outcome run(
      String name,
      MachineSpec spec,
      List<JobPlan> plans,
      IntFunction<JobStats> stats,
      long seed,
      Perturbation perturbation,
      LongConsumer progress) {
    return run(name, spec, plans, stats, seed, perturbation, progress, false, false);
  }

  /**
   * As {@link #run(String, MachineSpec, List, IntFunction, long)}, with a census of every message
   * sent during the run ({@link Outcome#census()}): the hops of the request path, deterministic.
   */
  public static Outcome runWithCensus(
      String name, MachineSpec spec, List<JobPlan> plans, IntFunction<JobStats> stats, long seed) {
    return run(name, spec, plans, stats, seed, null, virtualNanos -> {}, true, false);
  }

  /**
   * As {@link #run(String, MachineSpec, List, IntFunction, long)}, with every actor's mailbox
   * measured ({@link Outcome#mailboxes()}: the most messages each held at once). For tests: it
   * costs two atomic operations per message and the digest does not depend on it.
   */
  public static Outcome runMeasuringMailboxes(
      String name, MachineSpec spec, List<JobPlan> plans, IntFunction<JobStats> stats, long seed) {
    return run(name, spec, plans, stats, seed, null, virtualNanos -> {}, false, true);
  }

  private static Outcome run(
      String name,
      MachineSpec spec,
      List<JobPlan> plans,
      IntFunction<JobStats> stats,
      long seed,
      Perturbation perturbation,
      LongConsumer progress,
      boolean census,
      boolean measureMailboxes) {
    long horizon = horizon(spec, plans);
    Config extra =
        ConfigFactory.parseString(
            "pekko.loglevel = WARNING\npekko.log-dead-letters = off\n"
                + "pekko.log-dead-letters-during-shutdown = off\n"
                + MailboxHighWater.KEY
                + " = "
                + measureMailboxes);
    CompletableFuture<MachineResult> result = new CompletableFuture<>();
    RunStats runStats;
    Map<String, Long> counted;
    Map<String, Integer> mailboxes;
    // SimSystem.run, with the progress hook in the driver's done-check
    try (SimSystem<MachineProtocol.Command> sim =
        SimSystem.start(
            name, extra, Machine.create(spec, plans, stats, seed, result, perturbation))) {
      NanoClock clock = sim.clock();
      if (census) {
        sim.driver().startCensus();
      }
      runStats =
          sim.runUntil(
              horizon,
              () -> {
                progress.accept(clock.nanoTime());
                return result.isDone();
              });
      counted = sim.driver().census();
      mailboxes = MailboxHighWater.of(sim.system());
    }
    MachineResult r = result.getNow(null);
    if (r == null) {
      RunStats.StopReason reason = runStats.stopReason();
      throw new NoResult(
          "run "
              + name
              + switch (reason) {
                case LIVELOCK ->
                    " stopped: a livelock (messages kept passing without virtual time moving;"
                        + " do requests take no time at all, with zero CPU costs and a zero-latency"
                        + " device?)";
                case IDLE -> " went idle without finishing (nothing left to happen)";
                default ->
                    plannedNanos(plans) < 0
                        ? " was still running after "
                            + duration(horizon)
                            + " of simulated time, past the cap of "
                            + duration(MAX_SIMULATED_NANOS)
                            + " per run: its size-based jobs (no runtime=) did not finish;"
                            + " give them a runtime= or a smaller size="
                        : " reached its virtual horizon of "
                            + horizon
                            + " ns without finishing ("
                            + reason
                            + ")";
              },
          reason);
    }
    return new Outcome(r, runStats, counted, mailboxes);
  }

  /**
   * The simulated time {@code plans} plan: over the stonewall groups (which run one after another)
   * the longest startdelay + ramp_time + runtime of each; -1 if a job is size-based (no runtime).
   */
  public static long plannedNanos(List<JobPlan> plans) {
    Map<Integer, Long> perGroup = new TreeMap<>();
    Map<Integer, JobPlan> byIndex = new HashMap<>();
    for (JobPlan p : plans) {
      if (p.runtimeNanos() == 0) {
        return -1;
      }
      byIndex.put(p.index(), p);
    }
    Map<JobPlan, Long> ends = new IdentityHashMap<>();
    for (JobPlan p : plans) {
      perGroup.merge(p.group(), plannedEnd(byIndex, p, ends, 0), Math::max);
    }
    long total = 0;
    for (long g : perGroup.values()) {
      total = saturatedAdd(total, g);
    }
    return total;
  }

  /**
   * When a job ends after its group starts: its own startdelay + ramp_time + runtime, after the
   * latest of the jobs it waits for (wait_for runs them one after another within the group).
   */
  private static long plannedEnd(
      Map<Integer, JobPlan> byIndex, JobPlan p, Map<JobPlan, Long> ends, int depth) {
    Long known = ends.get(p);
    if (known != null) {
      return known;
    }
    if (depth > byIndex.size()) {
      throw new IllegalArgumentException("wait_for forms a cycle at job " + p.index());
    }
    long after = 0;
    for (int w : p.control().waitFor()) {
      JobPlan waitee = byIndex.get(w);
      if (waitee != null) {
        after = Math.max(after, plannedEnd(byIndex, waitee, ends, depth + 1));
      }
    }
    long own = saturatedAdd(p.startDelayNanos(), saturatedAdd(p.rampNanos(), p.runtimeNanos()));
    long end = saturatedAdd(after, own);
    ends.put(p, end);
    return end;
  }

  private static long saturatedAdd(long a, long b) {
    return a > Long.MAX_VALUE - b ? Long.MAX_VALUE : a + b;
  }

  /**
   * Runs the same machine in real time ({@link ClockMode#REAL_PRECISE}: µs timers, fork-join
   * dispatcher): the behaviours are identical, only the configuration differs. Bounded by {@code
   * wallTimeout}.
   *
   * @param perturbation acts on the machine on the real clock (the chaos controller), or null
   * @throws IllegalStateException if the run does not finish in time
   */
  public static MachineResult runRealTime(
      String name,
      MachineSpec spec,
      List<JobPlan> plans,
      IntFunction<JobStats> stats,
      long seed,
      Perturbation perturbation,
      Duration wallTimeout) {
    return runRealTime(name, spec, plans, stats, seed, perturbation, wallTimeout, false).result();
  }

  /**
   * As {@link #runRealTime(String, MachineSpec, List, IntFunction, long, Perturbation, Duration)},
   * with every actor's mailbox measured (as {@link #runMeasuringMailboxes} does in virtual time).
   */
  public static RealTimeOutcome runRealTimeMeasuringMailboxes(
      String name,
      MachineSpec spec,
      List<JobPlan> plans,
      IntFunction<JobStats> stats,
      long seed,
      Duration wallTimeout) {
    return runRealTime(name, spec, plans, stats, seed, null, wallTimeout, true);
  }

  private static RealTimeOutcome runRealTime(
      String name,
      MachineSpec spec,
      List<JobPlan> plans,
      IntFunction<JobStats> stats,
      long seed,
      Perturbation perturbation,
      Duration wallTimeout,
      boolean measureMailboxes) {
    Config config =
        ClockMode.REAL_PRECISE.config(
            ConfigFactory.parseString(
                    "pekko.loglevel = WARNING\npekko.log-dead-letters = off\n"
                        + MailboxHighWater.KEY
                        + " = "
                        + measureMailboxes)
                .withFallback(ConfigFactory.load()));
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), name, config);
    try {
      CompletableFuture<MachineResult> result = new CompletableFuture<>();
      system.systemActorOf(
          Machine.create(spec, plans, stats, seed, result, perturbation),
          "machine",
          SimDispatcher.selector());
      MachineResult r = result.get(wallTimeout.toMillis(), TimeUnit.MILLISECONDS);
      return new RealTimeOutcome(r, MailboxHighWater.of(system));
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "real-time run " + name + " did not finish within " + wallTimeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } finally {
      system.terminate();
      system.getWhenTerminated().toCompletableFuture().orTimeout(30, TimeUnit.SECONDS).join();
    }
  }

  /**
   * Where the driver stops a run that has not finished: well past its planned end (a stall ends a
   * hung run at the stall limit); size-based jobs have no planned end and stop at {@link
   * #MAX_SIMULATED_NANOS}.
   */
  static long horizon(MachineSpec spec, List<JobPlan> plans) {
    long planned = plannedNanos(plans);
    long slack = saturatedAdd(saturatedMultiply(10, spec.stallLimitNanos()), 60_000_000_000L);
    return planned < 0
        ? saturatedAdd(MAX_SIMULATED_NANOS, slack)
        : saturatedAdd(saturatedMultiply(2, planned), slack);
  }

  private static long saturatedMultiply(long a, long b) {
    return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
  }

  /**
   * A finished run.
   *
   * @param census messages sent during the run by label ({@link #runWithCensus}); empty otherwise
   * @param mailboxes the most messages each actor's mailbox held at once, by actor path ({@link
   *     #runMeasuringMailboxes}); empty otherwise
   */
  public record Outcome(
      MachineResult result,
      RunStats stats,
      Map<String, Long> census,
      Map<String, Integer> mailboxes) {}

  /**
   * A finished real-time run.
   *
   * @param mailboxes as {@link Outcome#mailboxes()}: empty unless measured
   */
  public record RealTimeOutcome(MachineResult result, Map<String, Integer> mailboxes) {}
}
