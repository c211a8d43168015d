package io.mqroute.policies.selector;

import io.mqroute.policies.Params;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.topology.QueueMask;

/**
 * Baseline {@code p2c-distinct}: the least loaded of {@code choices} distinct registered queues,
 * drawn uniformly without replacement (ties to the later draw), as load balancers usually implement
 * power-of-d choices — where {@code p2c}, like {@code fuse_uring_best_queue}, may draw one queue
 * twice.
 *
 * <p>Cost: {@code choices} draws (the k-th uniform over the queues not drawn yet, with fewer
 * registered queues than choices all of them), O(choices²) comparisons to skip the earlier draws,
 * no allocation.
 */
public final class DistinctChoicesSelector implements QueueSelector {

  private final int choices;

  /** The positions (in the registered mask) drawn so far in this decision, ascending. */
  private final int[] drawn;

  private DistinctChoicesSelector(Builder b) {
    choices = b.choices;
    drawn = new int[choices];
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  public int choices() {
    return choices;
  }

  @Override
  public int select(RoutingView view, int cpu, boolean background, RandomSource random) {
    QueueMask mask = view.registeredQueues();
    int w = mask.weight();
    if (w <= 1) {
      return w == 0 ? NONE : mask.first();
    }
    int d = Math.min(choices, w);
    int best = NONE;
    int bestLoad = Integer.MAX_VALUE;
    for (int k = 0; k < d; k++) {
      int pos = random.nextInt(w - k);
      int at = 0;
      // the pos-th position not drawn yet: step over every drawn position at or below it
      while (at < k && drawn[at] <= pos) {
        pos++;
        at++;
      }
      System.arraycopy(drawn, at, drawn, at + 1, k - at);
      drawn[at] = pos;
      int q = mask.nth(pos);
      int load = view.nrReqs(q);
      if (load <= bestLoad) {
        best = q;
        bestLoad = load;
      }
    }
    return best;
  }

  @Override
  public String toString() {
    return "DistinctChoicesSelector[choices=" + choices + "]";
  }

  /** Default: two choices. */
  public static final class Builder {
    private int choices = 2;

    private Builder() {}

    public Builder choices(int d) {
      choices = Params.checkRange("choices", d, 1, PowerOfChoicesSelector.MAX_CHOICES);
      return this;
    }

    public DistinctChoicesSelector build() {
      return new DistinctChoicesSelector(this);
    }
  }
}
