package io.mqroute.policies.selector;

import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.topology.QueueMask;

/**
 * Baseline join-the-shortest-queue: the registered queue with the fewest requests, lowest index on
 * ties — the best balance a stale snapshot allows, but it reads every queue's counter (a cache miss
 * each in a kernel) and herds bursts onto the same queue.
 *
 * <p>Cost: O(registered queues) reads, no random draw, no allocation (≈ 0.5–1 ns per queue).
 */
public final class ShortestQueueSelector implements QueueSelector {

  private ShortestQueueSelector() {}

  public static Builder newBuilder() {
    return new Builder();
  }

  @Override
  public int select(RoutingView view, int cpu, boolean background, RandomSource random) {
    QueueMask mask = view.registeredQueues();
    int best = NONE;
    int bestLoad = Integer.MAX_VALUE;
    for (int w = 0, words = mask.wordCount(); w < words; w++) {
      long bits = mask.word(w);
      while (bits != 0) {
        int q = (w << 6) + Long.numberOfTrailingZeros(bits);
        bits &= bits - 1;
        int load = view.nrReqs(q);
        if (load < bestLoad) {
          best = q;
          bestLoad = load;
        }
      }
    }
    return best;
  }

  @Override
  public String toString() {
    return "ShortestQueueSelector[]";
  }

  /** No parameters. */
  public static final class Builder {
    private Builder() {}

    public ShortestQueueSelector build() {
      return new ShortestQueueSelector();
    }
  }
}
