package io.mqroute.workload;

import java.util.List;

/**
 * A set of CPUs written the way fio's {@code cpus_allowed=} takes it: {@code 0-3,8,10-11}. The CPUs
 * are kept sorted and without duplicates; {@link #ALL} (empty) means no restriction.
 *
 * @param cpus the CPU numbers, ascending
 * @param text the list as written ({@code ""} for {@link #ALL})
 */
public record CpuList(List<Integer> cpus, String text) {

  /** No {@code cpus_allowed}: every online CPU. */
  public static final CpuList ALL = new CpuList(List.of(), "");

  /** Copies the list. */
  public CpuList {
    cpus = List.copyOf(cpus);
    text = text == null ? "" : text;
  }

  /** True when no restriction was given. */
  public boolean isAll() {
    return cpus.isEmpty();
  }

  /** Whether a CPU may run the job (always true for {@link #ALL}). */
  public boolean allows(int cpu) {
    return isAll() || cpus.contains(cpu);
  }

  /**
   * The CPU of the {@code cloneIndex}-th clone (0-based) under {@link CpusAllowedPolicy#SPLIT}: fio
   * hands out the listed CPUs in order and wraps around. -1 for {@link #ALL}.
   */
  public int cpuForClone(int cloneIndex) {
    if (isAll()) {
      return -1;
    }
    return cpus.get(Math.floorMod(cloneIndex, cpus.size()));
  }

  @Override
  public String toString() {
    return isAll() ? "all" : text;
  }
}
