package io.mqroute.policies;

import io.mqroute.policies.topology.BitMask;
import io.mqroute.policies.topology.CpuTopology;
import io.mqroute.policies.topology.QueueMask;
import java.util.Arrays;

/**
 * The {@link RoutingView} a router actor owns and updates in O(1) as requests come and go, queues
 * register and CPUs change online state; tests build one in a line with {@link #newBuilder}.
 *
 * <p>A queue's NUMA node is the node of its home CPU, fixed at build time, as the series sets
 * {@code numa_registered_q_mask[cpu_to_node(qid)]} at register time. Registration does not follow
 * the online state (the series' masks are static); {@link #onlineQueues()} does. Not thread-safe.
 */
public final class MutableRoutingView implements RoutingView {

  private final CpuTopology topology;
  private final int[] queueCpu;
  private final int[] nrReqs;
  private final BitMask registered;
  private final BitMask[] registeredByNode;
  private final BitMask onlineCpus;
  private final BitMask onlineQueues;
  private final int[] firstQueueOfCpu;
  private final int[] nextQueueOfSameCpu;

  private MutableRoutingView(Builder b) {
    topology = b.topology;
    int queues = b.queueCpu.length;
    queueCpu = b.queueCpu.clone();
    nrReqs = new int[queues];
    registered = new BitMask(queues);
    registeredByNode = new BitMask[topology.nodeCount()];
    for (int node = 0; node < registeredByNode.length; node++) {
      registeredByNode[node] = new BitMask(queues);
    }
    onlineCpus = BitMask.full(topology.cpuCount());
    onlineQueues = BitMask.full(queues);
    firstQueueOfCpu = new int[topology.cpuCount()];
    nextQueueOfSameCpu = new int[queues];
    Arrays.fill(firstQueueOfCpu, NONE_Q);
    for (int q = queues - 1; q >= 0; q--) {
      nextQueueOfSameCpu[q] = firstQueueOfCpu[queueCpu[q]];
      firstQueueOfCpu[queueCpu[q]] = q;
      if (b.registered[q]) {
        register(q);
      }
      setNrReqs(q, b.nrReqs[q]);
    }
    for (int cpu : b.offline) {
      setCpuOnline(cpu, false);
    }
  }

  private static final int NONE_Q = -1;

  /** One registered queue per CPU, queue {@code i} on CPU {@code i}, all CPUs online. */
  public static MutableRoutingView perCpu(CpuTopology topology) {
    return newBuilder(topology).build();
  }

  public static Builder newBuilder(CpuTopology topology) {
    return new Builder(topology);
  }

  @Override
  public CpuTopology topology() {
    return topology;
  }

  /** Sets the load of queue {@code q}; {@code n >= 0}. */
  public void setNrReqs(int q, int n) {
    if (n < 0) {
      throw new IllegalArgumentException("nrReqs must be >= 0, got " + n + " for queue " + q);
    }
    nrReqs[q] = n;
  }

  /** Adds {@code delta} to the load of queue {@code q} and returns the new value. */
  public int addNrReqs(int q, int delta) {
    int n = nrReqs[q] + delta;
    setNrReqs(q, n);
    return n;
  }

  /**
   * Marks queue {@code q} registered ({@code fuse_uring_do_register}); returns whether it changed.
   */
  public boolean register(int q) {
    registeredByNode[topology.cpuToNode(queueCpu[q])].set(q);
    return registered.set(q);
  }

  /** Removes queue {@code q} from the masks (teardown, departed device node). */
  public boolean unregister(int q) {
    registeredByNode[topology.cpuToNode(queueCpu[q])].clear(q);
    return registered.clear(q);
  }

  /** Mirrors a CPU hotplug event; O(queues homed on {@code cpu}). Returns whether it changed. */
  public boolean setCpuOnline(int cpu, boolean online) {
    if (!onlineCpus.set(cpu, online)) {
      return false;
    }
    for (int q = firstQueueOfCpu[cpu]; q != NONE_Q; q = nextQueueOfSameCpu[q]) {
      onlineQueues.set(q, online);
    }
    return true;
  }

  /**
   * Sets one queue's online state directly, for queues served by a group of CPUs (a virtio-fs vq
   * whose interrupt moves within its group: it is offline only when every CPU of the group is).
   */
  public void setQueueOnline(int q, boolean online) {
    onlineQueues.set(q, online);
  }

  @Override
  public int queueCount() {
    return queueCpu.length;
  }

  @Override
  public int cpuCount() {
    return topology.cpuCount();
  }

  @Override
  public int nodeCount() {
    return topology.nodeCount();
  }

  @Override
  public int nrReqs(int q) {
    return nrReqs[q];
  }

  @Override
  public boolean registered(int q) {
    return registered.contains(q);
  }

  @Override
  public QueueMask registeredQueues() {
    return registered;
  }

  @Override
  public QueueMask registeredQueues(int node) {
    return registeredByNode[node];
  }

  @Override
  public QueueMask onlineQueues() {
    return onlineQueues;
  }

  @Override
  public int cpuToNode(int cpu) {
    return topology.cpuToNode(cpu);
  }

  @Override
  public boolean cpuOnline(int cpu) {
    return onlineCpus.contains(cpu);
  }

  @Override
  public int queueCpu(int q) {
    return queueCpu[q];
  }

  @Override
  public String toString() {
    return "MutableRoutingView[queues="
        + queueCpu.length
        + ", registered="
        + registered
        + ", nrReqs="
        + Arrays.toString(nrReqs)
        + ", onlineCpus="
        + onlineCpus
        + "]";
  }

  /** Terse, validating construction: defaults are one registered, idle queue per CPU. */
  public static final class Builder {
    private final CpuTopology topology;
    private int[] queueCpu;
    private boolean[] registered;
    private int[] nrReqs;
    private int[] offline = new int[0];

    private Builder(CpuTopology topology) {
      this.topology = topology;
      queues(topology.cpuCount());
    }

    /**
     * {@code n} queues; queue {@code q}'s home CPU defaults to {@code q % cpuCount}. Resets the
     * rest.
     */
    public Builder queues(int n) {
      if (n < 1 || n > CpuTopology.MAX_CPUS) {
        throw new IllegalArgumentException(
            "queues must be in [1, " + CpuTopology.MAX_CPUS + "], got " + n);
      }
      queueCpu = new int[n];
      for (int q = 0; q < n; q++) {
        queueCpu[q] = q % topology.cpuCount();
      }
      registered = new boolean[n];
      Arrays.fill(registered, true);
      nrReqs = new int[n];
      return this;
    }

    /** The home CPU of queue {@code q}. */
    public Builder queueCpu(int q, int cpu) {
      checkQueue(q);
      if (cpu < 0 || cpu >= topology.cpuCount()) {
        throw new IllegalArgumentException(
            "cpu must be in [0, " + (topology.cpuCount() - 1) + "], got " + cpu);
      }
      queueCpu[q] = cpu;
      return this;
    }

    /** Only these queues are registered (the reduced-queue setups). */
    public Builder registered(int... queues) {
      Arrays.fill(registered, false);
      for (int q : queues) {
        checkQueue(q);
        registered[q] = true;
      }
      return this;
    }

    /** Initial loads, queue 0 first; missing entries stay 0. */
    public Builder nrReqs(int... perQueue) {
      if (perQueue.length > nrReqs.length) {
        throw new IllegalArgumentException(
            "nrReqs has " + perQueue.length + " entries for " + nrReqs.length + " queues");
      }
      System.arraycopy(perQueue, 0, nrReqs, 0, perQueue.length);
      return this;
    }

    /** CPUs that start offline (hotpluggability is the chaos actor's concern, not the view's). */
    public Builder offline(int... cpus) {
      this.offline = cpus.clone();
      return this;
    }

    public MutableRoutingView build() {
      return new MutableRoutingView(this);
    }

    private void checkQueue(int q) {
      if (q < 0 || q >= queueCpu.length) {
        throw new IllegalArgumentException(
            "queue must be in [0, " + (queueCpu.length - 1) + "], got " + q);
      }
    }
  }
}
