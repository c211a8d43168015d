package io.mqroute.policies.selector;

import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.topology.QueueMask;

/**
 * Baseline: a uniformly random registered queue (the "pure random qid" row of the series' numbers)
 * — perfectly spread on average, but ignores load and locality and wakes random cores.
 *
 * <p>Cost: one random draw and one indexed mask lookup, no allocation (≈ 3–6 ns).
 */
public final class RandomSelector implements QueueSelector {

  private RandomSelector() {}

  public static Builder newBuilder() {
    return new Builder();
  }

  @Override
  public int select(RoutingView view, int cpu, boolean background, RandomSource random) {
    QueueMask mask = view.registeredQueues();
    int w = mask.weight();
    return w == 0 ? NONE : mask.nth(random.nextInt(w));
  }

  @Override
  public String toString() {
    return "RandomSelector[]";
  }

  /** No parameters. */
  public static final class Builder {
    private Builder() {}

    public RandomSelector build() {
      return new RandomSelector();
    }
  }
}
