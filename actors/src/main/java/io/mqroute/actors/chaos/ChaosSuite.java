package io.mqroute.actors.chaos;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/** Runs a range of seeds, {@code parallel} virtual-time ActorSystems at once; results do not depend on it. */
public final class ChaosSuite {
  private ChaosSuite() {}

  /**
   * @param progress told about each seed, in seed order, as soon as it and every earlier seed are done
   * @return one result per seed, in seed order
   */
  public static List<SeedResult> run(ChaosProfile profile, long firstSeed, long lastSeed, int parallel,
      Consumer<SeedResult> progress) {
    if (parallel < 1 || lastSeed < firstSeed) {
      throw new IllegalArgumentException("need parallel >= 1 and a non-empty seed range");
    }
    ExecutorService pool = Executors.newFixedThreadPool(parallel, r -> {
      Thread t = new Thread(r, "mqroute-chaos");
      t.setDaemon(true);
      return t;
    });
    try {
      // a bounded window of submitted seeds: a range of millions must not queue millions of tasks
      java.util.ArrayDeque<Future<SeedResult>> window = new java.util.ArrayDeque<>();
      List<SeedResult> out = new ArrayList<>();
      long next = firstSeed;
      while (next <= lastSeed || !window.isEmpty()) {
        while (next <= lastSeed && window.size() < 4 * parallel) {
          long seed = next++;
          window.addLast(pool.submit(() -> ChaosRun.run(profile, seed)));
        }
        SeedResult r = window.pollFirst().get();
        progress.accept(r);
        out.add(r);
      }
      return out;
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
}
