package io.mqroute.policies.selector;

import io.mqroute.policies.Params;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.topology.QueueMask;

/**
 * Models {@code fuse_uring_get_queue} of Schubert's reduced-queue series v2 6/7 as posted (seed
 * 002, 2025-10), the code its fio numbers came from: every request, foreground too, walks up to
 * {@code retries} neighbour queues of its node before the node's random pick; a background
 * request's random pick never takes the submitting CPU's queue. Trade-off against {@link
 * ReducedV3Selector}: more requests leave their own CPU (more wake-ups elsewhere), fewer land on a
 * busy queue.
 *
 * <p>As posted, {@code fuse_uring_best_queue} returns after its first draw (a stray {@code return
 * queue1;} a reviewer asked about) and the global step returns its pick whatever its load (a stray
 * {@code return best_global;} with the fallback commented out). {@code asPosted(false)} removes
 * both: two different queues, the less loaded wins, and the node's pick is the fallback, as the
 * series' later versions have it.
 *
 * <p>Cost: 0–6 random draws (the background draw repeats while it hits the submitting CPU), O(1)
 * mask lookups, no allocation.
 */
public final class ReducedV2Selector implements QueueSelector {

  private final int numa;
  private final int global;
  private final int retries;
  private final boolean asPosted;

  private ReducedV2Selector(Builder b) {
    numa = b.numa;
    global = b.global;
    retries = b.retries;
    asPosted = b.asPosted;
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  @Override
  public boolean indexesQueuesByCpu() {
    return true;
  }

  @Override
  public int select(RoutingView view, int cpu, boolean background, RandomSource random) {
    int qid = cpu >= view.queueCount() ? 0 : cpu;
    QueueMask nmask = view.registeredQueues(view.cpuToNode(qid));
    int queue = view.registered(qid) ? qid : NONE;
    for (int tries = 0; ; tries++) {
      if (background || queue == NONE) {
        int weight = nmask.weight();
        if (weight == 0) {
          break; // cpumask_first of an empty mask: no queue of the node (the patch would index past
          // the end)
        }
        qid = nmask.nth((qid + 1) % weight); // sic: a CPU id taken modulo the mask's weight
        queue = view.registered(qid) ? qid : NONE;
      }
      if (queue != NONE && view.nrReqs(queue) <= numa) {
        return queue;
      }
      if (tries >= retries) {
        break;
      }
      queue = NONE;
    }
    int bestNuma = best(view, nmask, background, cpu, random);
    if (bestNuma != NONE && view.nrReqs(bestNuma) <= numa) {
      return bestNuma;
    }
    int bestGlobal = best(view, view.registeredQueues(), background, cpu, random);
    // as posted, the global pick is taken whatever its load
    return BestQueue.globalOrNode(
        view, bestGlobal, bestNuma, asPosted ? Integer.MAX_VALUE : global);
  }

  /**
   * v2's fuse_uring_best_queue: the first draw skips the submitting CPU's queue for background
   * requests.
   */
  private int best(
      RoutingView view, QueueMask mask, boolean background, int taskCpu, RandomSource random) {
    int w = mask.weight();
    if (w == 0) {
      return NONE;
    }
    if (w == 1) {
      return mask.first();
    }
    int q1;
    do {
      q1 = mask.nth(random.nextInt(w));
    } while (background && q1 == taskCpu);
    if (asPosted) {
      return view.registered(q1) ? q1 : NONE;
    }
    int q2;
    do {
      q2 = mask.nth(random.nextInt(w));
    } while (q2 == q1);
    if (!view.registered(q1) || !view.registered(q2)) {
      return NONE;
    }
    return view.nrReqs(q1) < view.nrReqs(q2) ? q1 : q2;
  }

  @Override
  public String toString() {
    return "ReducedV2Selector[numa="
        + numa
        + ", global="
        + global
        + ", retries="
        + retries
        + (asPosted ? ", as posted" : "")
        + "]";
  }

  /** Defaults are the series' constants: NUMA 3, global 4, retries 2, the code as posted. */
  public static final class Builder {
    public static final int MAX_RETRIES = 64;

    private int numa = 3;
    private int global = 4;
    private int retries = 2;
    private boolean asPosted = true;

    private Builder() {}

    /**
     * {@code FURING_Q_NUMA_THRESHOLD}: the own, neighbour and node-pick queues must be at most this
     * long.
     */
    public Builder numaThreshold(int v) {
      numa = Params.checkRange("numa", v, 0, Integer.MAX_VALUE);
      return this;
    }

    /**
     * {@code FURING_Q_GLOBAL_THRESHOLD}; ignored as posted (the global pick is returned whatever
     * its load).
     */
    public Builder globalThreshold(int v) {
      global = Params.checkRange("global", v, 0, Integer.MAX_VALUE);
      return this;
    }

    /**
     * {@code FURING_NEXT_QUEUE_RETRIES}: neighbours tried after the first choice. At most {@link
     * #MAX_RETRIES}: v2 has no bound on the walk but this constant (2), and every request may walk
     * it.
     */
    public Builder retries(int v) {
      retries = Params.checkRange("retries", v, 0, MAX_RETRIES);
      return this;
    }

    /** The code as posted (default), or without its two stray early returns. */
    public Builder asPosted(boolean v) {
      asPosted = v;
      return this;
    }

    public ReducedV2Selector build() {
      return new ReducedV2Selector(this);
    }
  }
}
