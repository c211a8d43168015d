package io.mqroute.policies.topology;

/**
 * The mutable online set of a {@link CpuTopology}: what CPU hotplug changes. Offlining a CPU that
 * the layout marks as not hotpluggable is refused, as the kernel refuses it (no {@code online}
 * file).
 *
 * <p>Not thread-safe: owned by the hotplug (chaos) actor; others receive copies as messages.
 */
public final class OnlineCpus {

  private final CpuTopology topology;
  private final BitMask online;

  /** Every CPU of {@code topology} online. */
  public OnlineCpus(CpuTopology topology) {
    this.topology = topology;
    this.online = BitMask.full(topology.cpuCount());
  }

  public CpuTopology topology() {
    return topology;
  }

  public boolean isOnline(int cpu) {
    return online.contains(cpu);
  }

  public int onlineCount() {
    return online.weight();
  }

  /** The online CPUs as a read-only view (live: reflects later changes). */
  public QueueMask asMask() {
    return online;
  }

  /**
   * Brings {@code cpu} online or takes it offline; returns whether the state changed.
   *
   * @throws IllegalArgumentException when offlining a CPU that is not hotpluggable
   */
  public boolean setOnline(int cpu, boolean up) {
    if (cpu < 0 || cpu >= topology.cpuCount()) {
      throw new IllegalArgumentException(
          "cpu must be in [0, " + (topology.cpuCount() - 1) + "], got " + cpu);
    }
    if (!up && !topology.isHotpluggable(cpu)) {
      throw new IllegalArgumentException("cpu " + cpu + " is not hotpluggable");
    }
    return online.set(cpu, up);
  }

  /** Puts every CPU back online, as generic/650's cleanup does; returns how many changed. */
  public int allOnline() {
    int changed = 0;
    for (int cpu = 0; cpu < topology.cpuCount(); cpu++) {
      changed += online.set(cpu) ? 1 : 0;
    }
    return changed;
  }

  @Override
  public String toString() {
    return "OnlineCpus" + online;
  }
}
