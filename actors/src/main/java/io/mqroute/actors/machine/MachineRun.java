package io.mqroute.actors.machine;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.metrics.JobStats;
import io.mqroute.runtime.ClockMode;
import io.mqroute.runtime.RunStats;
import io.mqroute.runtime.SimDispatcher;
import io.mqroute.runtime.SimSystem;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/** Runs one machine in deterministic virtual time, on the calling thread. */
public final class MachineRun {
  /**
   * Size-based jobs have no runtime to bound the run; stall detection ends a hung one long before
   * this.
   */
  static final long SIZE_BASED_HORIZON_NANOS = 24L * 3600 * 1_000_000_000L;

  private MachineRun() {}

  /**
   * @param name names the ActorSystem (letters, digits, '-' and '_')
   * @return the result, and the driver's statistics
   * @throws IllegalStateException if the run ended without a result (horizon reached) — a model
   *     bug, since the stall limit should have ended it
   */
  public static Outcome run(
      String name, MachineSpec spec, List<JobPlan> plans, IntFunction<JobStats> stats, long seed) {
    return run(name, spec, plans, stats, seed, null);
  }

  /**
   * @param perturbation acts on the machine during the run (see {@link Machine#create}), or null
   */
  public static Outcome run(
      String name,
      MachineSpec spec,
      List<JobPlan> plans,
      IntFunction<JobStats> stats,
      long seed,
      Perturbation perturbation) {
    long horizon = horizon(spec, plans);
    Config extra =
        ConfigFactory.parseString(
            "pekko.loglevel = WARNING\npekko.log-dead-letters = off\n"
                + "pekko.log-dead-letters-during-shutdown = off");
    SimSystem.Outcome<MachineResult> o =
        SimSystem.run(
            name,
            extra,
            horizon,
            result -> Machine.create(spec, plans, stats, seed, result, perturbation));
    MachineResult r =
        o.result()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "run "
                            + name
                            + switch (o.stats().stopReason()) {
                              case LIVELOCK ->
                                  " stopped: a livelock (messages kept passing without virtual time moving)";
                              case IDLE -> " went idle without finishing (nothing left to happen)";
                              default ->
                                  " reached its virtual horizon of "
                                      + horizon
                                      + " ns without finishing ("
                                      + o.stats().stopReason()
                                      + ")";
                            }));
    return new Outcome(r, o.stats());
  }

  /**
   * Runs the same machine in real time ({@link ClockMode#REAL_PRECISE}: µs timers, fork-join
   * dispatcher): the behaviours are identical, only the configuration differs. Bounded by {@code
   * wallTimeout}.
   *
   * @throws IllegalStateException if the run does not finish in time
   */
  public static MachineResult runRealTime(
      String name,
      MachineSpec spec,
      List<JobPlan> plans,
      IntFunction<JobStats> stats,
      long seed,
      Duration wallTimeout) {
    Config config =
        ClockMode.REAL_PRECISE
            .config()
            .withFallback(
                ConfigFactory.parseString("pekko.loglevel = WARNING\npekko.log-dead-letters = off"))
            .withFallback(ConfigFactory.load());
    ActorSystem<Void> system = ActorSystem.create(Behaviors.empty(), name, config);
    try {
      CompletableFuture<MachineResult> result = new CompletableFuture<>();
      system.systemActorOf(
          Machine.create(spec, plans, stats, seed, result), "machine", SimDispatcher.selector());
      return result.get(wallTimeout.toMillis(), TimeUnit.MILLISECONDS);
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

  static long horizon(MachineSpec spec, List<JobPlan> plans) {
    Map<Integer, Long> perGroup = new TreeMap<>(); // stonewall groups run one after another
    for (JobPlan p : plans) {
      if (p.runtimeNanos() == 0) {
        return SIZE_BASED_HORIZON_NANOS;
      }
      perGroup.merge(p.group(), p.rampNanos() + p.runtimeNanos(), Math::max);
    }
    long total = perGroup.values().stream().mapToLong(Long::longValue).sum();
    return 2 * total + 10 * spec.stallLimitNanos() + 60_000_000_000L;
  }

  /** A finished run. */
  public record Outcome(MachineResult result, RunStats stats) {}
}
