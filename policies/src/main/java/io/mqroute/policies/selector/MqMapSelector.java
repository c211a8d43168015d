package io.mqroute.policies.selector;

import io.mqroute.policies.QueueSelector;
import io.mqroute.policies.RoutingView;
import io.mqroute.policies.random.RandomSource;

/**
 * Models virtio-fs {@code virtio_fs_map_queues} + {@code virtio_fs_send_req}: a CPU→queue map fixed
 * at probe time by {@link GroupCpusEvenly} over all possible CPUs, looked up by the current CPU —
 * NUMA-local and free of shared state, but blind to load and to CPU hotplug.
 *
 * <p>The map is computed on the first decision for a view (as the driver computes it once at
 * probe) and again only if a different view object or queue count is seen. A mapped queue that is
 * not registered answers {@link #NONE}.
 *
 * <p>Cost: one array read per decision, no random draw, no allocation (≈ 1–3 ns).
 */
public final class MqMapSelector implements QueueSelector {

    private RoutingView mappedView;
    private int mappedQueues;
    private int[] map = new int[0];

    private MqMapSelector() {
    }

    public static Builder newBuilder() {
        return new Builder();
    }

    @Override
    public int select(RoutingView view, int cpu, boolean background, RandomSource random) {
        if (view != mappedView || view.queueCount() != mappedQueues) {
            remap(view);
        }
        int q = map[cpu];
        return view.registered(q) ? q : NONE;
    }

    /** The CPU→queue map this selector uses for {@code view} (a copy). */
    public int[] mapFor(RoutingView view) {
        if (view != mappedView || view.queueCount() != mappedQueues) {
            remap(view);
        }
        return map.clone();
    }

    private void remap(RoutingView view) {
        int[] cpuToNode = new int[view.cpuCount()];
        for (int cpu = 0; cpu < cpuToNode.length; cpu++) {
            cpuToNode[cpu] = view.cpuToNode(cpu);
        }
        map = GroupCpusEvenly.map(cpuToNode, view.queueCount());
        mappedView = view;
        mappedQueues = view.queueCount();
    }

    @Override
    public String toString() {
        return "MqMapSelector[]";
    }

    /** No parameters: the map follows the view's topology and queue count. */
    public static final class Builder {
        private Builder() {
        }

        public MqMapSelector build() {
            return new MqMapSelector();
        }
    }
}
