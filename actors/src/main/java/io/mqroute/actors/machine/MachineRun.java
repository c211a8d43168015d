package io.mqroute.actors.machine;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.mqroute.actors.metrics.JobStats;
import io.mqroute.actors.runtime.RunStats;
import io.mqroute.actors.runtime.SimSystem;
import java.util.List;
import java.util.function.IntFunction;

/** Runs one machine in deterministic virtual time, on the calling thread. */
public final class MachineRun {
  /** Size-based jobs have no runtime to bound the run; stall detection ends a hung one long before this. */
  static final long SIZE_BASED_HORIZON_NANOS = 24L * 3600 * 1_000_000_000L;

  private MachineRun() {}

  /**
   * @param name names the ActorSystem (letters, digits, '-' and '_')
   * @return the result, and the driver's statistics
   * @throws IllegalStateException if the run ended without a result (horizon reached) — a model bug, since
   *     the stall limit should have ended it
   */
  public static Outcome run(String name, MachineSpec spec, List<JobPlan> plans, IntFunction<JobStats> stats,
      long seed) {
    long horizon = horizon(spec, plans);
    Config extra = ConfigFactory.parseString("pekko.loglevel = WARNING\npekko.log-dead-letters = off\n"
        + "pekko.log-dead-letters-during-shutdown = off");
    SimSystem.Outcome<MachineResult> o = SimSystem.run(name, extra, horizon,
        result -> Machine.create(spec, plans, stats, seed, result));
    MachineResult r = o.result().orElseThrow(() -> new IllegalStateException(
        "run " + name + " reached its virtual horizon of " + horizon + " ns without finishing ("
            + o.stats().stopReason() + ")"));
    return new Outcome(r, o.stats());
  }

  static long horizon(MachineSpec spec, List<JobPlan> plans) {
    long longest = 0;
    for (JobPlan p : plans) {
      if (p.runtimeNanos() == 0) {
        return SIZE_BASED_HORIZON_NANOS;
      }
      longest = Math.max(longest, p.rampNanos() + p.runtimeNanos());
    }
    return 2 * longest + 10 * spec.stallLimitNanos() + 60_000_000_000L;
  }

  /** A finished run. */
  public record Outcome(MachineResult result, RunStats stats) {}
}
