package io.mqroute.policies.selector;

import java.util.Arrays;
import java.util.function.IntUnaryOperator;

/**
 * Models {@code group_cpus_evenly} (lib/group_cpus.c), the CPU grouping behind virtio-fs's {@code
 * mq_map}: groups go to NUMA nodes in proportion to their CPUs, then each node's CPUs are cut into
 * contiguous, nearly equal runs.
 *
 * <p>Modelled as on a machine where every possible CPU is present (one stage) with no SMT siblings
 * or clusters. The node order is the kernel's: nodes are sorted by CPU count with the kernel's
 * (unstable, bottom-up) heap sort, so two equal nodes are visited in reverse id order.
 */
public final class GroupCpusEvenly {

  private static final int UINT_MAX = -1; // unsigned 0xffffffff, compared with wrapping subtraction

  private GroupCpusEvenly() {}

  /**
   * The group (queue) of every CPU, for {@code groups} groups; every CPU gets a group in {@code [0,
   * min(groups, cpus))}.
   *
   * @param cpuToNode node of each possible CPU (dense node ids)
   */
  public static int[] map(int[] cpuToNode, int groups) {
    if (groups < 1) {
      throw new IllegalArgumentException("groups must be >= 1, got " + groups);
    }
    int nodes = Arrays.stream(cpuToNode).max().orElse(-1) + 1;
    int[] ncpus = new int[nodes];
    for (int node : cpuToNode) {
      ncpus[node]++;
    }
    int[] map = new int[cpuToNode.length];
    int nodesWithCpus = (int) Arrays.stream(ncpus).filter(c -> c > 0).count();
    if (groups <= nodesWithCpus) {
      int cur = 0;
      for (int node = 0; node < nodes; node++) { // for_each_node_mask: ascending id
        if (ncpus[node] > 0) {
          assignAll(cpuToNode, node, cur, map);
          cur = (cur + 1) % groups;
        }
      }
      return map;
    }
    int total = cpuToNode.length;
    int remainingGroups = Math.min(total, groups);
    int[] key = new int[nodes];
    for (int node = 0; node < nodes; node++) {
      key[node] = ncpus[node] > 0 ? ncpus[node] : UINT_MAX;
    }
    int[] order = new int[nodes];
    Arrays.setAll(order, i -> i);
    heapSort(order, id -> key[id]);
    int[] ngroups = new int[nodes];
    int remainingCpus = total;
    for (int id : order) { // alloc_groups_to_nodes
      if (key[id] == UINT_MAX) {
        continue;
      }
      ngroups[id] = Math.max(1, (int) ((long) remainingGroups * ncpus[id] / remainingCpus));
      remainingCpus -= ncpus[id];
      remainingGroups -= ngroups[id];
    }
    int cur = 0;
    for (int id : order) { // assign_cpus_to_groups, in sorted order
      if (key[id] == UINT_MAX) {
        continue;
      }
      int extra = ncpus[id] - ngroups[id] * (ncpus[id] / ngroups[id]);
      int cpu = 0;
      for (int v = 0; v < ngroups[id]; v++, cur++) {
        int perGroup = ncpus[id] / ngroups[id] + (extra-- > 0 ? 1 : 0);
        for (int k = 0; k < perGroup; k++) {
          cpu = nextCpuOf(cpuToNode, id, cpu);
          map[cpu++] = cur;
        }
      }
    }
    return map;
  }

  private static void assignAll(int[] cpuToNode, int node, int group, int[] map) {
    for (int cpu = 0; cpu < cpuToNode.length; cpu++) {
      if (cpuToNode[cpu] == node) {
        map[cpu] = group;
      }
    }
  }

  private static int nextCpuOf(int[] cpuToNode, int node, int from) {
    int cpu = from;
    while (cpuToNode[cpu] != node) {
      cpu++;
    }
    return cpu;
  }

  /**
   * lib/sort.c {@code sort()}: bottom-up heap sort with {@code cmp = key(l) - key(r)} (wrapping).
   */
  static void heapSort(int[] a, IntUnaryOperator key) {
    int n = a.length;
    int start = n / 2;
    if (start == 0) {
      return;
    }
    while (true) {
      if (start > 0) {
        start--;
      } else if (--n > 0) {
        swap(a, 0, n);
      } else {
        break;
      }
      int b = start;
      int c;
      int d;
      while ((d = (c = 2 * b + 1) + 1) < n) {
        b = key.applyAsInt(a[c]) - key.applyAsInt(a[d]) >= 0 ? c : d;
      }
      if (d == n) {
        b = c;
      }
      while (b != start && key.applyAsInt(a[start]) - key.applyAsInt(a[b]) >= 0) {
        b = (b - 1) / 2;
      }
      c = b;
      while (b != start) {
        b = (b - 1) / 2;
        swap(a, b, c);
      }
    }
  }

  private static void swap(int[] a, int i, int j) {
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}
