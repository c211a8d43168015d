package io.mqroute.actors.cpu;

import java.util.function.IntPredicate;
import java.util.function.IntUnaryOperator;

/**
 * select_fallback_rq: where the kernel puts a task whose CPU went offline — an allowed online CPU of the task's
 * NUMA node, then any allowed online CPU, then (its affinity broken) an online CPU of the node, then any online
 * CPU; each searched upwards from the dead CPU, so the choice is deterministic.
 */
public final class FallbackCpu {
  private FallbackCpu() {}

  /**
   * @param allowed the task's CPUs (cpus_allowed), or null for all
   * @return the CPU, or -1 if none is online
   */
  public static int of(int cpu, int cpuCount, IntPredicate online, IntUnaryOperator node, int[] allowed) {
    int home = node.applyAsInt(cpu);
    for (int pass = 0; pass < 4; pass++) {
      boolean sameNode = pass % 2 == 0;
      boolean affine = pass < 2;
      for (int i = 1; i <= cpuCount; i++) {
        int c = (cpu + i) % cpuCount;
        if (online.test(c) && (!sameNode || node.applyAsInt(c) == home) && (!affine || allows(allowed, c))) {
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
