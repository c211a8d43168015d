package io.mqroute.policies.selector;

import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;
import io.mqroute.policies.topology.CpuTopology;

/**
 * Models virtio-fs {@code virtio_fs_map_queues} + {@code virtio_fs_send_req}: a CPU→queue map fixed
 * at probe time by {@link GroupCpusEvenly} over all possible CPUs, looked up by the current CPU —
 * NUMA-local and free of shared state, but blind to load and to CPU hotplug.
 *
 * <p>The map is computed on the first decision (as the driver computes it once at probe) and again
 * only if the view shows another {@link CpuTopology} object or queue count. A mapped queue that is
 * not registered answers {@link #NONE}.
 *
 * <p>Cost: one array read per decision, no random draw, no allocation (≈ 1–3 ns).
 */
public final class MqMapSelector implements QueueSelector {

  private CpuTopology mappedTopology;
  private int mappedQueues;
  private int[] map = new int[0];

  private MqMapSelector() {}

  public static Builder newBuilder() {
    return new Builder();
  }

  @Override
  public int select(RoutingView view, int cpu, boolean background, RandomSource random) {
    if (view.topology() != mappedTopology || view.queueCount() != mappedQueues) {
      remap(view);
    }
    int q = map[cpu];
    return view.registered(q) ? q : NONE;
  }

  /** The CPU→queue map this selector uses for {@code view} (a copy). */
  public int[] mapFor(RoutingView view) {
    if (view.topology() != mappedTopology || view.queueCount() != mappedQueues) {
      remap(view);
    }
    return map.clone();
  }

  private void remap(RoutingView view) {
    CpuTopology topology = view.topology();
    int[] cpuToNode = new int[topology.cpuCount()];
    for (int cpu = 0; cpu < cpuToNode.length; cpu++) {
      cpuToNode[cpu] = topology.cpuToNode(cpu);
    }
    map = GroupCpusEvenly.map(cpuToNode, view.queueCount());
    mappedTopology = topology;
    mappedQueues = view.queueCount();
  }

  @Override
  public String toString() {
    return "MqMapSelector[]";
  }

  /** No parameters: the map follows the view's topology and queue count. */
  public static final class Builder {
    private Builder() {}

    public MqMapSelector build() {
      return new MqMapSelector();
    }
  }
}
