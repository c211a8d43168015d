package io.mqroute.policies.testing;

import io.mqroute.policies.MutableRoutingView;
import io.mqroute.policies.topology.CpuTopology;
import java.util.Arrays;
import java.util.SplittableRandom;

/** Random and fixed views for selector tests. */
public final class Views {

  private Views() {}

  /**
   * A random machine: 1–4 nodes (contiguous or interleaved CPUs), up to 280 CPUs, queues either per
   * CPU or fewer, a random (possibly empty) registered subset, random loads and offline CPUs.
   */
  public static MutableRoutingView random(SplittableRandom r) {
    int nodes = 1 + r.nextInt(4);
    int cpus = nodes * (1 + r.nextInt(70));
    int[] cpuToNode = new int[cpus];
    boolean interleaved = r.nextBoolean();
    for (int cpu = 0; cpu < cpus; cpu++) {
      cpuToNode[cpu] = interleaved ? cpu % nodes : cpu / (cpus / nodes);
    }
    CpuTopology topo = CpuTopology.ofNodes(cpuToNode);
    int queues = r.nextInt(4) == 0 ? 1 + r.nextInt(cpus) : cpus;
    MutableRoutingView.Builder b = MutableRoutingView.newBuilder(topo).queues(queues);
    double keep = r.nextInt(5) == 0 ? 0.0 : r.nextDouble();
    int[] regs = new int[queues];
    int n = 0;
    for (int q = 0; q < queues; q++) {
      if (r.nextDouble() < keep) {
        regs[n++] = q;
      }
    }
    b.registered(Arrays.copyOf(regs, n));
    int[] depth = new int[queues];
    for (int q = 0; q < queues; q++) {
      depth[q] = r.nextInt(9);
    }
    b.nrReqs(depth);
    int offline = r.nextInt(Math.max(1, cpus / 2));
    int[] off = new int[offline];
    for (int i = 0; i < offline; i++) {
      off[i] = r.nextInt(cpus);
    }
    return b.offline(off).build();
  }
}
