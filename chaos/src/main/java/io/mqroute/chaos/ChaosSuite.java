package io.mqroute.chaos;

import io.mqroute.runtime.RunPool;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.function.Consumer;

/**
 * Runs a range of seeds, {@code parallel} virtual-time ActorSystems at once; results do not depend
 * on it.
 */
public final class ChaosSuite {
  private ChaosSuite() {}

  /**
   * @param progress told about each seed, in seed order, as soon as it and every earlier seed are
   *     done
   * @return one result per seed, in seed order
   */
  public static List<SeedResult> run(
      ChaosProfile profile,
      long firstSeed,
      long lastSeed,
      int parallel,
      Consumer<SeedResult> progress) {
    if (parallel < 1 || lastSeed < firstSeed) {
      throw new IllegalArgumentException("need parallel >= 1 and a non-empty seed range");
    }
    try (RunPool pool = new RunPool(parallel, "mqroute-chaos")) {
      // a bounded window of submitted seeds: a range of millions must not queue millions of tasks
      ArrayDeque<Future<SeedResult>> window = new ArrayDeque<>();
      List<SeedResult> out = new ArrayList<>();
      long next = firstSeed;
      while (next <= lastSeed || !window.isEmpty()) {
        while (next <= lastSeed && window.size() < 4 * parallel) {
          long seed = next++;
          window.addLast(pool.submit(() -> ChaosRun.run(profile, seed)));
        }
        SeedResult r = RunPool.join(window.pollFirst());
        progress.accept(r);
        out.add(r);
      }
      return out;
    }
  }
}
