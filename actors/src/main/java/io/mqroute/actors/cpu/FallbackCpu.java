package io.mqroute.actors.cpu;

import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * select_fallback_rq (kernel/sched/core.c): where the kernel puts a task whose CPU went offline —
 * the lowest allowed online CPU of the dead CPU's NUMA node ({@code for_each_cpu} over the node
 * mask), else the lowest allowed online CPU anywhere, else, its affinity broken (cpuset fallback,
 * then all possible CPUs), the lowest online CPU. So the ring threads of every CPU taken down,
 * pinned to their own CPU, all land on CPU 0.
 */
public final class FallbackCpu {
  private FallbackCpu() {}

  /**
   * @param allowed the task's CPUs (cpus_allowed), or null for all
   * @return the CPU, or -1 if none is online
   */
  public static int of(
      int cpu, int cpuCount, IntPredicate online, IntUnaryOperator node, int[] allowed) {
    int home = node.applyAsInt(cpu);
    for (int pass = 0; pass < 3; pass++) {
      boolean sameNode = pass == 0;
      boolean affine = pass < 2;
      for (int c = 0; c < cpuCount; c++) {
        if (c != cpu
            && online.test(c)
            && (!sameNode || node.applyAsInt(c) == home)
            && (!affine || allows(allowed, c))) {
          return c;
        }
      }
    }
    return -1;
  }

  private static boolean allows(int[] allowed, int cpu) {
    if (allowed == null) {
      return true;
    }
    for (int a : allowed) {
      if (a == cpu) {
        return true;
      }
    }
    return false;
  }
}
