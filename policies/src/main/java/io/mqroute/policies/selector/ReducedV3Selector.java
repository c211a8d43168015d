package io.mqroute.policies.selector;

import io.mqroute.policies.Params;
import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.topology.QueueMask;

/**
 * Models {@code fuse_uring_get_queue} of Schubert's reduced-queue series v3 (4/6 + 6/6): stay on
 * the local queue while it is short, send background requests to a neighbour core of the same NUMA
 * node, then power-of-two-choices in the node and globally — spreading load that {@code static-cpu}
 * cannot, at the price of random draws and cross-core wake-ups.
 *
 * <p>Thresholds ("acceptable if {@code nr_reqs <= T}"):
 *
 * <ul>
 *   <li>full form (default, after 6/6): the own-CPU fast path and the neighbour path use the
 *       <b>NUMA</b> threshold; the {@code local} threshold is not used at all;
 *   <li>{@code foregroundOnly} (4/6 alone): the fast path is {@code local registered && nr_reqs <=
 *       local}; there is no neighbour path and no retry (background requests route like foreground
 *       ones; a missing local queue goes straight to the NUMA p2c).
 * </ul>
 *
 * Both forms then use {@code numa} for the node p2c and {@code global} for the global p2c, and fall
 * back to the node's pick when no global queue is under the global threshold.
 *
 * <p>Cost: 0–4 random draws, O(1) mask lookups (the mask's weight is cached, its n-th member
 * indexed), no allocation (≈ 15–20 ns measured at 24–256 queues, harness included).
 */
public final class ReducedV3Selector implements QueueSelector {

  private final int local;
  private final int numa;
  private final int global;
  private final int retries;
  private final boolean foregroundOnly;

  private ReducedV3Selector(Builder b) {
    local = b.local;
    numa = b.numa;
    global = b.global;
    retries = b.retries;
    foregroundOnly = b.foregroundOnly;
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
    int node = view.cpuToNode(qid);
    if (node > view.nodeCount()) { // sic: '>' as in the patch; dense node ids never reach it
      node = 0;
    }
    QueueMask nmask = view.registeredQueues(node);
    if (foregroundOnly) {
      if (view.registered(qid) && view.nrReqs(qid) <= local) {
        return qid;
      }
      return numaThenGlobal(view, nmask, random);
    }
    int queue = view.registered(qid) ? qid : NONE;
    int tries = 0;
    int weight = -1;
    while (true) {
      if (background || queue == NONE) {
        if (weight == -1) {
          weight = nmask.weight();
        }
        if (weight == 0) {
          return global(view, NONE, random); // best_numa uninitialised in v3: model as NULL
        }
        qid = weight > 1 ? nmask.nth((qid + 1) % weight) : nmask.first();
        queue = qid;
        if (!view.registered(queue)) {
          return NONE; // WARN_ON_ONCE(!queue) in the patch: only a stale mask gets here
        }
      }
      if (view.nrReqs(queue) <= numa) {
        return queue;
      }
      if (tries < retries && weight > tries + 1) {
        tries++;
        queue = NONE;
        continue;
      }
      return numaThenGlobal(view, nmask, random);
    }
  }

  private int numaThenGlobal(RoutingView view, QueueMask nmask, RandomSource random) {
    int bestNuma = BestQueue.select(view, nmask, random);
    if (bestNuma != NONE && view.nrReqs(bestNuma) <= numa) {
      return bestNuma;
    }
    return global(view, bestNuma, random);
  }

  private int global(RoutingView view, int bestNuma, RandomSource random) {
    return BestQueue.globalOrNode(
        view, BestQueue.select(view, view.registeredQueues(), random), bestNuma, global);
  }

  @Override
  public String toString() {
    return "ReducedV3Selector[local="
        + local
        + ", numa="
        + numa
        + ", global="
        + global
        + ", retries="
        + retries
        + (foregroundOnly ? ", foreground-only" : "")
        + "]";
  }

  /** Defaults are the series' constants: local 2, NUMA 3, global 4, retries 2, full form. */
  public static final class Builder {
    private int local = 2;
    private int numa = 3;
    private int global = 4;
    private int retries = 2;
    private boolean foregroundOnly;

    private Builder() {}

    /** {@code FURING_Q_LOCAL_THRESHOLD}; used only by the foreground-only form. */
    public Builder localThreshold(int v) {
      local = Params.checkRange("local", v, 0, Integer.MAX_VALUE);
      return this;
    }

    /** {@code FURING_Q_NUMA_THRESHOLD}. */
    public Builder numaThreshold(int v) {
      numa = Params.checkRange("numa", v, 0, Integer.MAX_VALUE);
      return this;
    }

    /** {@code FURING_Q_GLOBAL_THRESHOLD}. */
    public Builder globalThreshold(int v) {
      global = Params.checkRange("global", v, 0, Integer.MAX_VALUE);
      return this;
    }

    /** {@code FURING_NEXT_QUEUE_RETRIES}: extra neighbours tried after the first. */
    public Builder retries(int v) {
      retries = Params.checkRange("retries", v, 0, Integer.MAX_VALUE);
      return this;
    }

    /** The 4/6-only form: no background neighbour path, fast path on the local threshold. */
    public Builder foregroundOnly(boolean v) {
      foregroundOnly = v;
      return this;
    }

    public ReducedV3Selector build() {
      return new ReducedV3Selector(this);
    }
  }
}
