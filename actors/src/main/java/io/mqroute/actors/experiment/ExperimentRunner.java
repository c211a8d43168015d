package io.mqroute.actors.experiment;

import io.mqroute.actors.runtime.NanoClock;
import io.mqroute.actors.machine.FlowProtocol;
import io.mqroute.actors.machine.MachineRun;
import io.mqroute.actors.machine.MachineResult;
import io.mqroute.actors.metrics.Digest;
import io.mqroute.actors.metrics.JobStats;
import io.mqroute.actors.machine.JobPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Runs the variants of an experiment, each in its own virtual-time ActorSystem driven by its own thread, so
 * {@code parallel} of them run at once and the results are the same as one at a time.
 */
public final class ExperimentRunner {
  private ExperimentRunner() {}

  /**
   * @param parallel how many variants run at the same time (≥ 1)
   * @param progress told about each finished variant (from the runner threads)
   */
  public static ExperimentResult run(ExperimentSpec spec, int parallel, Consumer<VariantResult> progress) {
    if (parallel < 1) {
      throw new IllegalArgumentException("parallel must be >= 1, was " + parallel);
    }
    ExecutorService pool = Executors.newFixedThreadPool(Math.min(parallel, spec.variants().size()), r -> {
      Thread t = new Thread(r, "mqroute-variant");
      t.setDaemon(true);
      return t;
    });
    try {
      List<Future<VariantResult>> futures = new ArrayList<>();
      for (Variant v : spec.variants()) {
        futures.add(pool.submit(() -> {
          VariantResult r = runOne(spec, v);
          progress.accept(r);
          return r;
        }));
      }
      List<VariantResult> results = new ArrayList<>();
      for (Future<VariantResult> f : futures) {
        results.add(f.get());
      }
      Digest d = Digest.create().putString("mqroute.experiment.v1").putString(spec.name()).putLong(spec.seed());
      results.forEach(r -> d.putString(r.variant().name()).putString(r.digest()));
      return new ExperimentResult(spec, List.copyOf(results), d.hex());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException re) {
        throw re;
      }
      throw new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  static VariantResult runOne(ExperimentSpec spec, Variant v) {
    List<JobPlan> plans = v.workload().plans(v.machine());
    long t0 = NanoClock.SYSTEM.nanoTime();
    MachineRun.Outcome o = MachineRun.run(systemName(spec.name() + "-" + v.name()), v.machine(), plans,
        i -> v.workload().newStats(plans.get(i)), spec.seed());
    long wall = NanoClock.SYSTEM.nanoTime() - t0;
    return new VariantResult(v, o.result(), o.stats(), digest(o.result()), wall);
  }

  /** Jobs' statistics plus the machine's own counters: anything the seed determines. */
  static String digest(MachineResult r) {
    Digest d = Digest.create().putString("mqroute.variant.v1").putString(Digest.of(r.jobs()));
    for (FlowProtocol.QueueStats q : r.queues()) {
      d.putInt(q.queue()).putLong(q.accepted()).putInt(q.maxOccupancy()).putLong(q.overflowWaits())
          .putLong(q.overflowNanos()).putLong(q.delayedRetries()).putLong(q.enomem());
    }
    d.putLong(r.endNanos()).putInt(r.violations().size()).putString(r.stall() == null ? "" : r.stall());
    return d.hex();
  }

  static String systemName(String s) {
    String n = s.chars().map(c -> Character.isLetterOrDigit(c) || c == '-' || c == '_' ? c : '-')
        .mapToObj(c -> String.valueOf((char) c)).collect(Collectors.joining());
    return n.isEmpty() || !Character.isLetterOrDigit(n.charAt(0)) ? "x" + n : n;
  }

  /** All clones' stats of one variant, for reports. */
  public static List<JobStats> jobs(VariantResult r) {
    return r.result().jobs();
  }
}
