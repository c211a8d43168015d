package io.mqroute.policies.selector;

import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;

/**
 * Models mainline {@code fuse_uring_task_to_queue}: the queue of the submitting CPU, which keeps
 * the request cache-local and costs nothing, but never spreads load away from a busy CPU.
 *
 * <p>A CPU id {@code >= queueCount} falls back to queue 0 (the kernel's {@code WARN_ONCE} path); an
 * unregistered queue answers {@link #NONE} ("Missing queue for qid": EINVAL / ENOTCONN).
 *
 * <p>Cost: two array reads, no random draw, no allocation (≈ 1–3 ns).
 */
public final class StaticCpuSelector implements QueueSelector {

  private StaticCpuSelector() {}

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
    return view.registered(qid) ? qid : NONE;
  }

  @Override
  public String toString() {
    return "StaticCpuSelector[]";
  }

  /** No parameters; kept for symmetry with the other selectors. */
  public static final class Builder {
    private Builder() {}

    public StaticCpuSelector build() {
      return new StaticCpuSelector();
    }
  }
}
