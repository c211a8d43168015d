package io.mqroute.policies.topology;

import java.util.Arrays;

/**
 * The immutable layout of the modelled machine: how many possible CPUs, which NUMA node each CPU is
 * on, and which CPUs may be taken offline. The online state lives in {@link OnlineCpus}, so a
 * layout can be shared by every actor while hotplug chaos mutates only the online set.
 *
 * <p>Node ids are dense ({@code 0 .. nodeCount()-1}); a node may have no CPU (memory-only node). By
 * default every CPU except CPU0 is hotpluggable, as on most x86 machines (generic/650 skips CPUs
 * without an {@code online} file).
 */
public final class CpuTopology {

  /** Upper bound on CPUs, far above what the experiments use; guards against typos. */
  public static final int MAX_CPUS = 1 << 16;

  private final int[] cpuToNode;
  private final int nodeCount;
  private final int[] cpusPerNode;
  private final boolean[] hotpluggable;

  private CpuTopology(int[] cpuToNode, int nodeCount, boolean[] hotpluggable) {
    this.cpuToNode = cpuToNode;
    this.nodeCount = nodeCount;
    this.hotpluggable = hotpluggable;
    this.cpusPerNode = new int[nodeCount];
    for (int node : cpuToNode) {
      cpusPerNode[node]++;
    }
  }

  /** {@code nodes} nodes of {@code cpusPerNode} contiguously numbered CPUs each; CPU0 pinned. */
  public static CpuTopology uniform(int nodes, int cpusPerNode) {
    return newBuilder().uniform(nodes, cpusPerNode).build();
  }

  /** One node per entry value: {@code ofNodes(0, 0, 1, 1)} is two nodes of two CPUs. */
  public static CpuTopology ofNodes(int... cpuToNode) {
    return newBuilder().cpuToNode(cpuToNode).build();
  }

  public static Builder newBuilder() {
    return new Builder();
  }

  public int cpuCount() {
    return cpuToNode.length;
  }

  public int nodeCount() {
    return nodeCount;
  }

  /** NUMA node of {@code cpu} (the kernel's {@code cpu_to_node}). */
  public int cpuToNode(int cpu) {
    return cpuToNode[cpu];
  }

  /** How many possible CPUs node {@code node} has. */
  public int cpusOnNode(int node) {
    return cpusPerNode[node];
  }

  /** Whether {@code cpu} may go offline. */
  public boolean isHotpluggable(int cpu) {
    return hotpluggable[cpu];
  }

  /** The hotpluggable CPUs in ascending order (a fresh array). */
  public int[] hotpluggableCpus() {
    int n = 0;
    for (boolean h : hotpluggable) {
      n += h ? 1 : 0;
    }
    int[] out = new int[n];
    for (int cpu = 0, k = 0; cpu < hotpluggable.length; cpu++) {
      if (hotpluggable[cpu]) {
        out[k++] = cpu;
      }
    }
    return out;
  }

  /** A fresh online set of this layout with every CPU online. */
  public OnlineCpus allOnline() {
    return new OnlineCpus(this);
  }

  @Override
  public String toString() {
    return "CpuTopology[cpus="
        + cpuCount()
        + ", nodes="
        + nodeCount
        + ", cpusPerNode="
        + Arrays.toString(cpusPerNode)
        + ", hotpluggable="
        + hotpluggableCpus().length
        + "]";
  }

  /** Validating builder; {@link #build()} rejects empty, oversized or sparse layouts. */
  public static final class Builder {
    private int[] cpuToNode;
    private int[] fixed = {0};

    private Builder() {}

    public Builder uniform(int nodes, int cpusPerNode) {
      if (nodes < 1) {
        throw new IllegalArgumentException("nodes must be >= 1, got " + nodes);
      }
      if (cpusPerNode < 1) {
        throw new IllegalArgumentException("cpusPerNode must be >= 1, got " + cpusPerNode);
      }
      int[] map = new int[Math.multiplyExact(nodes, cpusPerNode)];
      for (int cpu = 0; cpu < map.length; cpu++) {
        map[cpu] = cpu / cpusPerNode;
      }
      return cpuToNode(map);
    }

    public Builder cpuToNode(int... cpuToNode) {
      this.cpuToNode = cpuToNode.clone();
      return this;
    }

    /** CPUs that cannot go offline (default: CPU0 only). */
    public Builder notHotpluggable(int... cpus) {
      this.fixed = cpus.clone();
      return this;
    }

    /** Every CPU, CPU0 included, may go offline. */
    public Builder allHotpluggable() {
      return notHotpluggable();
    }

    public CpuTopology build() {
      if (cpuToNode == null || cpuToNode.length == 0 || cpuToNode.length > MAX_CPUS) {
        throw new IllegalArgumentException(
            "cpus must be in [1, "
                + MAX_CPUS
                + "], got "
                + (cpuToNode == null ? 0 : cpuToNode.length));
      }
      int nodes = 0;
      for (int node : cpuToNode) {
        if (node < 0 || node >= cpuToNode.length) {
          throw new IllegalArgumentException(
              "node must be in [0, " + (cpuToNode.length - 1) + "], got " + node);
        }
        nodes = Math.max(nodes, node + 1);
      }
      boolean[] hot = new boolean[cpuToNode.length];
      Arrays.fill(hot, true);
      for (int cpu : fixed) {
        if (cpu < 0 || cpu >= hot.length) {
          throw new IllegalArgumentException(
              "notHotpluggable cpu must be in [0, " + (hot.length - 1) + "], got " + cpu);
        }
        hot[cpu] = false;
      }
      return new CpuTopology(cpuToNode.clone(), nodes, hot);
    }
  }
}
